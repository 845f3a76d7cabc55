package dev.redisbatch.wire;

import java.util.ArrayDeque;
import java.util.function.ToIntFunction;

import dev.redisbatch.internals.ReplyDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * The decoding of one connection's replies, on the batch's thread: the bytes read for the
 * lease are decoded in order into the readers written on it, oldest first. A reader that
 * settled without every reply (its deadline passed) stays first until its late replies
 * are read past, so that the next reader's replies are never taken for its. The decoder
 * stays with the connection for its next lease.
 */
final class Replies {

	private final Inbox inbox;

	private final ToIntFunction<ByteBuf> headroom;

	private final ArrayDeque<ReplyReader> written = new ArrayDeque<>(4);

	private final ReplyDecoder decoder = new ReplyDecoder();

	private ByteBuf bytes = Unpooled.EMPTY_BUFFER;

	private boolean unreadable;

	/**
	 * Whether the lease ended: what arrives after it is released, never decoded.
	 */
	private boolean ended = true;

	/**
	 * @param inbox where the lease's bytes come from
	 * @param headroom the room in front of a buffer's bytes where the bytes before them
	 * may be put
	 */
	Replies(Inbox inbox, ToIntFunction<ByteBuf> headroom) {
		this.inbox = inbox;
		this.headroom = headroom;
	}

	/**
	 * A lease starts.
	 */
	void begin() {
		this.ended = false;
	}

	/**
	 * A reader's requests were written: its replies follow those written before it.
	 */
	void written(ReplyReader reader) {
		this.written.add(reader);
	}

	/**
	 * Whether bytes that are not RESP were read: nothing after them can be trusted.
	 */
	boolean isUnreadable() {
		return this.unreadable;
	}

	/**
	 * Decode what has arrived, into the oldest readers first.
	 */
	void decodeReceived() {
		if (this.ended) {
			// the lease ended early (its connection broke): nothing waits for these
			this.inbox.releaseAll();
			return;
		}
		// one buffer at a time: what is left of one before the next is added is then the
		// start of one reply, not the whole buffer
		ByteBuf next = this.inbox.poll();
		do {
			if (next != null) {
				this.bytes = cumulate(this.bytes, next);
			}
			decodeBytes();
		}
		while (!this.unreadable && (next = this.inbox.poll()) != null);
		if (!this.bytes.isReadable()) {
			this.bytes.release();
			this.bytes = Unpooled.EMPTY_BUFFER;
		}
		else {
			this.bytes.discardSomeReadBytes();
		}
	}

	private void decodeBytes() {
		ReplyReader oldest;
		try {
			while ((oldest = this.written.peek()) != null && oldest.read(this.bytes, this.decoder)) {
				this.written.poll();
			}
		}
		catch (RuntimeException ex) {
			this.unreadable = true;
			this.written.clear();
			this.bytes.skipBytes(this.bytes.readableBytes());
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
		if (leftBytes > 0 && leftBytes <= this.headroom.applyAsInt(next)) {
			int start = next.readerIndex() - leftBytes;
			next.setBytes(start, left, left.readerIndex(), leftBytes);
			next.readerIndex(start);
			left.release();
			return next;
		}
		return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ByteBufAllocator.DEFAULT, left, next);
	}

	/**
	 * The lease ends: the bytes are released, and the decoder is ready for the next
	 * lease.
	 * @return whether every reader was answered and no byte is left, so that the
	 * connection can serve another batch
	 */
	boolean end() {
		this.ended = true;
		boolean clean = this.written.isEmpty() && !this.bytes.isReadable() && !this.unreadable;
		this.written.clear();
		this.bytes.release();
		this.bytes = Unpooled.EMPTY_BUFFER;
		if (!clean) {
			// it may hold a reply read in part; after every reply was read, it holds
			// nothing (each reply read resets what it used)
			this.decoder.reset();
		}
		this.unreadable = false;
		return clean;
	}

}
