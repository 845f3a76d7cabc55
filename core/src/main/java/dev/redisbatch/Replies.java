package dev.redisbatch;

import java.util.ArrayDeque;

import io.lettuce.core.protocol.RedisStateMachine;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * The replies of one lease, decoded on the batch's thread: the bytes its {@link Wire}
 * queued are decoded in order into the chunks written on the connection, oldest first. A
 * chunk that settled without every reply (its deadline passed) stays first until its late
 * replies are read past, so that the next chunk's replies are never taken for its.
 */
final class Replies {

	private final Wire wire;

	private final ArrayDeque<Chunk> written = new ArrayDeque<>(4);

	private final RedisStateMachine decoder = new RedisStateMachine();

	private ByteBuf bytes = Unpooled.EMPTY_BUFFER;

	private boolean unreadable;

	/**
	 * Whether the lease ended: what arrives after it is released, never decoded.
	 */
	private boolean ended = true;

	Replies(Wire wire) {
		this.wire = wire;
	}

	/**
	 * A lease starts.
	 */
	void begin() {
		this.ended = false;
	}

	/**
	 * A chunk was written: its replies follow those of the chunks written before it.
	 */
	void written(Chunk chunk) {
		this.written.add(chunk);
	}

	/**
	 * Decode the replies of the given chunk, waiting for them until the deadline.
	 * @param deadline a {@link System#nanoTime()} value
	 * @return whether every reply of the chunk was decoded; {@code false} when the
	 * deadline passed, the thread was interrupted or the connection closed first
	 */
	boolean await(Chunk chunk, long deadline) {
		boolean waited = false;
		while (true) {
			decodeReceived();
			if (chunk.isDecoded()) {
				return true;
			}
			if (isClosed()) {
				// every byte received before the close is decoded first
				decodeReceived();
				return chunk.isDecoded();
			}
			// before the first wait the clock is not read: a wait past the deadline (or
			// of an interrupted thread) returns at once, with what has arrived
			if (waited && (deadline - System.nanoTime() <= 0 || Thread.currentThread().isInterrupted())) {
				return false;
			}
			this.wire.awaitBytes(deadline);
			waited = true;
		}
	}

	/**
	 * Decode what has arrived, into the oldest chunks first.
	 */
	void decodeReceived() {
		if (this.ended) {
			// the lease ended early (its connection broke): nothing waits for these
			ByteBuf late;
			while ((late = this.wire.poll()) != null) {
				late.release();
			}
			return;
		}
		// one buffer at a time: what is left of one before the next is added is then the
		// start of one reply, not the whole buffer
		ByteBuf next = this.wire.poll();
		do {
			if (next != null) {
				this.bytes = cumulate(this.bytes, next);
			}
			decodeBytes();
		}
		while (!this.unreadable && (next = this.wire.poll()) != null);
		if (!this.bytes.isReadable()) {
			this.bytes.release();
			this.bytes = Unpooled.EMPTY_BUFFER;
		}
		else {
			this.bytes.discardSomeReadBytes();
		}
	}

	/**
	 * Decode what the bytes hold, into the oldest chunks first.
	 */
	private void decodeBytes() {
		Chunk oldest;
		try {
			while ((oldest = this.written.peek()) != null && oldest.decode(this.bytes, this.decoder)) {
				this.written.poll();
			}
		}
		catch (RuntimeException ex) {
			// bytes that are not RESP: nothing after them can be trusted
			this.unreadable = true;
			this.written.clear();
			this.bytes.skipBytes(this.bytes.readableBytes());
			this.wire.close();
		}
	}

	/**
	 * The bytes still to decode followed by the next ones read. What is left before them
	 * is mostly the start of one reply: when it fits in front of the next bytes (a buffer
	 * the batch's thread read into keeps room there), it is copied there, and the whole
	 * read is not copied after it.
	 */
	private ByteBuf cumulate(ByteBuf left, ByteBuf next) {
		int leftBytes = left.readableBytes();
		if (leftBytes > 0 && leftBytes <= this.wire.headroom(next)) {
			int start = next.readerIndex() - leftBytes;
			next.setBytes(start, left, left.readerIndex(), leftBytes);
			next.readerIndex(start);
			left.release();
			return next;
		}
		return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ByteBufAllocator.DEFAULT, left, next);
	}

	/**
	 * Whether the connection is closed.
	 */
	boolean isClosed() {
		return this.unreadable || this.wire.isClosed();
	}

	/**
	 * End the lease: the replies go to Lettuce again, the bytes are released, and the
	 * decoder is ready for the next lease.
	 * @return whether every chunk was answered and nothing else arrived, so that the
	 * connection can serve another batch
	 */
	boolean end() {
		this.ended = true;
		boolean clean = this.written.isEmpty() && !this.bytes.isReadable();
		clean &= this.wire.endLease();
		this.written.clear();
		this.bytes.release();
		this.bytes = Unpooled.EMPTY_BUFFER;
		if (!clean || this.unreadable) {
			// it may hold a reply read in part; after every reply was read, it holds
			// nothing (each reply read resets what it used)
			this.decoder.reset();
		}
		this.unreadable = false;
		return clean;
	}

}
