package dev.redisbatch.wire;

import java.util.Queue;

import dev.redisbatch.internals.LettucePipeline;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import org.jspecify.annotations.Nullable;

/**
 * The batch's handler in a batch connection's Netty pipeline, between TLS (if any) and
 * Lettuce's encoder: the event loop's side of the connection. The batch's thread has its
 * own side, the connection's {@link WireLease}.
 * <p>
 * While a batch leases the connection, the event loop only moves bytes: it hands every
 * buffer it reads to the lease ({@link Inbox}), wakes the batch's thread, and stops
 * reading when more than {@link Inbox#MAX_QUEUED_BYTES} wait. Between leases, everything
 * passes through to Lettuce untouched: the handshake, the {@code CONFIG GET} at creation
 * and the {@code SCAN}s of bulk operations never meet a chunk. A lease starts only once
 * Lettuce has the replies to every command it wrote; what Lettuce writes during a lease
 * (a re-authentication on new credentials) is held until the lease ends
 * ({@link HeldWrites}), and goes out before the next one starts.
 */
public final class Wire extends ChannelDuplexHandler {

	/**
	 * The handler's name in the pipeline.
	 */
	public static final String NAME = "redis-batch-wire";

	private final LeaseState state = new LeaseState();

	private final Inbox inbox = new Inbox();

	private final HeldWrites held = new HeldWrites();

	private final WireLease lease;

	/**
	 * Notes the replies of a new connection while they are errors (its handshake was
	 * refused); {@code null} from the first that is not. Used on the event loop only.
	 */
	private @Nullable HandshakeRefusals handshake;

	/**
	 * Lettuce's queue of commands awaiting replies, once known (on the event loop).
	 */
	private @Nullable Queue<?> lettuceCommands;

	private volatile @Nullable ChannelHandlerContext context;

	/**
	 * Whether the batch's thread reads the socket (the event loop does not). Changed on
	 * the event loop only.
	 */
	private volatile boolean callerReads;

	/**
	 * A handler for a new connection.
	 * @param refusals where the refusals of its handshake are noted
	 */
	public Wire(HandshakeRefusals refusals) {
		this.handshake = refusals;
		this.lease = new WireLease(this, this.state, this.inbox);
	}

	/**
	 * The batch's side of the connection.
	 * @return its lease, the same for every batch
	 */
	public WireLease lease() {
		return this.lease;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.context = ctx;
		if (!ctx.channel().isOpen()) {
			this.state.closed();
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object message) {
		if (this.state.isLeased() && message instanceof ByteBuf bytes) {
			if (this.inbox.received(bytes)) {
				ctx.channel().config().setAutoRead(false);
			}
			this.state.wake();
			return;
		}
		HandshakeRefusals refusals = this.handshake;
		if (refusals != null && message instanceof ByteBuf bytes && !refusals.note(bytes)) {
			this.handshake = null;
		}
		ctx.fireChannelRead(message);
		if (this.state.isLettuces() && lettuceAnswered(ctx)) {
			// every command Lettuce wrote has its reply: a lease may start
			this.state.answered();
		}
	}

	/**
	 * Whether Lettuce has no command awaiting a reply. Lettuce's queue is read on the
	 * event loop, the thread that changes it.
	 */
	private boolean lettuceAnswered(ChannelHandlerContext ctx) {
		Queue<?> commands = this.lettuceCommands;
		if (commands == null) {
			commands = LettucePipeline.commandsAwaitingReplies(ctx.channel());
			this.lettuceCommands = commands;
		}
		return commands == null || commands.isEmpty();
	}

	/**
	 * Lettuce's own writes pass through here (the batch's writes start below). Between
	 * leases they go out, and no lease starts until their replies are in. During a lease,
	 * they are held until it ends: written then, their replies could be taken for a
	 * chunk's.
	 */
	@Override
	public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
		if (!this.state.claimForLettuce()) {
			this.held.hold(message, promise);
			// the lease may have ended meanwhile, without seeing what is held now
			writeHeld(ctx);
			return;
		}
		writeForLettuce(ctx, message, promise);
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
	void writeHeld(ChannelHandlerContext ctx) {
		if (!this.held.any() || !this.state.claimForLettuce()) {
			return;
		}
		this.held.writeAll((message, promise) -> writeForLettuce(ctx, message, promise));
		ctx.flush();
	}

	/**
	 * Fail what is held: the event loop is shut down, and the connection with it.
	 */
	void failHeld() {
		this.held.failAll();
	}

	/**
	 * Whether Lettuce wrote on the connection during a lease, and its writes wait for the
	 * lease to end: for tests.
	 * @return whether writes are held
	 */
	public boolean holdsWrites() {
		return this.held.any();
	}

	/**
	 * Whether a batch leases the connection: for tests.
	 * @return whether it does
	 */
	public boolean isLeased() {
		return this.state.isLeased();
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		this.state.closed();
		this.lease.socketClosed();
		this.held.failAll();
		if (!this.state.isLeased()) {
			// (what was read for a lease is the lease's to release)
			this.inbox.releaseReceived();
		}
		super.channelInactive(ctx);
	}

	/**
	 * Let the event loop read the socket, or stop it (on the event loop).
	 */
	void readOnEventLoop(ChannelHandlerContext ctx, boolean eventLoopReads) {
		this.callerReads = !eventLoopReads;
		ctx.channel().config().setAutoRead(eventLoopReads);
	}

	/**
	 * Whether the batch's thread reads the socket, as the event loop last switched it.
	 */
	boolean callerReads() {
		return this.callerReads;
	}

	@Nullable ChannelHandlerContext context() {
		return this.context;
	}

}
