package dev.redisbatch.wire;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * The bytes read for a lease and not yet decoded: what the event loop hands the batch's
 * thread (a lock-free queue, and a count that bounds it), and what the batch's thread
 * read from the socket itself (a plain queue of its own, never touched by another thread,
 * so no atomic operation is paid per read). The batch's thread takes the event loop's
 * first: the event loop stops reading before the batch's thread starts.
 */
final class Inbox {

	/**
	 * The most reply bytes the event loop reads ahead of the batch's thread. It covers
	 * the replies of a full window of large GETs, so that the server never buffers them
	 * ({@code omem} stays 0), while bounding what one connection holds.
	 */
	static final long MAX_QUEUED_BYTES = 64L << 20;

	private final ConcurrentLinkedQueue<ByteBuf> received = new ConcurrentLinkedQueue<>();

	private final AtomicLong queuedBytes = new AtomicLong();

	private final ArrayDeque<ByteBuf> readHere = new ArrayDeque<>(4);

	/**
	 * Where the batch's thread puts what it read, made once.
	 */
	private final Consumer<ByteBuf> sink = this.readHere::add;

	/**
	 * Take bytes the event loop read (on the event loop).
	 * @return whether more than {@link #MAX_QUEUED_BYTES} wait now: the event loop stops
	 * reading
	 */
	boolean received(ByteBuf bytes) {
		this.received.add(bytes);
		return this.queuedBytes.addAndGet(bytes.readableBytes()) > MAX_QUEUED_BYTES;
	}

	/**
	 * Where the batch's thread puts the bytes it read from the socket itself.
	 */
	Consumer<ByteBuf> readHere() {
		return this.sink;
	}

	/**
	 * The oldest bytes not yet taken, or {@code null} (on the batch's thread).
	 */
	@Nullable ByteBuf poll() {
		ByteBuf bytes = this.received.poll();
		if (bytes != null) {
			this.queuedBytes.addAndGet(-bytes.readableBytes());
			return bytes;
		}
		return this.readHere.poll();
	}

	/**
	 * Whether nothing waits to be taken.
	 */
	boolean isEmpty() {
		return this.received.isEmpty() && this.readHere.isEmpty();
	}

	/**
	 * Release everything not yet taken (on the batch's thread, which owns what it read).
	 */
	void releaseAll() {
		ByteBuf left;
		while ((left = poll()) != null) {
			left.release();
		}
	}

	/**
	 * Release what the event loop read and nobody took: the connection closed between
	 * leases (on the event loop).
	 */
	void releaseReceived() {
		ByteBuf left;
		while ((left = this.received.poll()) != null) {
			this.queuedBytes.addAndGet(-left.readableBytes());
			left.release();
		}
	}

}
