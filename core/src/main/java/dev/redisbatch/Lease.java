package dev.redisbatch;

import io.lettuce.core.api.StatefulRedisConnection;

/**
 * A pooled connection that a lane holds for the length of a batch, on one of the paths a
 * batch's bytes take ({@link Path}). Once broken it serves no more chunks and leaves the
 * pool; it ends once no chunk waits on it.
 */
abstract class Lease {

	private final BatchConnection connection;

	private boolean broken;

	private boolean ended;

	Lease(BatchConnection connection) {
		this.connection = connection;
	}

	BatchConnection connection() {
		return this.connection;
	}

	StatefulRedisConnection<byte[], byte[]> lettuce() {
		return this.connection.lettuce();
	}

	/**
	 * Which path the lease's bytes take.
	 */
	abstract Path path();

	/**
	 * Whether the connection is open, as far as it is known.
	 */
	abstract boolean isOpen();

	/**
	 * Whether the connection is still open, checked before each write: a close found now
	 * leaves the chunk unsent, for another connection to take.
	 */
	abstract boolean isOpenForWrite();

	/**
	 * Write a chunk's commands in one message.
	 * @return {@code false} when the connection was closed, so that nothing was sent
	 */
	abstract boolean write(Chunk chunk);

	/**
	 * Wait for the replies of a chunk written on this lease, until the deadline.
	 * @param deadline a {@link System#nanoTime()} value
	 * @return whether every reply of the chunk came; {@code false} when the deadline
	 * passed, the thread was interrupted or the connection closed first
	 */
	abstract boolean await(Chunk chunk, long deadline);

	/**
	 * Take the replies of a chunk that have arrived, without waiting (the batch's thread
	 * was interrupted).
	 * @return whether every reply of the chunk came
	 */
	abstract boolean takeArrived(Chunk chunk);

	/**
	 * Whether a chunk written on this lease may have left, as far as it is known.
	 */
	boolean wasWritten(Chunk chunk) {
		return true;
	}

	/**
	 * Whether the connection is closed (its replies will not all come).
	 */
	abstract boolean isClosed();

	/**
	 * End the lease on the connection.
	 * @return whether the connection is fit for another batch
	 */
	abstract boolean endLease();

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
		return endLease() && !this.broken;
	}

	/**
	 * The paths a batch's bytes take: the metric tag {@code path} and the observation say
	 * which one ran.
	 */
	enum Path {

		/**
		 * The batch's own thread writes and reads the connection's socket.
		 */
		CALLER("caller"),

		/**
		 * The connection's event loop writes and reads the socket, and the batch's thread
		 * decodes what it hands over (TLS, virtual threads).
		 */
		EVENT_LOOP("event-loop"),

		/**
		 * Lettuce's own pipelining: only Lettuce's public API.
		 */
		PORTABLE("portable");

		private final String tag;

		Path(String tag) {
			this.tag = tag;
		}

		/**
		 * The value of the {@code path} tag.
		 */
		String tag() {
			return this.tag;
		}

	}

}
