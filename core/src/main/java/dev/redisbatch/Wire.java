package dev.redisbatch;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import org.jspecify.annotations.Nullable;

/**
 * The batch's own end of a batch connection's Netty pipeline: it sits between TLS (if
 * any) and Lettuce's {@code CommandEncoder}, so that a chunk's bytes are written below
 * Lettuce, and the replies to them are read before Lettuce's {@code CommandHandler} sees
 * them.
 * <p>
 * While a batch leases the connection, the event loop only moves bytes: it queues every
 * buffer it reads, wakes the batch's thread if it is parked, and stops reading when more
 * than {@link #MAX_QUEUED_BYTES} wait to be decoded. The batch's thread decodes them
 * ({@link Replies}). Between leases, everything passes through to Lettuce untouched: the
 * connection's handshake, the {@code CONFIG GET} at creation, the pool's validation and
 * the {@code SCAN}s of bulk operations never meet a chunk, because a connection is either
 * leased to one batch or idle in the pool.
 */
final class Wire extends ChannelDuplexHandler {

	/**
	 * The handler's name in the pipeline.
	 */
	static final String NAME = "redis-batch-wire";

	/**
	 * The most reply bytes read ahead of the batch's thread. It covers the replies of a
	 * full window of large GETs, so that the server never buffers them ({@code omem}
	 * stays 0), while bounding what one connection holds.
	 */
	static final long MAX_QUEUED_BYTES = 64L << 20;

	private final ConcurrentLinkedQueue<ByteBuf> received = new ConcurrentLinkedQueue<>();

	private final AtomicLong queuedBytes = new AtomicLong();

	private volatile boolean leased;

	private volatile boolean closed;

	private volatile @Nullable Thread waiter;

	private volatile @Nullable ChannelHandlerContext context;

	/**
	 * The decoding state of the connection, used by one lease at a time.
	 */
	private @Nullable Replies replies;

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.context = ctx;
		if (!ctx.channel().isOpen()) {
			this.closed = true;
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object message) {
		if (this.leased && message instanceof ByteBuf bytes) {
			this.received.add(bytes);
			if (this.queuedBytes.addAndGet(bytes.readableBytes()) > MAX_QUEUED_BYTES) {
				ctx.channel().config().setAutoRead(false);
			}
			wake();
			return;
		}
		ctx.fireChannelRead(message);
	}

	/**
	 * Lettuce's own writes pass through here (the batch's writes start below). Lettuce
	 * writing on a leased connection (a re-authentication the application enabled) would
	 * make its reply look like a chunk's: the connection is closed instead, so that the
	 * chunk's commands end {@code UNKNOWN} and none is ever given another's reply.
	 */
	@Override
	public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
		if (this.leased) {
			ctx.channel().close();
		}
		ctx.write(message, promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		this.closed = true;
		wake();
		super.channelInactive(ctx);
	}

	private void wake() {
		Thread thread = this.waiter;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	// ------------------------------------------------------------------ the batch's side

	/**
	 * Take the connection's replies from now on (its batch leased it).
	 * @return where the lease decodes them
	 */
	Replies lease() {
		this.leased = true;
		Replies current = this.replies;
		if (current == null) {
			current = new Replies(this);
			this.replies = current;
		}
		return current;
	}

	/**
	 * Hand the connection's replies back to Lettuce (its batch gave it back).
	 * @return whether nothing of the lease was left unread
	 */
	boolean endLease() {
		this.leased = false;
		boolean clean = true;
		ByteBuf left;
		while ((left = poll()) != null) {
			clean = false;
			left.release();
		}
		return clean;
	}

	/**
	 * Close the connection (its bytes could not be read).
	 */
	void close() {
		ChannelHandlerContext ctx = this.context;
		if (ctx != null) {
			ctx.channel().close();
		}
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Write bytes on the connection, below Lettuce's encoder (and above TLS, which
	 * encrypts them). A failed write closes the connection, whose replies then never
	 * come.
	 * @param bytes the bytes, released once written
	 * @return {@code false} when the connection was closed, so that nothing was written
	 */
	boolean write(ByteBuf bytes) {
		ChannelHandlerContext ctx = this.context;
		if (ctx == null || this.closed || !ctx.channel().isActive()) {
			bytes.release();
			return false;
		}
		ctx.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
		return true;
	}

	/**
	 * The oldest buffer read and not yet taken, or {@code null}.
	 */
	@Nullable ByteBuf poll() {
		ByteBuf bytes = this.received.poll();
		if (bytes != null) {
			this.queuedBytes.addAndGet(-bytes.readableBytes());
		}
		return bytes;
	}

	/**
	 * Park the calling thread until bytes arrive, the connection closes, the deadline
	 * passes or the thread is interrupted.
	 * @param deadline a {@link System#nanoTime()} value
	 */
	void awaitBytes(long deadline) {
		this.waiter = Thread.currentThread();
		try {
			while (this.received.isEmpty() && !this.closed) {
				ChannelHandlerContext ctx = this.context;
				if (ctx != null && !ctx.channel().config().isAutoRead()) {
					// everything read ahead was taken: read on
					ctx.channel().config().setAutoRead(true);
				}
				long left = deadline - System.nanoTime();
				if (left <= 0 || Thread.currentThread().isInterrupted()) {
					return;
				}
				LockSupport.parkNanos(this, left);
			}
		}
		finally {
			this.waiter = null;
		}
	}

}
