package dev.redisbatch.autobatch;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.jspecify.annotations.Nullable;

/**
 * The first handler a connection's writes meet: it collects the writes of the callers'
 * threads and hands them to the event loop as one task.
 * <p>
 * Lettuce writes every command with {@code channel.writeAndFlush} on the caller's thread.
 * Netty then queues one task per command on the connection's event loop and flushes each
 * one with a system call of its own. This handler sits nearest the pipeline's tail,
 * registered with {@link ImmediateEventExecutor}, so Netty calls it on the caller's
 * thread instead. It puts the write on a lock-free stack; the writer that finds the stack
 * empty schedules one drain on the event loop. The drain writes everything queued by
 * then, in the order it was queued, and flushes once: a group commit with one event-loop
 * task and one flush per group instead of one per command. A lone command is written by
 * the drain its own write scheduled, as soon as Netty's own task would be: no timer,
 * ever.
 * <p>
 * Writes made on the event loop itself (Lettuce's handshake, commands re-sent after a
 * reconnect, reactive code continuing on the event loop) go down the pipeline at once,
 * exactly where Netty would have put them; only their flush waits for the next drain, at
 * the end of the event loop's current turn. Every drain ends with a flush, so a flush is
 * deferred to the end of the turn, never held back.
 * <p>
 * A close or disconnect from a caller's thread takes the same way as the writes: what a
 * thread wrote before it closes the connection leaves before the close, even when another
 * thread's drain is still on its way to the event loop. On the event loop it goes at
 * once, as Netty's own does.
 * <p>
 * When the event loop is shut down, the writes waiting for it fail with Netty's
 * rejection, as a write Netty cannot hand to its event loop does.
 */
final class CallerWrites extends ChannelOutboundHandlerAdapter {

	/**
	 * The handler's name in the pipeline.
	 */
	static final String NAME = "redisBatchCallerWrites";

	/**
	 * The writes waiting for the drain, latest first ({@code null}: none).
	 */
	private final AtomicReference<@Nullable Pending> waiting = new AtomicReference<>();

	private final Runnable drain = this::drain;

	private @Nullable ChannelHandlerContext context;

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.context = ctx;
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (ctx.channel().eventLoop().inEventLoop()) {
			ctx.write(msg, promise);
		}
		else {
			enqueue(ctx, new Pending(Pending.WRITE, msg, promise));
		}
	}

	@Override
	public void flush(ChannelHandlerContext ctx) {
		// Every drain ends with a flush: while one is due, it carries this flush too.
		if (this.waiting.get() == null) {
			enqueue(ctx, new Pending(Pending.FLUSH, null, null));
		}
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		endAfterWrites(ctx, Pending.CLOSE, promise);
	}

	@Override
	public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
		endAfterWrites(ctx, Pending.DISCONNECT, promise);
	}

	/**
	 * Close or disconnect once every write queued before has gone down the pipeline.
	 */
	private void endAfterWrites(ChannelHandlerContext ctx, int kind, ChannelPromise promise) {
		if (ctx.channel().eventLoop().inEventLoop()) {
			// at once, as Netty's own close there: before the writes of other threads
			// that wait for the event loop
			end(ctx, kind, promise);
		}
		else {
			enqueue(ctx, new Pending(kind, null, promise));
		}
	}

	private static void end(ChannelHandlerContext ctx, int kind, ChannelPromise promise) {
		if (kind == Pending.CLOSE) {
			ctx.close(promise);
		}
		else {
			ctx.disconnect(promise);
		}
	}

	private void enqueue(ChannelHandlerContext ctx, Pending pending) {
		Pending latest;
		do {
			latest = this.waiting.get();
			pending.next = latest;
		}
		while (!this.waiting.compareAndSet(latest, pending));
		if (latest == null) {
			try {
				ctx.channel().eventLoop().execute(this.drain);
			}
			catch (RejectedExecutionException ex) {
				fail(takeAll(), ex);
			}
		}
	}

	/**
	 * On the event loop: write what waits, in order, and flush once.
	 */
	private void drain() {
		ChannelHandlerContext ctx = this.context;
		if (ctx == null) {
			return;
		}
		for (Pending pending = takeAll(); pending != null; pending = pending.next) {
			if (pending.message != null && pending.promise != null) {
				ctx.write(pending.message, pending.promise);
			}
			else if (pending.kind != Pending.FLUSH && pending.promise != null) {
				ctx.flush();
				end(ctx, pending.kind, pending.promise);
			}
		}
		ctx.flush();
	}

	/**
	 * Take every waiting write, oldest first.
	 */
	private @Nullable Pending takeAll() {
		Pending latestFirst = this.waiting.getAndSet(null);
		Pending oldestFirst = null;
		while (latestFirst != null) {
			Pending next = latestFirst.next;
			latestFirst.next = oldestFirst;
			oldestFirst = latestFirst;
			latestFirst = next;
		}
		return oldestFirst;
	}

	private static void fail(@Nullable Pending pending, Throwable cause) {
		for (; pending != null; pending = pending.next) {
			if (pending.message != null) {
				ReferenceCountUtil.release(pending.message);
			}
			if (pending.promise != null) {
				pending.promise.tryFailure(cause);
			}
		}
	}

	/**
	 * A write, a flush, a close or a disconnect waiting for the drain.
	 */
	private static final class Pending {

		static final int WRITE = 0;

		static final int FLUSH = 1;

		static final int CLOSE = 2;

		static final int DISCONNECT = 3;

		final int kind;

		final @Nullable Object message;

		final @Nullable ChannelPromise promise;

		@Nullable Pending next;

		Pending(int kind, @Nullable Object message, @Nullable ChannelPromise promise) {
			this.kind = kind;
			this.message = message;
			this.promise = promise;
		}

	}

}
