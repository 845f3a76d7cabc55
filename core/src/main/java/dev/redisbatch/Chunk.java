package dev.redisbatch;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.redisbatch.protocol.Redirect;
import dev.redisbatch.protocol.Refusals;
import dev.redisbatch.protocol.Slots;
import dev.redisbatch.protocol.StoredReplies;
import io.lettuce.core.RedisException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A chunk of commands: encoded one after the other into one buffer, sent in one write on
 * one connection, and settled together. On the fast path its replies are decoded on the
 * batch's thread, in order, straight into its commands' outputs ({@link ChunkReplies});
 * on the portable path Lettuce decodes them ({@link ReplySlots}). An exactly-once chunk
 * is framed as its script before its first write, and settles from the replies the script
 * returns ({@link ExactlyOnce}).
 * <p>
 * Settling decides every command's outcome from its reply, and hands back what it found
 * as a {@link ChunkSettlement}: the chunk never changes the state of its lane or batch.
 */
final class Chunk {

	private ByteBuf buffer;

	private final int capacity;

	private final boolean transactional;

	private final boolean exactlyOnce;

	/**
	 * An exactly-once chunk's marker, once its commands were framed as its script.
	 */
	private byte @Nullable [] marker;

	/**
	 * An exactly-once chunk's commands as recorded, once it was framed.
	 */
	private @Nullable ByteBuf recorded;

	/**
	 * How many times it was written.
	 */
	private int writes;

	/**
	 * Whether it is exactly-once, went unanswered and waits to be sent again.
	 */
	private boolean unresolved;

	/**
	 * Which refusals of its script send it again (they come before anything ran): on a
	 * Sentinel pool {@code READONLY}, as a new connection reaches the master the
	 * sentinels name; on a cluster {@code TRYAGAIN} and {@code ASK}, as its slot is being
	 * migrated and the chunk waits for the migration to end.
	 */
	private List<String> resentRefusals = List.of();

	/**
	 * The refusal of its last send, when every send was refused so.
	 */
	private @Nullable String refusal;

	/**
	 * Whether a send went unanswered: whether it ran cannot be told from a refusal later.
	 */
	private boolean everUnanswered;

	private CommandResponse<?>[] responses;

	/**
	 * On a cluster, where each command is in the buffer and its slot, so that a
	 * redirected command can be sent elsewhere; {@code null} otherwise.
	 */
	private int @Nullable [] bounds;

	private int @Nullable [] slots;

	private @Nullable List<Integer> askingBefore;

	private int size;

	private @Nullable Lease lease;

	private long sentAt;

	private long deadline;

	private boolean topologyStale;

	/**
	 * Whether {@code EXEC} closes the transaction in the buffer: it is written once, even
	 * when a refused write sends the chunk on another connection.
	 */
	private boolean execWritten;

	private boolean readOnly;

	private int refusedForNow;

	/**
	 * The fast path's reader of its replies.
	 */
	private @Nullable ChunkReplies replies;

	private @Nullable String execError;

	private boolean execDiscarded;

	/**
	 * Its commands as Lettuce commands, made when it is written on the portable path.
	 */
	private @Nullable ReplySlots replySlots;

	/**
	 * An empty chunk.
	 * @param buffer where its commands are written (for a transaction, starting with
	 * {@code MULTI})
	 * @param capacity the most commands it takes
	 * @param transactional whether it is sent as a MULTI/EXEC transaction
	 * @param cluster whether its commands may be redirected elsewhere
	 */
	Chunk(ByteBuf buffer, int capacity, boolean transactional, boolean cluster) {
		this(buffer, capacity, transactional, cluster, false);
	}

	/**
	 * An empty chunk.
	 * @param buffer where its commands are written (for a transaction, starting with
	 * {@code MULTI})
	 * @param capacity the most commands it takes
	 * @param transactional whether it is sent as a MULTI/EXEC transaction
	 * @param cluster whether its commands may be redirected elsewhere
	 * @param exactlyOnce whether it is sent as one script that runs exactly once
	 */
	Chunk(ByteBuf buffer, int capacity, boolean transactional, boolean cluster, boolean exactlyOnce) {
		this.buffer = buffer;
		this.capacity = capacity;
		this.transactional = transactional;
		this.exactlyOnce = exactlyOnce;
		this.responses = new CommandResponse<?>[Math.min(capacity, 16)];
		if (cluster) {
			this.bounds = new int[this.responses.length * 2];
			this.slots = new int[this.responses.length];
		}
	}

	ByteBuf buffer() {
		return this.buffer;
	}

	int size() {
		return this.size;
	}

	boolean isEmpty() {
		return this.size == 0;
	}

	/**
	 * The slot of its first command, on a cluster; {@link Slots#ANY} otherwise.
	 */
	int slot() {
		int[] slotOf = this.slots;
		return (slotOf != null && this.size > 0) ? slotOf[0] : Slots.ANY;
	}

	/**
	 * The request bytes of the chunk: what it puts in flight when it is written.
	 */
	int bytes() {
		return this.buffer.readableBytes();
	}

	/**
	 * Whether it holds as many commands, or as many bytes, as it may.
	 */
	boolean isFull(long maxBytes) {
		return this.size >= this.capacity || this.buffer.readableBytes() >= maxBytes;
	}

	/**
	 * Take a command whose bytes were written into the buffer from {@code start} to
	 * {@code end}.
	 */
	void add(CommandResponse<?> response, int start, int end, int slot, boolean asking) {
		if (this.size == this.responses.length) {
			int grown = Math.max(this.size + 1, Math.min(this.capacity, this.size * 2));
			this.responses = Arrays.copyOf(this.responses, grown);
			if (this.bounds != null && this.slots != null) {
				this.bounds = Arrays.copyOf(this.bounds, grown * 2);
				this.slots = Arrays.copyOf(this.slots, grown);
			}
		}
		int[] where = this.bounds;
		int[] slotOf = this.slots;
		if (where != null && slotOf != null) {
			where[this.size * 2] = start;
			where[this.size * 2 + 1] = end;
			slotOf[this.size] = slot;
		}
		if (asking) {
			if (this.askingBefore == null) {
				this.askingBefore = new ArrayList<>();
			}
			this.askingBefore.add(this.size);
		}
		this.responses[this.size++] = response;
	}

	Lease lease() {
		Lease current = this.lease;
		if (current == null) {
			throw new IllegalStateException("Chunk was not sent");
		}
		return current;
	}

	// ------------------------------------------------------------------ the write

	/**
	 * Write the chunk on a leased connection, in one message below Lettuce's encoder.
	 * @param to the connection
	 * @param timeoutNanos how long the chunk may take until its last reply
	 * @return {@code false} when the connection was closed, so that nothing was sent
	 */
	boolean write(Lease to, long timeoutNanos) {
		this.lease = to;
		this.writes++;
		if (this.exactlyOnce) {
			// every write awaits the script's one reply afresh (a chunk sent again goes
			// on another connection)
			this.replies = null;
			this.replySlots = null;
			this.unresolved = false;
		}
		if (this.transactional && !this.execWritten) {
			this.buffer.writeBytes(WireCommand.EXEC);
			this.execWritten = true;
		}
		start(timeoutNanos);
		if (to.write(this)) {
			return true;
		}
		// refused whole: the chunk may go on another connection, with Lettuce commands of
		// its own there
		this.replySlots = null;
		return false;
	}

	// ------------------------------------------------------------------ exactly once

	/**
	 * Frame an exactly-once chunk's commands as its script, once, before its first write:
	 * from then on the chunk's bytes are the script's {@code EVAL}, and every write sends
	 * the same bytes with the same marker. The commands as recorded are kept, so that a
	 * chunk a cluster redirected before it ran can be recorded elsewhere.
	 * @param settings the batch's settings (how its markers are named and kept)
	 * @param ordinal the chunk's place among the chunks its lane sent
	 * @param acked markers of chunks answered on their first write, for the script to
	 * remove
	 */
	void frame(RunSettings settings, int ordinal, List<byte[]> acked) {
		if (this.marker != null) {
			return;
		}
		byte[] own = ExactlyOnce.marker(settings, slot(), ordinal, this.buffer);
		ByteBuf framed = ExactlyOnce.frame(this.buffer, own, ExactlyOnce.markerTtl(settings).toSeconds(), acked);
		this.recorded = this.buffer;
		this.buffer = framed;
		this.marker = own;
	}

	boolean isExactlyOnce() {
		return this.exactlyOnce;
	}

	/**
	 * The marker of an exactly-once chunk, once framed.
	 */
	byte @Nullable [] marker() {
		return this.marker;
	}

	/**
	 * How many times the chunk was written.
	 */
	int writes() {
		return this.writes;
	}

	/**
	 * Whether the chunk is exactly-once and went unanswered: its commands are not settled
	 * yet, and it is sent again on a new connection.
	 */
	boolean isUnresolved() {
		return this.unresolved;
	}

	/**
	 * Send this exactly-once chunk again, after a pause, when the server refuses its
	 * script with one of these errors: the script refused it before anything ran.
	 * @param refusals the errors' first words
	 */
	void resendWhenRefused(List<String> refusals) {
		this.resentRefusals = refusals;
	}

	/**
	 * No send is left for an unresolved chunk: its commands are {@link Outcome#UNKNOWN},
	 * or {@link Outcome#FAILED} with the server's refusal ({@code READONLY},
	 * {@code TRYAGAIN}) when every send was refused so (nothing ran).
	 */
	ChunkSettlement settleUnresolved(String why, OutcomeLedger ledger) {
		this.unresolved = false;
		String refused = this.refusal;
		if (refused != null && !this.everUnanswered) {
			// every send was refused before it ran: no master was found in time, and
			// nothing ran
			for (int i = 0; i < this.size; i++) {
				this.responses[i].settle(Outcome.FAILED, refused, ledger);
			}
			return new ChunkSettlement(true, false, 0, 0, null, List.of(), false, refused.startsWith("READONLY"),
					System.nanoTime() - this.sentAt);
		}
		int unknown = 0;
		for (int i = 0; i < this.size; i++) {
			if (this.responses[i].settle(Outcome.UNKNOWN, why, ledger) == Outcome.UNKNOWN) {
				unknown++;
			}
		}
		return new ChunkSettlement(false, false, unknown, 0, new RedisException("Connection closed"), List.of(), false,
				false, System.nanoTime() - this.sentAt);
	}

	/**
	 * Wait for the script's reply and settle from it. Answered, every command takes its
	 * own reply from the text the script returned (the replies it kept, if the chunk had
	 * run before). Refused before it ran ({@code OOM}, {@code READONLY}, ...), every
	 * command failed with that error; but on a Sentinel pool a {@code READONLY} refusal
	 * leaves the chunk unresolved, to be sent again to the master the sentinels name.
	 * Unanswered (a lost connection, the deadline), the chunk is left unresolved, to be
	 * sent again.
	 */
	private ChunkSettlement awaitAndSettleScript(Duration timeout, OutcomeLedger ledger, String host) {
		boolean interrupted = Thread.currentThread().isInterrupted();
		Lease on = lease();
		boolean decoded = interrupted ? on.takeArrived(this) : on.await(this, this.deadline);
		interrupted = interrupted || Thread.currentThread().isInterrupted();
		if (!decoded && !on.wasWritten(this) && interrupted) {
			settleNotSent(Messages.closedBeforeWrite(), ledger);
			return new ChunkSettlement(true, true, 0, 0, null, List.of(), false, false,
					System.nanoTime() - this.sentAt);
		}
		if (!decoded) {
			// unanswered, or closed before its bytes left: it goes again either way
			if (interrupted) {
				int unknown = settle(Messages.noReplyInterrupted(), ledger, List.of(), host);
				return new ChunkSettlement(false, true, unknown, 0, null, List.of(), false, false,
						System.nanoTime() - this.sentAt);
			}
			this.unresolved = true;
			this.everUnanswered = true;
			Throwable failure = on.isClosed() ? new RedisException("Connection closed") : null;
			return new ChunkSettlement(false, false, 0, 0, failure, List.of(), false, false,
					System.nanoTime() - this.sentAt);
		}
		ReplySlots portable = this.replySlots;
		CommandOutput<byte[], byte[], ?> reply = (portable != null) ? portable.scriptReply() : replies().scriptReply();
		String noReply = Messages.noReply();
		String error = (reply != null) ? reply.getError() : null;
		Object text = (reply != null) ? reply.get() : null;
		if (error != null && isResent(error)) {
			// refused before anything ran: it goes again after a pause, on a new
			// connection (to the master the sentinels name now, or once the slot's
			// migration ended)
			this.unresolved = true;
			this.refusal = error;
			return new ChunkSettlement(false, interrupted, 0, 0, null, List.of(), false, error.startsWith("READONLY"),
					System.nanoTime() - this.sentAt);
		}
		this.refusal = null;
		if (error != null && this.bounds != null && error.startsWith("MOVED ")) {
			// the slot has another master: nothing ran, and every command goes there
			Redirect moved = Redirect.parse(error);
			if (moved != null) {
				String target = moved.host().isEmpty() ? host : moved.host();
				List<Reroute> reroutes = new ArrayList<>(this.size);
				for (int i = 0; i < this.size; i++) {
					reroutes.add(new Reroute(this.responses[i], bytesOf(i), slotOf(i), target, moved.port(), false,
							moved.kind()));
				}
				return new ChunkSettlement(true, interrupted, 0, 0, null, reroutes, false, false,
						System.nanoTime() - this.sentAt);
			}
		}
		if (error != null) {
			if (ExactlyOnce.didNotRun(error)) {
				for (int i = 0; i < this.size; i++) {
					CommandOutput<byte[], byte[], Object> output = this.responses[i].getOutput();
					if (output != null) {
						output.setError(error);
						this.responses[i].complete();
					}
				}
			}
			else {
				noReply = Messages.scriptFailedAfterClaim() + " (" + Messages.explain(error) + ")";
			}
		}
		else if (text instanceof byte[] bytes && bytes.length > 0) {
			takeStoredReplies(bytes);
		}
		else {
			noReply = Messages.scriptFailedAfterClaim();
		}
		int unknown = settle(noReply, ledger, List.of(), host);
		return new ChunkSettlement(true, interrupted, unknown, this.refusedForNow, null, List.of(), this.topologyStale,
				this.readOnly, System.nanoTime() - this.sentAt);
	}

	/**
	 * Hand each command its own reply from the text the script returned.
	 */
	private void takeStoredReplies(byte[] text) {
		StoredReplies replies;
		try {
			replies = new StoredReplies(ByteBuffer.wrap(text));
			if (replies.count() != this.size) {
				return;
			}
			for (int i = 0; i < this.size; i++) {
				CommandResponse<?> response = this.responses[i];
				replies.next(response.getOutput(), response::completeExceptionally);
				response.complete();
			}
		}
		catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
			// not the script's text: the commands still without a reply stay unknown
		}
	}

	private boolean isResent(String error) {
		for (String prefix : this.resentRefusals) {
			if (error.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	private void start(long timeoutNanos) {
		this.sentAt = System.nanoTime();
		this.deadline = this.sentAt + timeoutNanos;
	}

	/**
	 * When the chunk's last reply is due, once written: a {@link System#nanoTime()}
	 * value.
	 */
	long deadline() {
		return this.deadline;
	}

	// ------------------------------------------------------------------ the replies

	/**
	 * Whether every reply of the chunk (and of its {@code EXEC}) was decoded, on the fast
	 * path.
	 */
	boolean isDecoded() {
		return replies().isDecoded();
	}

	/**
	 * The fast path's reader of the chunk's replies: made at its first use, and anew for
	 * each send of an exactly-once chunk, so that a connection the chunk left reads into
	 * the reader of that send only.
	 */
	ChunkReplies replies() {
		ChunkReplies current = this.replies;
		if (current == null) {
			current = new ChunkReplies(this.responses, this.size, this.transactional, this.exactlyOnce,
					this.askingBefore);
			this.replies = current;
		}
		return current;
	}

	/**
	 * Its commands as Lettuce commands, for the portable path: made once, after its last
	 * byte ({@code EXEC}'s) was written into its buffer.
	 */
	ReplySlots replySlots() {
		ReplySlots current = this.replySlots;
		if (current == null) {
			current = this.exactlyOnce ? ReplySlots.script(this.buffer, new ByteArrayOutput<>(ByteArrayCodec.INSTANCE))
					: new ReplySlots(this.buffer, this.responses, this.size, this.transactional, this.askingBefore);
			this.replySlots = current;
		}
		return current;
	}

	// ------------------------------------------------------------------ settling

	/**
	 * Wait for the replies (until every command is answered, the connection closes, the
	 * deadline passes or the thread is interrupted: its flag stays set), then decide
	 * every command's outcome, except those a cluster redirected: they are handed back to
	 * be sent elsewhere.
	 * @param timeout the chunk timeout, for messages
	 * @param ledger where outcomes are counted
	 * @param host the host the chunk went to: where a redirect that names no host points
	 * @return what settling found
	 */
	ChunkSettlement awaitAndSettle(Duration timeout, OutcomeLedger ledger, String host) {
		if (this.exactlyOnce) {
			return awaitAndSettleScript(timeout, ledger, host);
		}
		boolean interrupted = Thread.currentThread().isInterrupted();
		Lease on = lease();
		boolean decoded = interrupted ? on.takeArrived(this) : on.await(this, this.deadline);
		interrupted = interrupted || Thread.currentThread().isInterrupted();
		if (!decoded && !on.wasWritten(this)) {
			// the connection closed before the chunk's bytes left: nothing of it ran
			settleNotSent(Messages.closedBeforeWrite(), ledger);
			return new ChunkSettlement(true, interrupted, 0, 0, null, List.of(), false, false,
					System.nanoTime() - this.sentAt);
		}
		ReplySlots portable = this.replySlots;
		if (portable != null) {
			this.execError = portable.execError();
			this.execDiscarded = portable.execDiscarded();
		}
		else {
			this.execError = replies().execError();
			this.execDiscarded = replies().execDiscarded();
		}
		Throwable connectionFailure = (!decoded && on.isClosed()) ? new RedisException("Connection closed") : null;
		// a closed connection answers too: what came before the close is decoded, and
		// the rest will never come
		boolean answered = decoded || connectionFailure != null;
		// every command of a decoded chunk has its reply: the message is only made when
		// one may have none
		String noReply = (connectionFailure != null) ? Messages.noReplyConnection(connectionFailure) : interrupted
				? Messages.noReplyInterrupted() : decoded ? Messages.noReply() : Messages.noReplyInTime(timeout);
		// only a cluster's pipelined chunk may be redirected
		List<Reroute> reroutes = (this.bounds != null && !this.transactional) ? new ArrayList<>(0) : List.of();
		int unknown = settle(noReply, ledger, reroutes, host);
		return new ChunkSettlement(answered, interrupted, unknown, this.refusedForNow, connectionFailure, reroutes,
				this.topologyStale, this.readOnly, System.nanoTime() - this.sentAt);
	}

	/**
	 * Decide the outcomes; redirected commands go to {@code reroutes} instead.
	 * @return how many commands ended {@link Outcome#UNKNOWN}
	 */
	private int settle(String noReply, OutcomeLedger ledger, List<Reroute> reroutes, String host) {
		if (this.execError != null || this.execDiscarded) {
			// EXECABORT (a command was refused while queueing) or discarded: nothing in
			// the chunk ran.
			String execFailure = this.execError;
			String reason = (execFailure != null) ? execFailure : "transaction discarded";
			for (int i = 0; i < this.size; i++) {
				String own = this.responses[i].errorReply();
				if (own != null && own.startsWith("MOVED ")) {
					this.topologyStale = true;
				}
				this.responses[i].settle(Outcome.FAILED, (own != null) ? own : reason, ledger);
			}
			return 0;
		}
		// Without an EXEC reply nothing is known about a transaction: its commands stay
		// unknown.
		int unknown = 0;
		for (int i = 0; i < this.size; i++) {
			CommandResponse<?> response = this.responses[i];
			String error = response.errorReply();
			if (error != null) {
				if (this.bounds != null && !this.transactional) {
					Redirect redirect = Redirect.parse(error);
					if (redirect != null) {
						String target = redirect.host().isEmpty() ? host : redirect.host();
						reroutes.add(new Reroute(response, bytesOf(i), slotOf(i), target, redirect.port(),
								redirect.ask(), redirect.kind()));
						continue;
					}
				}
				if (error.startsWith("READONLY")) {
					// The server turned into a replica (a failover): its connections must
					// not serve another batch.
					this.readOnly = true;
				}
			}
			Outcome outcome = response.settleFromReply(noReply, ledger);
			if (outcome == Outcome.UNKNOWN) {
				unknown++;
			}
			else if (outcome == Outcome.FAILED && Refusals.isTemporary(error)) {
				this.refusedForNow++;
			}
		}
		return unknown;
	}

	/**
	 * Settle every command of this unsent chunk {@link Outcome#NOT_SENT}.
	 */
	void settleNotSent(String reason, OutcomeLedger ledger) {
		for (int i = 0; i < this.size; i++) {
			this.responses[i].settle(Outcome.NOT_SENT, reason, ledger);
		}
	}

	/**
	 * Every command of this unsent chunk, to be routed again by slot.
	 */
	List<Reroute> rerouteAll(String why) {
		List<Reroute> reroutes = new ArrayList<>(this.size);
		for (int i = 0; i < this.size; i++) {
			reroutes.add(new Reroute(this.responses[i], bytesOf(i), slotOf(i), null, 0, false, why));
		}
		return reroutes;
	}

	private byte[] bytesOf(int i) {
		int[] where = this.bounds;
		if (where == null) {
			throw new IllegalStateException("Commands are only sent elsewhere on a cluster");
		}
		byte[] bytes = new byte[where[i * 2 + 1] - where[i * 2]];
		ByteBuf commands = (this.recorded != null) ? this.recorded : this.buffer;
		commands.getBytes(where[i * 2], bytes);
		return bytes;
	}

	private int slotOf(int i) {
		int[] slotOf = this.slots;
		return (slotOf != null) ? slotOf[i] : Slots.ANY;
	}

}
