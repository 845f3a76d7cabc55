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
class Chunk {

	ByteBuf buffer;

	private final int capacity;

	private final boolean transactional;

	/**
	 * How many times it was written.
	 */
	private int writes;

	CommandResponse<?>[] responses;

	/**
	 * On a cluster, where each command is in the buffer and its slot, so that a
	 * redirected command can be sent elsewhere; {@code null} otherwise.
	 */
	int @Nullable [] bounds;

	private int @Nullable [] slots;

	private @Nullable List<Integer> askingBefore;

	int size;

	private @Nullable Lease lease;

	long sentAt;

	long deadline;

	boolean topologyStale;

	/**
	 * Whether {@code EXEC} closes the transaction in the buffer: it is written once, even
	 * when a refused write sends the chunk on another connection.
	 */
	private boolean execWritten;

	boolean readOnly;

	int refusedForNow;

	/**
	 * The fast path's reader of its replies.
	 */
	@Nullable ChunkReplies replies;

	private @Nullable String execError;

	private boolean execDiscarded;

	/**
	 * Its commands as Lettuce commands, made when it is written on the portable path.
	 */
	@Nullable ReplySlots replySlots;

	/**
	 * An empty chunk.
	 * @param buffer where its commands are written (for a transaction, starting with
	 * {@code MULTI})
	 * @param capacity the most commands it takes
	 * @param transactional whether it is sent as a MULTI/EXEC transaction
	 * @param cluster whether its commands may be redirected elsewhere
	 */
	Chunk(ByteBuf buffer, int capacity, boolean transactional, boolean cluster) {
		this.buffer = buffer;
		this.capacity = capacity;
		this.transactional = transactional;
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
	 * Whether the chunk is exactly-once and went unanswered (or was refused before it
	 * ran): it waits to be sent again ({@link ScriptChunk}).
	 */
	boolean isUnresolved() {
		return false;
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
		beforeWrite();
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

	/**
	 * What a chunk does before each write (an exactly-once chunk awaits its script's
	 * reply afresh).
	 */
	void beforeWrite() {
	}

	/**
	 * Whether it is an exactly-once chunk ({@link ScriptChunk}).
	 */
	boolean isExactlyOnce() {
		return false;
	}

	/**
	 * The marker of an exactly-once chunk, once framed.
	 */
	byte @Nullable [] marker() {
		return null;
	}

	/**
	 * How many times the chunk was written.
	 */
	int writes() {
		return this.writes;
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
			current = new ChunkReplies(this.responses, this.size, this.transactional, isExactlyOnce(),
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
			current = isExactlyOnce() ? ReplySlots.script(this.buffer, new ByteArrayOutput<>(ByteArrayCodec.INSTANCE))
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
	int settle(String noReply, OutcomeLedger ledger, List<Reroute> reroutes, String host) {
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

	/**
	 * Its commands as they were recorded.
	 */
	ByteBuf recorded() {
		return this.buffer;
	}

	byte[] bytesOf(int i) {
		int[] where = this.bounds;
		if (where == null) {
			throw new IllegalStateException("Commands are only sent elsewhere on a cluster");
		}
		byte[] bytes = new byte[where[i * 2 + 1] - where[i * 2]];
		recorded().getBytes(where[i * 2], bytes);
		return bytes;
	}

	int slotOf(int i) {
		int[] slotOf = this.slots;
		return (slotOf != null) ? slotOf[i] : Slots.ANY;
	}

}
