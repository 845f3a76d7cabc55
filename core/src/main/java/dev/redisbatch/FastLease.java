package dev.redisbatch;

import dev.redisbatch.wire.WireLease;

/**
 * A lease on the fast path: the chunks' bytes go below Lettuce, through the batch's
 * handler on the connection's channel, and their replies are decoded on the batch's
 * thread ({@link WireLease}).
 */
final class FastLease extends Lease {

	private final WireLease wire;

	private boolean checked;

	FastLease(BatchConnection connection, WireLease wire) {
		super(connection);
		this.wire = wire;
		wire.begin();
		// the pool checked it when lending it, a moment ago
		this.checked = true;
	}

	@Override
	Path path() {
		return this.wire.callerReads() ? Path.CALLER : Path.EVENT_LOOP;
	}

	@Override
	boolean isOpen() {
		return !this.wire.isClosed() && lettuce().isOpen();
	}

	/**
	 * When the batch's thread reads the socket, this reads the replies that have arrived
	 * (so that the server never holds them), and finds a close by the server.
	 */
	@Override
	boolean isOpenForWrite() {
		boolean open = this.checked ? !this.wire.isClosed() : this.wire.checkOpen();
		this.checked = false;
		return open && lettuce().isOpen();
	}

	@Override
	boolean write(Chunk chunk) {
		if (!this.wire.write(chunk.buffer(), chunk.deadline())) {
			return false;
		}
		this.wire.written(chunk.replies());
		return true;
	}

	@Override
	boolean await(Chunk chunk, long deadline) {
		return this.wire.await(chunk.replies(), deadline);
	}

	@Override
	boolean takeArrived(Chunk chunk) {
		this.wire.decodeArrived();
		return chunk.isDecoded();
	}

	@Override
	boolean isClosed() {
		return this.wire.isClosed();
	}

	@Override
	boolean endLease() {
		return this.wire.end();
	}

}
