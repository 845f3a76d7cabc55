package dev.redisbatch;

import io.lettuce.core.api.StatefulConnection;

/**
 * A pooled connection that a lane holds for the length of a batch. Once broken it serves
 * no more chunks and leaves the pool.
 */
final class Lease {

	private final StatefulConnection<byte[], byte[]> connection;

	private boolean broken;

	Lease(StatefulConnection<byte[], byte[]> connection) {
		this.connection = connection;
	}

	StatefulConnection<byte[], byte[]> connection() {
		return this.connection;
	}

	boolean isOpen() {
		return this.connection.isOpen();
	}

	boolean isBroken() {
		return this.broken;
	}

	/**
	 * Mark it broken.
	 * @return whether it was not broken before
	 */
	boolean markBroken() {
		boolean first = !this.broken;
		this.broken = true;
		return first;
	}

}
