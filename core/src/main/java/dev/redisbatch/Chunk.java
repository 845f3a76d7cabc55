package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

import dev.redisbatch.protocol.Redirect;
import dev.redisbatch.protocol.Refusals;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.MultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

/**
 * A chunk of commands: encoded one after the other into one buffer, sent in one write on
 * one connection, and settled together. It counts down as its commands complete, and the
 * batch's thread waits for zero or the chunk's deadline.
 * <p>
 * Settling decides every command's outcome from its reply, and hands back what it found
 * as a {@link ChunkSettlement}: the chunk never changes the state of its lane or batch.
 */
final class Chunk implements CommandResponse.Countdown {

	private static final AtomicIntegerFieldUpdater<Chunk> REMAINING = AtomicIntegerFieldUpdater.newUpdater(Chunk.class,
			"remaining");

	private final ByteBuf buffer;

	private final int capacity;

	private final boolean transactional;

	private CommandResponse<?>[] responses;

	/**
	 * On a cluster, where each command is in the buffer and its slot, so that a
	 * redirected command can be sent elsewhere; {@code null} otherwise.
	 */
	private int @Nullable [] bounds;

	private int @Nullable [] slots;

	private @Nullable List<Integer> askingBefore;

	private int size;

	private volatile int remaining;

	private volatile @Nullable Thread waiter;

	private @Nullable Lease lease;

	private long sentAt;

	private long deadline;

	private @Nullable AsyncCommand<byte[], byte[], TransactionResult> exec;

	private boolean topologyStale;

	private boolean readOnly;

	private int refusedForNow;

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
		this.responses = new CommandResponse<?>[Math.min(capacity, 64)];
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

	@Override
	public void countDown() {
		if (REMAINING.decrementAndGet(this) == 0) {
			Thread thread = this.waiter;
			if (thread != null) {
				LockSupport.unpark(thread);
			}
		}
	}

	// ------------------------------------------------------------------ the write

	/**
	 * Write the chunk on a leased connection, in one message when the connection's
	 * channel is known.
	 * @param to the connection
	 * @param channel its channel, or {@code null} to go through Lettuce's dispatch
	 * @param timeoutNanos how long the chunk may take until its last reply
	 * @return {@code false} when the connection refused the whole write (it was closed),
	 * so that nothing was sent
	 */
	boolean write(Lease to, @Nullable Channel channel, long timeoutNanos) {
		StatefulConnection<byte[], byte[]> target = to.connection();
		this.lease = to;
		this.remaining = this.size;
		List<RedisCommand<byte[], byte[], ?>> commands = new ArrayList<>(this.size + 2);
		if (this.transactional) {
			// MULTI and EXEC go through Lettuce's own dispatch, which makes EXEC's reply
			// complete the commands in between. MULTI carries the chunk's bytes.
			this.buffer.writeBytes(WireCommand.EXEC);
			commands
				.add(new WireCommand<>(CommandType.MULTI, new StatusOutput<>(ByteArrayCodec.INSTANCE), this.buffer));
			for (int i = 0; i < this.size; i++) {
				this.responses[i].sendWith(this, null);
				commands.add(this.responses[i]);
			}
			this.exec = new WireCommand<>(CommandType.EXEC, new MultiOutput<>(ByteArrayCodec.INSTANCE), null);
			commands.add(this.exec);
			start(timeoutNanos);
			target.dispatch(commands);
			return !LettuceInternals.refusedWholeWrite(firstFailure(commands.get(0)));
		}
		List<Integer> asking = this.askingBefore;
		for (int i = 0; i < this.size; i++) {
			if (asking != null && asking.contains(i)) {
				// the reply to ASKING is not a command of the batch
				commands.add(new WireCommand<>(CommandType.ASKING, new StatusOutput<>(ByteArrayCodec.INSTANCE),
						(i == 0) ? this.buffer : null));
				this.responses[i].sendWith(this, null);
			}
			else {
				this.responses[i].sendWith(this, (i == 0) ? this.buffer : null);
			}
			commands.add(this.responses[i]);
		}
		start(timeoutNanos);
		if (channel == null) {
			target.dispatch(commands);
			return !LettuceInternals.refusedWholeWrite(firstFailure(commands.get(0)));
		}
		return LettuceInternals.writeToChannel(channel, commands);
	}

	private static @Nullable Throwable firstFailure(RedisCommand<byte[], byte[], ?> first) {
		return (first instanceof CommandResponse<?> response) ? response.localFailure()
				: LettuceInternals.failureOf(first);
	}

	private void start(long timeoutNanos) {
		this.sentAt = System.nanoTime();
		this.deadline = this.sentAt + timeoutNanos;
	}

	// ------------------------------------------------------------------ settling

	/**
	 * Wait for the replies (until every command is answered, the deadline passes or the
	 * thread is interrupted: its flag stays set), then decide every command's outcome,
	 * except those a cluster redirected: they are handed back to be sent elsewhere.
	 * @param timeout the chunk timeout, for messages
	 * @param ledger where outcomes are counted
	 * @param host the host the chunk went to: where a redirect that names no host points
	 * @return what settling found
	 */
	ChunkSettlement awaitAndSettle(Duration timeout, OutcomeLedger ledger, String host) {
		boolean interrupted = Thread.currentThread().isInterrupted();
		boolean answered = !interrupted && await();
		interrupted = interrupted || Thread.currentThread().isInterrupted();
		String noReply = interrupted ? Messages.noReplyInterrupted() : Messages.noReplyInTime(timeout);
		Throwable connectionFailure = connectionFailure();
		List<Reroute> reroutes = new ArrayList<>(0);
		int unknown = settle(noReply, ledger, reroutes, host);
		return new ChunkSettlement(answered, interrupted, unknown, this.refusedForNow, connectionFailure, reroutes,
				this.topologyStale, this.readOnly, System.nanoTime() - this.sentAt);
	}

	private boolean await() {
		this.waiter = Thread.currentThread();
		while (this.remaining > 0) {
			long left = this.deadline - System.nanoTime();
			if (left <= 0 || Thread.currentThread().isInterrupted()) {
				return false;
			}
			LockSupport.parkNanos(this, left);
		}
		AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
		return transaction == null || waitFor(transaction);
	}

	private boolean waitFor(AsyncCommand<byte[], byte[], TransactionResult> command) {
		long left = this.deadline - System.nanoTime();
		if (command.isDone()) {
			return true;
		}
		if (left <= 0) {
			return false;
		}
		try {
			command.get(left, TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException | CancellationException ex) {
			// completed exceptionally: settle() reads the failure
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		return true;
	}

	/**
	 * The failure that completed the last command without a reply (such as a closed
	 * connection), or {@code null}.
	 */
	private @Nullable Throwable connectionFailure() {
		AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
		if (transaction != null) {
			Throwable failure = LettuceInternals.failureOf(transaction);
			return (failure == null || LettuceInternals.isErrorReply(failure)) ? null : failure;
		}
		return this.responses[this.size - 1].localFailure();
	}

	/**
	 * Decide the outcomes; redirected commands go to {@code reroutes} instead.
	 * @return how many commands ended {@link Outcome#UNKNOWN}
	 */
	private int settle(String noReply, OutcomeLedger ledger, List<Reroute> reroutes, String host) {
		AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
		if (transaction != null && transactionAborted(transaction)) {
			// EXECABORT (a command was refused while queueing) or discarded: nothing in
			// the chunk ran.
			String execError = LettuceInternals.errorReply(transaction);
			String reason = (execError != null) ? execError : "transaction discarded";
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
				if (this.bounds != null && transaction == null) {
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
	 * Whether EXEC answered that the transaction did not run: an error (EXECABORT) or a
	 * discarded transaction.
	 */
	private static boolean transactionAborted(AsyncCommand<byte[], byte[], TransactionResult> transaction) {
		if (!transaction.isDone()) {
			return false;
		}
		if (LettuceInternals.errorReply(transaction) != null) {
			return true;
		}
		if (transaction.isCompletedExceptionally()) {
			return false;
		}
		TransactionResult result = transaction.getNow(null);
		return result != null && result.wasDiscarded();
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
		this.buffer.getBytes(where[i * 2], bytes);
		return bytes;
	}

	private int slotOf(int i) {
		int[] slotOf = this.slots;
		return (slotOf != null) ? slotOf[i] : Slots.ANY;
	}

}
