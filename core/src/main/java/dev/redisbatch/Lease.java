package dev.redisbatch;

import io.lettuce.core.api.StatefulConnection;

/**
 * A pooled connection that a lane holds for the length of a batch: while it does, the
 * connection's {@link Wire} hands every reply to the lease's {@link Replies}, decoded on
 * the batch's thread. Once broken it serves no more chunks and leaves the pool.
 */
final class Lease {

	private final StatefulConnection<byte[], byte[]> connection;

	private final Wire wire;

	private final Replies replies;

	private boolean broken;

	private boolean checked;

	private boolean ended;

	Lease(StatefulConnection<byte[], byte[]> connection, Wire wire) {
		this.connection = connection;
		this.wire = wire;
		this.replies = wire.lease();
		// the pool checked it when lending it, a moment ago
		this.checked = true;
	}

	StatefulConnection<byte[], byte[]> connection() {
		return this.connection;
	}

	Replies replies() {
		return this.replies;
	}

	/**
	 * Whether the connection is open, as far as it is known.
	 */
	boolean isOpen() {
		return !this.wire.isClosed() && this.connection.isOpen();
	}

	/**
	 * Whether the connection is still open, checked before each write: when the batch's
	 * thread reads the socket, this reads the replies that have arrived (so that the
	 * server never holds them), and finds a close by the server.
	 */
	boolean isOpenForWrite() {
		boolean open = this.checked ? !this.wire.isClosed() : this.wire.checkOpen();
		this.checked = false;
		return open && this.connection.isOpen();
	}

	/**
	 * Write a chunk's bytes in one message.
	 * @return {@code false} when the connection was closed, so that nothing was sent
	 */
	boolean write(Chunk chunk) {
		if (!this.wire.write(chunk.buffer(), chunk.deadline())) {
			return false;
		}
		this.replies.written(chunk);
		return true;
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

	/**
	 * End the lease, once: the connection's replies go to Lettuce again, and what was
	 * read for the lease is released.
	 * @return whether the connection is fit for another batch: every reply of the lease
	 * was read, nothing else arrived, and it did not break
	 */
	boolean end() {
		if (this.ended) {
			return false;
		}
		this.ended = true;
		return this.replies.end() && !this.broken;
	}

}
