package dev.redisbatch;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.protocol.Redirect;
import dev.redisbatch.protocol.StoredReplies;
import io.lettuce.core.RedisException;
import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * An exactly-once chunk: its commands, recorded as any chunk's, are framed as the
 * script's {@code EVAL} before its first write ({@link ExactlyOnce}), and it settles from
 * the script's one reply: each command takes its own reply from the text the script
 * returned. A send that went unanswered, or that the server refused before the script
 * ran, leaves it unresolved, and its lane sends it again ({@link UnansweredChunks}).
 */
final class ScriptChunk extends Chunk {

	/**
	 * An exactly-once chunk's marker, once its commands were framed as its script.
	 */
	private byte @Nullable [] marker;

	/**
	 * An exactly-once chunk's commands as recorded, once it was framed.
	 */
	private @Nullable ByteBuf recorded;

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

	/**
	 * An empty exactly-once chunk.
	 * @param buffer where its commands are written
	 * @param capacity the most commands it takes
	 * @param cluster whether it runs on a cluster (its commands keep to one slot, and may
	 * be sent elsewhere whole)
	 */
	ScriptChunk(ByteBuf buffer, int capacity, boolean cluster) {
		super(buffer, capacity, false, cluster);
	}

	@Override
	boolean isExactlyOnce() {
		return true;
	}

	/**
	 * Every write awaits the script's one reply afresh: a chunk sent again goes on
	 * another connection.
	 */
	@Override
	void beforeWrite() {
		this.replies = null;
		this.replySlots = null;
		this.unresolved = false;
	}

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

	@Override
	byte @Nullable [] marker() {
		return this.marker;
	}

	@Override
	ByteBuf recorded() {
		ByteBuf commands = this.recorded;
		return (commands != null) ? commands : this.buffer;
	}

	/**
	 * Whether the chunk is exactly-once and went unanswered: its commands are not settled
	 * yet, and it is sent again on a new connection.
	 */
	@Override
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
	@Override
	ChunkSettlement awaitAndSettle(Duration timeout, OutcomeLedger ledger, String host) {
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

}
