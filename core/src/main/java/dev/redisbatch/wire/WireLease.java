package dev.redisbatch.wire;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import dev.redisbatch.internals.LettucePipeline;
import dev.redisbatch.internals.NioSockets;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import org.jspecify.annotations.Nullable;

/**
 * The batch's thread's side of a batch connection: it leases the connection, writes
 * chunks on it and decodes their replies, and gives it back. One per connection, reused
 * by every lease; only the thread that leases the connection (or the pool's, between
 * leases) touches it.
 * <p>
 * On a plaintext connection leased from a platform thread, the batch's thread reads and
 * writes the socket itself ({@link CallerSocket}): the event loop stops reading it when
 * the first lease starts, and reads it again as soon as Lettuce writes on it between
 * leases. Both switches run on the event loop, so that no byte is read by both. Under
 * TLS, behind a handler of the application's, on another transport than NIO and on
 * virtual threads, the event loop reads and writes, and the batch's thread decodes what
 * it hands over.
 */
public final class WireLease {

	/**
	 * The system property that, set to {@code false} before connections open, leaves
	 * every read and write of theirs to the event loop, as under TLS: for comparing the
	 * two paths, not for production. By default the batch's thread reads and writes the
	 * sockets of plaintext connections.
	 */
	public static final String CALLER_IO = "dev.redisbatch.caller-io";

	private final Wire wire;

	private final LeaseState state;

	private final Inbox inbox;

	private final Replies replies;

	/**
	 * The socket the batch's thread reads and writes, once known: {@code null} under TLS
	 * or another transport than NIO.
	 */
	private volatile @Nullable CallerSocket socket;

	private boolean socketResolved;

	private final Consumer<ByteBuf> readHere;

	WireLease(Wire wire, LeaseState state, Inbox inbox) {
		this.wire = wire;
		this.state = state;
		this.inbox = inbox;
		this.readHere = inbox.readHere();
		this.replies = new Replies(inbox, this::headroom);
	}

	/**
	 * Lease the connection: its replies come here from now on. It starts once Lettuce has
	 * the replies to its own commands, and once Lettuce's writes held by the lease before
	 * have gone out.
	 * @return whether the connection is open; when it is not, the lease's chunks are not
	 * sent
	 */
	public boolean begin() {
		while (true) {
			if (this.wire.holdsWrites() && !onEventLoop(this.wire::writeHeld)) {
				// Lettuce's writes from the lease before go first: the event loop is gone
				return leaseClosed();
			}
			if (this.state.tryLease()) {
				if (!this.wire.holdsWrites()) {
					break;
				}
				// a write of Lettuce's was held by the lease before, a moment ago: it
				// goes
				// first, or a thread that runs one batch after another would hold it
				// for ever
				this.state.endLease();
				continue;
			}
			// Lettuce awaits replies of its own (or, wrongly, another lease holds it)
			if (this.state.isLeased() || !this.state.awaitLettuce()) {
				return leaseClosed();
			}
		}
		this.replies.begin();
		CallerSocket direct = callerSocket();
		boolean callerReads = direct != null && CallerSocket.callerMayWait();
		if (callerReads != this.wire.callerReads()) {
			switchReader(!callerReads);
		}
		return !this.state.isClosed();
	}

	private boolean leaseClosed() {
		fail();
		this.state.leaseClosed();
		this.replies.begin();
		return false;
	}

	/**
	 * Whether the batch's thread reads and writes the socket itself (rather than the
	 * event loop).
	 * @return whether it does, as the last lease switched it
	 */
	public boolean callerReads() {
		return this.wire.callerReads() && this.socket != null;
	}

	private @Nullable CallerSocket callerSocket() {
		if (!this.socketResolved) {
			ChannelHandlerContext ctx = this.wire.context();
			this.socket = (ctx != null && !"false".equals(System.getProperty(CALLER_IO))) ? socketOf(ctx.channel())
					: null;
			this.socketResolved = true;
		}
		return this.socket;
	}

	/**
	 * The socket of a plaintext NIO channel whose handlers before the batch's are all
	 * Lettuce's: a handler of the application's there (TLS, a traffic shaper, a logging
	 * handler) must see every byte, which only the event loop's path shows it.
	 */
	private @Nullable CallerSocket socketOf(Channel channel) {
		if (!LettucePipeline.onlyLettuceBefore(channel.pipeline(), this.wire)) {
			return null;
		}
		SocketChannel jdk = NioSockets.socketOf(channel);
		return (jdk != null) ? new CallerSocket(jdk, channel.alloc()) : null;
	}

	/**
	 * Let the event loop read the socket, or stop it, and wait until it did: the bytes it
	 * read before are queued (or went to Lettuce) before the batch's thread reads any.
	 */
	private void switchReader(boolean eventLoopReads) {
		if (!onEventLoop((ctx) -> this.wire.readOnEventLoop(ctx, eventLoopReads))) {
			fail();
		}
	}

	/**
	 * Run a task on the connection's event loop, and wait until it ran.
	 * @return {@code false} when it did not run: the event loop is shut down (so is the
	 * connection) or stuck, or the waiting thread was interrupted (its flag stays set)
	 */
	private boolean onEventLoop(Consumer<ChannelHandlerContext> task) {
		ChannelHandlerContext ctx = this.wire.context();
		if (ctx == null) {
			return false;
		}
		if (ctx.executor().inEventLoop()) {
			task.accept(ctx);
			return true;
		}
		// a CompletableFuture parks the waiting thread, without pinning a virtual one
		CompletableFuture<Void> ran = new CompletableFuture<>();
		try {
			ctx.executor().execute(() -> {
				task.accept(ctx);
				ran.complete(null);
			});
			ran.get(LeaseState.SWITCH_NANOS, TimeUnit.NANOSECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Write bytes on the connection, below Lettuce's encoder (and above TLS, which
	 * encrypts them). A failed write closes the connection, whose replies then never
	 * come.
	 * @param bytes the bytes: its readable ones are written, and it stays the caller's,
	 * with its indices as they were (the event loop writes a duplicate of its own)
	 * @param deadline when the bytes must have gone out, a {@link System#nanoTime()}
	 * value
	 * @return {@code false} when the connection was closed, so that nothing was written
	 */
	public boolean write(ByteBuf bytes, long deadline) {
		ChannelHandlerContext ctx = this.wire.context();
		if (ctx == null || this.state.isClosed() || !ctx.channel().isActive()) {
			return false;
		}
		CallerSocket direct = this.socket;
		if (this.wire.callerReads() && direct != null) {
			return writeSocket(direct, bytes, deadline);
		}
		ctx.writeAndFlush(bytes.retainedDuplicate()).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
		return true;
	}

	/**
	 * Write on the batch's thread. Bytes that did not all go out before the deadline
	 * leave the connection unusable: it is closed, and the replies never come.
	 * @return {@code false} when nothing was written (the connection had closed)
	 */
	private boolean writeSocket(CallerSocket direct, ByteBuf bytes, long deadline) {
		int start = bytes.readerIndex();
		int written;
		try {
			if (!direct.write(bytes, deadline, this.readHere)) {
				fail();
			}
		}
		catch (IOException | RuntimeException ex) {
			fail();
		}
		finally {
			written = bytes.readerIndex() - start;
			bytes.readerIndex(start);
		}
		return written > 0 || !this.state.isClosed();
	}

	/**
	 * Requests were written: their replies follow those written before them.
	 * @param reader what the replies are decoded into
	 */
	public void written(ReplyReader reader) {
		this.replies.written(reader);
	}

	/**
	 * Decode the replies of a reader, waiting for them until the deadline.
	 * @param reader what the replies are decoded into
	 * @param deadline a {@link System#nanoTime()} value
	 * @return whether every reply of the reader was decoded; {@code false} when the
	 * deadline passed, the thread was interrupted or the connection closed first
	 */
	public boolean await(ReplyReader reader, long deadline) {
		boolean waited = false;
		while (true) {
			decodeArrived();
			if (reader.isDecoded()) {
				return true;
			}
			if (isClosed()) {
				// every byte received before the close is decoded first
				decodeArrived();
				return reader.isDecoded();
			}
			// before the first wait the clock is not read: a wait past the deadline (or
			// of an interrupted thread) returns at once, with what has arrived
			if (waited && (deadline - System.nanoTime() <= 0 || Thread.currentThread().isInterrupted())) {
				return false;
			}
			awaitBytes(deadline);
			waited = true;
		}
	}

	/**
	 * Decode what has arrived, without waiting.
	 */
	public void decodeArrived() {
		this.replies.decodeReceived();
		if (this.replies.isUnreadable()) {
			close();
		}
	}

	/**
	 * Wait until bytes arrive, the connection closes, the deadline passes or the thread
	 * is interrupted.
	 */
	private void awaitBytes(long deadline) {
		CallerSocket direct = this.socket;
		boolean callerReads = this.wire.callerReads() && direct != null;
		if (callerReads && this.state.isLeased()) {
			if (this.inbox.isEmpty() && !this.state.isClosed()) {
				readSocket(direct, deadline);
			}
			return;
		}
		// (a lease that ended early, its connection closing, reads no more: it waits for
		// the close)
		this.state.waiting();
		try {
			while (this.inbox.isEmpty() && !this.state.isClosed()) {
				ChannelHandlerContext ctx = this.wire.context();
				if (!callerReads && ctx != null && !ctx.channel().config().isAutoRead()) {
					// everything read ahead was taken: read on
					ctx.channel().config().setAutoRead(true);
				}
				if (!this.state.park(deadline)) {
					return;
				}
			}
		}
		finally {
			this.state.doneWaiting();
		}
	}

	/**
	 * Read the socket on the batch's thread, waiting until the deadline when
	 * {@code deadline} is not {@code 0}.
	 */
	private void readSocket(CallerSocket direct, long deadline) {
		try {
			if (deadline == 0) {
				direct.readArrived(this.readHere);
			}
			else {
				direct.awaitAndRead(deadline, this.readHere);
			}
		}
		catch (IOException | RuntimeException ex) {
			// closed by the server, reset, or closed by the event loop meanwhile
			fail();
		}
	}

	/**
	 * Whether the connection is closed, or its bytes could not be read.
	 * @return whether it is
	 */
	public boolean isClosed() {
		return this.state.isClosed() || this.replies.isUnreadable();
	}

	/**
	 * Whether the connection is still open. When the batch's thread reads the socket, it
	 * reads what has arrived first, without waiting: the event loop does not read the
	 * socket then, so only a read finds that the server closed it. During a lease, what
	 * it reads is queued: the replies of chunks in flight, read now so that the server
	 * never holds them. Between leases nothing may arrive: a byte that did (a push frame,
	 * or a reply nobody waits for) is not passed off as a chunk's reply, and the
	 * connection is closed instead. Between leases it first waits for the replies to
	 * Lettuce's own commands, if any: at most ten seconds, after which the connection is
	 * closed.
	 * @return whether it is open
	 */
	public boolean checkOpen() {
		if (this.state.isLettuces() && !this.state.awaitLettuce()) {
			fail();
			return false;
		}
		ChannelHandlerContext ctx = this.wire.context();
		if (ctx != null && !ctx.channel().isOpen() && !this.state.isClosed()) {
			// Netty closed the channel and tells its handlers in a later task: until then
			// only the channel knows
			fail();
			return false;
		}
		CallerSocket direct = this.socket;
		if (this.wire.callerReads() && direct != null && !this.state.isClosed()) {
			if (this.state.isLeased()) {
				readSocket(direct, 0);
			}
			else if (!direct.isQuiet() || !this.inbox.isEmpty()) {
				this.inbox.releaseAll();
				fail();
			}
		}
		return !this.state.isClosed();
	}

	/**
	 * Give the connection's replies back to Lettuce: the lease ends.
	 * @return whether nothing of the lease was left unread, so that the connection can
	 * serve another batch
	 */
	public boolean end() {
		boolean clean = this.replies.end();
		this.state.endLease();
		clean &= this.inbox.isEmpty();
		this.inbox.releaseAll();
		ChannelHandlerContext ctx = this.wire.context();
		if (ctx == null) {
			return clean;
		}
		if (!this.wire.callerReads() && !ctx.channel().config().isAutoRead()) {
			// the replies read ahead reached the cap and were all taken: between leases
			// Lettuce's replies and the server's close must be read
			ctx.channel().config().setAutoRead(true);
		}
		if (this.wire.holdsWrites()) {
			try {
				ctx.executor().execute(() -> this.wire.writeHeld(ctx));
			}
			catch (RejectedExecutionException ex) {
				// the event loop is shut down, and the connection with it
				this.wire.failHeld();
			}
		}
		return clean;
	}

	/**
	 * The connection can no longer be read: it is closed.
	 */
	private void fail() {
		this.state.closed();
		close();
	}

	/**
	 * Close the connection (its bytes could not be read, or a deadline passed).
	 */
	public void close() {
		ChannelHandlerContext ctx = this.wire.context();
		if (ctx != null) {
			ctx.channel().close();
		}
	}

	/**
	 * The room in front of a buffer's bytes where the bytes that came before them may be
	 * put: only a buffer the batch's thread read into has any.
	 */
	private int headroom(ByteBuf bytes) {
		CallerSocket direct = this.socket;
		return (direct != null) ? direct.headroom(bytes) : 0;
	}

	/**
	 * The connection closed (on the event loop): a thread waiting on the socket returns.
	 */
	void socketClosed() {
		CallerSocket current = this.socket;
		if (current != null) {
			current.close();
		}
	}

}
