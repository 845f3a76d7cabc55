package dev.redisbatch;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

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
 * connection's handshake, the {@code CONFIG GET} at creation and the {@code SCAN}s of
 * bulk operations never meet a chunk. A lease starts only once Lettuce has the replies to
 * every command it wrote, and what Lettuce writes during a lease (a re-authentication on
 * new credentials) is held until the lease ends.
 * <p>
 * On a plaintext connection leased from a platform thread, the batch's thread reads and
 * writes the socket itself ({@link CallerSocket}): the event loop stops reading it when
 * the first lease starts, and reads it again as soon as Lettuce writes on it between
 * leases. Both switches run on the event loop, so that no byte is read by both.
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

	/**
	 * The system property that, set to {@code false} before connections open, leaves
	 * every read and write of theirs to the event loop, as under TLS: for comparing the
	 * two paths, not for production. By default the batch's thread reads and writes the
	 * sockets of plaintext connections.
	 */
	static final String CALLER_IO = "redis.batch.caller-io";

	/**
	 * How long the batch's thread waits for the event loop to start or stop reading, or
	 * for the replies to Lettuce's own commands before it leases the connection.
	 */
	private static final long SWITCH_SECONDS = 10;

	/**
	 * The connection is idle: neither a batch nor Lettuce is using it.
	 */
	private static final int IDLE = 0;

	/**
	 * A batch leases the connection: every byte read is its chunks' replies.
	 */
	private static final int LEASED = 1;

	/**
	 * Lettuce wrote commands of its own between leases (a re-authentication, a bulk
	 * operation's {@code SCAN}, the handshake), and waits for their replies: no lease
	 * starts until they are in.
	 */
	private static final int LETTUCE = 2;

	/**
	 * What the event loop read for the lease: handed from one thread to another.
	 */
	private final ConcurrentLinkedQueue<ByteBuf> received = new ConcurrentLinkedQueue<>();

	/**
	 * What the batch's thread read from the socket itself: touched by that thread only
	 * (the lease's), so no atomic operation is paid per read. It is always newer than
	 * anything in {@link #received}: the event loop stopped reading before the batch's
	 * thread started.
	 */
	private final ArrayDeque<ByteBuf> readHere = new ArrayDeque<>(4);

	/**
	 * Where the batch's thread puts what it read, made once.
	 */
	private final Consumer<ByteBuf> queue = this.readHere::add;

	private final AtomicLong queuedBytes = new AtomicLong();

	/**
	 * Who uses the connection: {@link #IDLE}, {@link #LEASED} or {@link #LETTUCE}. The
	 * two users exclude each other: Lettuce's commands never interleave with a chunk's,
	 * so that neither is ever given the other's replies.
	 */
	private final AtomicInteger state = new AtomicInteger(IDLE);

	/**
	 * What Lettuce wrote while a batch leased the connection, until the lease ends.
	 */
	private final HeldWrites held = new HeldWrites();

	/**
	 * Lettuce's queue of commands awaiting replies, once known (on the event loop).
	 */
	private @Nullable Queue<?> lettuceCommands;

	private volatile boolean closed;

	private volatile @Nullable Thread waiter;

	private volatile @Nullable ChannelHandlerContext context;

	/**
	 * The socket the batch's thread reads and writes, once known: {@code null} under TLS
	 * or another transport than NIO.
	 */
	private volatile @Nullable CallerSocket socket;

	private boolean socketResolved;

	/**
	 * Whether the batch's thread reads the socket (the event loop does not). Changed on
	 * the event loop only.
	 */
	private volatile boolean callerReads;

	/**
	 * The decoding state of the connection, used by one lease at a time.
	 */
	private @Nullable Replies replies;

	/**
	 * Notes the replies of a new connection while they are errors (its handshake was
	 * refused); {@code null} from the first that is not. Used on the event loop only.
	 */
	private @Nullable HandshakeRefusals handshake;

	Wire(HandshakeRefusals refusals) {
		this.handshake = refusals;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.context = ctx;
		if (!ctx.channel().isOpen()) {
			this.closed = true;
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object message) {
		int current = this.state.get();
		if (current == LEASED && message instanceof ByteBuf bytes) {
			this.received.add(bytes);
			if (this.queuedBytes.addAndGet(bytes.readableBytes()) > MAX_QUEUED_BYTES) {
				ctx.channel().config().setAutoRead(false);
			}
			wake();
			return;
		}
		HandshakeRefusals refusals = this.handshake;
		if (refusals != null && message instanceof ByteBuf bytes && !refusals.note(bytes)) {
			this.handshake = null;
		}
		ctx.fireChannelRead(message);
		if (current == LETTUCE && lettuceAnswered(ctx)) {
			// every command Lettuce wrote has its reply: a lease may start
			this.state.compareAndSet(LETTUCE, IDLE);
			wake();
		}
	}

	/**
	 * Whether Lettuce has no command awaiting a reply. Lettuce's queue is read on the
	 * event loop, the thread that changes it.
	 */
	private boolean lettuceAnswered(ChannelHandlerContext ctx) {
		Queue<?> commands = this.lettuceCommands;
		if (commands == null) {
			commands = LettuceInternals.commandsAwaitingReplies(ctx.channel());
			this.lettuceCommands = commands;
		}
		return commands == null || commands.isEmpty();
	}

	/**
	 * Lettuce's own writes pass through here (the batch's writes start below). Between
	 * leases they go out, and no lease starts until their replies are in. During a lease
	 * (a re-authentication on new credentials), they are held until it ends: written
	 * then, their replies could be taken for a chunk's.
	 */
	@Override
	public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
		if (!claimForLettuce()) {
			this.held.hold(message, promise);
			// the lease may have ended meanwhile, without seeing what is held now
			writeHeld(ctx);
			return;
		}
		writeForLettuce(ctx, message, promise);
	}

	/**
	 * Mark the connection as Lettuce's, unless a batch leases it.
	 * @return whether Lettuce may write on it now
	 */
	private boolean claimForLettuce() {
		while (true) {
			int current = this.state.get();
			if (current == LEASED) {
				return false;
			}
			if (current == LETTUCE || this.state.compareAndSet(current, LETTUCE)) {
				return true;
			}
		}
	}

	private void writeForLettuce(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
		if (this.callerReads) {
			// Lettuce reads its replies itself again
			readOnEventLoop(ctx, true);
		}
		ctx.write(message, promise);
	}

	/**
	 * Write what Lettuce wrote during a lease, once no batch leases the connection (on
	 * the event loop).
	 */
	private void writeHeld(ChannelHandlerContext ctx) {
		if (!this.held.any() || !claimForLettuce()) {
			return;
		}
		this.held.writeAll((message, promise) -> writeForLettuce(ctx, message, promise));
		ctx.flush();
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		this.closed = true;
		CallerSocket current = this.socket;
		if (current != null) {
			current.close();
		}
		this.held.failAll();
		if (this.state.get() != LEASED) {
			// (what the batch's thread read is its own to release)
			releaseReadByEventLoop();
		}
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
		while (true) {
			if (this.held.any() && !onEventLoop(this::writeHeld)) {
				// Lettuce's writes from the lease before go first: the event loop is gone
				leaseClosed();
				break;
			}
			if (this.state.compareAndSet(IDLE, LEASED)) {
				if (!this.held.any()) {
					break;
				}
				// a write of Lettuce's was held by the lease before, a moment ago: it
				// goes
				// first, or a thread that runs one batch after another would hold it
				// for ever
				this.state.set(IDLE);
				continue;
			}
			// Lettuce awaits replies of its own (or, wrongly, another lease holds it)
			if (this.state.get() == LEASED || !awaitLettuce()) {
				leaseClosed();
				break;
			}
		}
		Replies current = this.replies;
		if (current == null) {
			current = new Replies(this);
			this.replies = current;
		}
		current.begin();
		CallerSocket direct = callerSocket();
		boolean callerReads = direct != null && CallerSocket.callerMayWait();
		if (callerReads != this.callerReads) {
			switchReader(!callerReads);
		}
		return current;
	}

	private @Nullable CallerSocket callerSocket() {
		if (!this.socketResolved) {
			ChannelHandlerContext ctx = this.context;
			this.socket = (ctx != null && !"false".equals(System.getProperty(CALLER_IO)))
					? LettuceInternals.callerSocketOf(ctx.channel()) : null;
			this.socketResolved = true;
		}
		return this.socket;
	}

	/**
	 * The connection is closed, or could not be made ready for the lease: the lease's
	 * chunks are not sent.
	 */
	private void leaseClosed() {
		fail();
		this.state.set(LEASED);
	}

	/**
	 * Let the event loop read the socket, or stop it, and wait until it did: the bytes it
	 * read before are queued (or went to Lettuce) before the batch's thread reads any.
	 */
	private void switchReader(boolean eventLoopReads) {
		if (!onEventLoop((ctx) -> readOnEventLoop(ctx, eventLoopReads))) {
			fail();
		}
	}

	/**
	 * Run a task on the connection's event loop, and wait until it ran.
	 * @return {@code false} when it did not run: the event loop is shut down (so is the
	 * connection) or stuck, or the waiting thread was interrupted (its flag stays set)
	 */
	private boolean onEventLoop(Consumer<ChannelHandlerContext> task) {
		ChannelHandlerContext ctx = this.context;
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
			ran.get(SWITCH_SECONDS, TimeUnit.SECONDS);
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

	private void readOnEventLoop(ChannelHandlerContext ctx, boolean eventLoopReads) {
		this.callerReads = !eventLoopReads;
		ctx.channel().config().setAutoRead(eventLoopReads);
	}

	/**
	 * Read the socket on the batch's thread, waiting until the deadline when
	 * {@code deadline} is not {@code 0}.
	 */
	private void readSocket(CallerSocket direct, long deadline) {
		try {
			if (deadline == 0) {
				direct.readArrived(this.queue);
			}
			else {
				direct.awaitAndRead(deadline, this.queue);
			}
		}
		catch (IOException | RuntimeException ex) {
			// closed by the server, reset, or closed by the event loop meanwhile
			fail();
		}
	}

	/**
	 * The connection can no longer be read: it is closed.
	 */
	private void fail() {
		this.closed = true;
		close();
	}

	/**
	 * Hand the connection's replies back to Lettuce (its batch gave it back).
	 * @return whether nothing of the lease was left unread
	 */
	boolean endLease() {
		this.state.set(IDLE);
		boolean clean = nothingReceived();
		releaseReceived();
		ChannelHandlerContext ctx = this.context;
		if (ctx == null) {
			return clean;
		}
		if (!this.callerReads && !ctx.channel().config().isAutoRead()) {
			// the replies read ahead reached the cap and were all taken: between leases
			// Lettuce's replies and the server's close must be read
			ctx.channel().config().setAutoRead(true);
		}
		if (this.held.any()) {
			try {
				ctx.executor().execute(() -> writeHeld(ctx));
			}
			catch (RejectedExecutionException ex) {
				// the event loop is shut down, and the connection with it
				this.held.failAll();
			}
		}
		return clean;
	}

	/**
	 * Wait until Lettuce's commands have their replies, the connection closes or the wait
	 * passes {@link #SWITCH_SECONDS}.
	 * @return whether the connection is Lettuce's no more, and open
	 */
	private boolean awaitLettuce() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SWITCH_SECONDS);
		this.waiter = Thread.currentThread();
		try {
			while (this.state.get() == LETTUCE && !this.closed) {
				long left = deadline - System.nanoTime();
				if (left <= 0 || Thread.currentThread().isInterrupted()) {
					return false;
				}
				LockSupport.parkNanos(this, left);
			}
		}
		finally {
			this.waiter = null;
		}
		return !this.closed;
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
	 * Whether a batch leases the connection: for tests.
	 */
	boolean isLeased() {
		return this.state.get() == LEASED;
	}

	/**
	 * Whether Lettuce wrote on the connection during a lease, and its writes wait for the
	 * lease to end: for tests.
	 */
	boolean holdsWrites() {
		return this.held.any();
	}

	/**
	 * Write bytes on the connection, below Lettuce's encoder (and above TLS, which
	 * encrypts them). A failed write closes the connection, whose replies then never
	 * come.
	 * @param bytes the bytes: its readable ones are written, and it stays the caller's,
	 * with its indices as they were (the event loop writes a duplicate of its own)
	 * @return {@code false} when the connection was closed, so that nothing was written
	 */
	boolean write(ByteBuf bytes, long deadline) {
		ChannelHandlerContext ctx = this.context;
		if (ctx == null || this.closed || !ctx.channel().isActive()) {
			return false;
		}
		CallerSocket direct = this.socket;
		if (this.callerReads && direct != null) {
			return writeSocket(direct, bytes, deadline);
		}
		ctx.writeAndFlush(bytes.retainedDuplicate()).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
		return true;
	}

	/**
	 * Whether the connection is still open. When the batch's thread reads the socket, it
	 * reads what has arrived first, without waiting: the event loop does not read the
	 * socket then, so only a read finds that the server closed it. During a lease, what
	 * it reads is queued: the replies of chunks in flight, read now so that the server
	 * never holds them. Between leases nothing may arrive: a byte that did (a push frame,
	 * or a reply nobody waits for) is not passed off as a chunk's reply, and the
	 * connection is closed instead. Between leases it first waits for the replies to
	 * Lettuce's own commands, if any: at most {@link #SWITCH_SECONDS}, after which the
	 * connection is closed.
	 */
	boolean checkOpen() {
		if (this.state.get() == LETTUCE && !awaitLettuce()) {
			fail();
			return false;
		}
		CallerSocket direct = this.socket;
		if (this.callerReads && direct != null && !this.closed) {
			if (this.state.get() == LEASED) {
				readSocket(direct, 0);
			}
			else if (!direct.isQuiet() || !nothingReceived()) {
				releaseReceived();
				fail();
			}
		}
		return !this.closed;
	}

	/**
	 * Write on the batch's thread. Bytes that did not all go out before the deadline
	 * leave the connection unusable: it is closed, and the chunk's replies never come.
	 * @return {@code false} when nothing was written (the connection had closed)
	 */
	private boolean writeSocket(CallerSocket direct, ByteBuf bytes, long deadline) {
		int start = bytes.readerIndex();
		int written;
		try {
			if (!direct.write(bytes, deadline, this.queue)) {
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
		return written > 0 || !this.closed;
	}

	/**
	 * The room in front of a buffer's bytes where the bytes that came before them may be
	 * put: only a buffer the batch's thread read into has any.
	 * @param bytes a buffer taken with {@link #poll()}
	 * @return how many bytes may be written just before its reader index
	 */
	int headroom(ByteBuf bytes) {
		CallerSocket direct = this.socket;
		return (direct != null) ? direct.headroom(bytes) : 0;
	}

	/**
	 * Release every buffer read and not yet taken. Only the lease's thread (or the
	 * borrower's, between leases) calls this: it owns {@link #readHere}.
	 */
	private void releaseReceived() {
		ByteBuf left;
		while ((left = poll()) != null) {
			left.release();
		}
	}

	/**
	 * Release what the event loop read and nobody took: the connection closed between
	 * leases.
	 */
	private void releaseReadByEventLoop() {
		ByteBuf left;
		while ((left = this.received.poll()) != null) {
			left.release();
		}
	}

	private boolean nothingReceived() {
		return this.received.isEmpty() && this.readHere.isEmpty();
	}

	/**
	 * The oldest buffer read and not yet taken, or {@code null}: what the event loop read
	 * comes before what the batch's thread read.
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
	 * Park the calling thread until bytes arrive, the connection closes, the deadline
	 * passes or the thread is interrupted.
	 * @param deadline a {@link System#nanoTime()} value
	 */
	void awaitBytes(long deadline) {
		CallerSocket direct = this.socket;
		boolean callerReads = this.callerReads && direct != null;
		if (callerReads && this.state.get() == LEASED) {
			if (nothingReceived() && !this.closed) {
				readSocket(direct, deadline);
			}
			return;
		}
		// (a lease that ended early, its connection closing, reads no more: it waits for
		// the close)
		this.waiter = Thread.currentThread();
		try {
			while (nothingReceived() && !this.closed) {
				ChannelHandlerContext ctx = this.context;
				if (!callerReads && ctx != null && !ctx.channel().config().isAutoRead()) {
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
