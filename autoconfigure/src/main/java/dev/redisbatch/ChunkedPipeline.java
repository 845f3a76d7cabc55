package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.observation.BatchObservationContext;
import io.lettuce.core.RedisException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.MultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.micrometer.observation.Observation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Runs one batch: the chunker, the connection leases and the outcome accounting.
 * <p>
 * Each command is encoded, as it is recorded, straight into the open chunk's buffer. A
 * chunk is sent in one write when it holds {@code chunkSize} commands or
 * {@code maxChunkBytes} bytes. Up to {@code parallelism} chunks are in flight at once, so
 * a chunk does not wait for the previous one's replies before it goes out. Each goes on a
 * connection of its own when the pool has one ready; otherwise it is pipelined behind a
 * chunk on one of the batch's connections (the server answers in order either way), and
 * extra connections open in the background. When {@code parallelism} chunks are in
 * flight, recording waits for the oldest. Memory is therefore bounded by
 * {@code chunkSize × (parallelism + 1)} commands (the chunks in flight and the one being
 * recorded), whatever the size of the batch.
 * <p>
 * Each chunk has its own deadline. Replies arrive in order, so when a chunk is settled
 * the answered commands keep their results and the rest are {@link Outcome#UNKNOWN}. A
 * chunk that lost its connection or passed its deadline stops the batch: its connection
 * leaves the pool, and commands not yet sent end {@link Outcome#NOT_SENT}. Nothing is
 * ever sent twice, except a retry the caller asked for.
 * <p>
 * Not thread-safe: a pipeline belongs to the thread that runs the batch.
 */
final class ChunkedPipeline {

	private static final Log logger = LogFactory.getLog(ChunkedPipeline.class);

	private static final byte[] MULTI = encoded(CommandType.MULTI);

	private static final byte[] EXEC = encoded(CommandType.EXEC);

	private final BatchConnectionPool pool;

	private final BatchOptions options;

	private final BatchObservations observations;

	private final BatchObservationContext context;

	private final OutcomeLedger ledger;

	private final String name;

	private final int chunkSize;

	private final int parallelism;

	private final long timeoutNanos;

	private final boolean transactional;

	private final long maxChunkBytes;

	private final long startNanos = System.nanoTime();

	private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>();

	private final List<Lease> leases = new ArrayList<>();

	private final ArrayDeque<ByteBuf> spareBuffers = new ArrayDeque<>();

	private @Nullable Observation observation;

	private Chunk open;

	private int commandStart = -1;

	private int submitted;

	private int chunksSent;

	private boolean askedForConnections;

	private CommandResponse.Retries retries;

	private int retryAttemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	private @Nullable String abortReason;

	private @Nullable Throwable abortCause;

	private @Nullable BatchException abortSignal;

	private boolean finished;

	ChunkedPipeline(BatchConnectionPool pool, BatchOptions options, BatchObservations observations) {
		this(pool, options, observations, new OutcomeLedger(), null);
	}

	/**
	 * A pass that sends a batch's pending commands again: it shares the batch's ledger
	 * and observation, and the batch decides whether its commands are retried once more.
	 */
	private ChunkedPipeline(ChunkedPipeline batch) {
		this(batch.pool, batch.options, BatchObservations.NONE, batch.ledger, batch.context);
		this.retries = batch.retries;
	}

	private ChunkedPipeline(BatchConnectionPool pool, BatchOptions options, BatchObservations observations,
			OutcomeLedger ledger, @Nullable BatchObservationContext context) {
		this.pool = pool;
		this.options = options;
		this.observations = observations;
		this.ledger = ledger;
		this.name = require(options.name());
		this.chunkSize = require(options.chunkSize());
		this.parallelism = require(options.parallelism());
		this.timeoutNanos = require(options.timeout()).toNanos();
		this.transactional = require(options.transactional());
		this.maxChunkBytes = require(options.maxChunkBytes());
		this.retryAttemptsLeft = options.retryAttempts();
		this.context = (context != null) ? context
				: new BatchObservationContext(this.name,
						this.transactional ? BatchObservationContext.Mode.TRANSACTION
								: BatchObservationContext.Mode.PIPELINE,
						pool.topology().name().toLowerCase(Locale.ROOT));
		this.retries = this::deferForRetry;
		this.open = newChunk();
	}

	private static <T> T require(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Options must be resolved against the template defaults first");
		}
		return value;
	}

	String name() {
		return this.name;
	}

	int submitted() {
		return this.submitted;
	}

	int chunksSent() {
		return this.chunksSent;
	}

	@Nullable Throwable abortCause() {
		return this.abortCause;
	}

	// ------------------------------------------------------------------ recording

	/**
	 * Where to write the next command: the open chunk's buffer. The command is written
	 * there and then handed over with {@link #endCommand}; keys and values must be
	 * serialized before, so that a serializer failure never leaves half a command.
	 */
	ByteBuf startCommand() {
		checkNotFinished();
		observeFromFirstCommand();
		this.commandStart = this.open.buffer.writerIndex();
		return this.open.buffer;
	}

	/**
	 * Take the command written since {@link #startCommand()}. If the chunk is full it is
	 * sent; if the batch has to stop (no connection, a lost chunk, an interrupt) this
	 * throws a {@link BatchException} so that the recording code stops too.
	 * @param type the command
	 * @param output where Lettuce decodes the reply
	 * @param converter turns the decoded reply into the response's value
	 * @param outputs makes a fresh output, so the command can be sent again by a retry
	 * @param idempotent whether a retry may send it again when its outcome is unknown
	 * @return the response
	 */
	<T> CommandResponse<T> endCommand(ProtocolKeyword type, CommandOutput<byte[], byte[], ?> output,
			Function<@Nullable Object, T> converter, Supplier<CommandOutput<byte[], byte[], ?>> outputs,
			boolean idempotent) {
		CommandResponse<T> response = new CommandResponse<>(this.submitted++, type, output, converter);
		if (this.retryAttemptsLeft > 0) {
			int start = this.commandStart;
			byte[] bytes = new byte[this.open.buffer.writerIndex() - start];
			this.open.buffer.getBytes(start, bytes);
			response.retryable(new CommandResponse.Recipe(bytes, outputs), idempotent, this.retries);
		}
		enqueue(response);
		return response;
	}

	/**
	 * Record a command that Lettuce built (through {@code RedisTemplate} code): it is
	 * encoded into the open chunk here. It is never sent again by a retry.
	 */
	<T> CommandResponse<T> add(RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter) {
		command.encode(startCommand());
		CommandResponse<T> response = new CommandResponse<>(this.submitted++, command, converter);
		enqueue(response);
		return response;
	}

	/**
	 * Record a command that failed before it could be sent (its key or value could not be
	 * serialized). It takes its place in the batch and is {@link Outcome#FAILED}.
	 */
	<T> CommandResponse<T> addFailed(String commandName, String message, @Nullable Throwable cause) {
		checkNotFinished();
		observeFromFirstCommand();
		return CommandResponse.failedLocally(this.submitted++, commandName, message, cause, this.ledger);
	}

	/**
	 * Take the command just written into the open chunk: reject it if an argument is
	 * larger than the server accepts, move it to a new chunk if it would take the open
	 * one over its byte budget, and send the chunk once it is full.
	 */
	private void enqueue(CommandResponse<?> response) {
		ByteBuf buffer = this.open.buffer;
		int start = this.commandStart;
		int end = buffer.writerIndex();
		this.commandStart = -1;
		long limit = this.pool.maxBulkBytes();
		if (end - start > limit) {
			long largest = RespWriter.largestBulk(buffer, start, end);
			if (largest > limit) {
				buffer.writerIndex(start);
				String reason = "not sent: an argument of " + largest + " bytes is larger than the server's "
						+ "proto-max-bulk-len of " + limit + " bytes";
				response.completeExceptionally(new IllegalArgumentException(reason));
				response.settle(Outcome.FAILED, reason, this.ledger);
				return;
			}
		}
		if (this.abortReason == null && this.open.size > 0 && buffer.readableBytes() > this.maxChunkBytes) {
			// The byte budget is reached before the chunk size: send what was there
			// before this command, which starts the next chunk.
			byte[] command = new byte[end - start];
			buffer.getBytes(start, command);
			buffer.writerIndex(start);
			sendOpenChunk();
			throwIfJustAborted();
			this.open.buffer.writeBytes(command);
		}
		if (this.abortReason != null) {
			this.open.buffer.writerIndex(this.open.buffer.writerIndex() - (end - start));
			response.settle(Outcome.NOT_SENT, notSentReason(), this.ledger);
			return;
		}
		this.open.add(response);
		if (this.open.size == this.chunkSize || this.open.buffer.readableBytes() >= this.maxChunkBytes) {
			sendOpenChunk();
			throwIfJustAborted();
		}
	}

	private void observeFromFirstCommand() {
		if (this.observation == null) {
			this.observation = this.observations.start(this.context);
		}
	}

	private void checkNotFinished() {
		if (this.finished) {
			throw new IllegalStateException(
					"The batch is complete: record commands inside the batch callback, not after it returned");
		}
	}

	// ------------------------------------------------------------------ ending

	/**
	 * Send the open chunk and wait for every chunk in flight, keeping the leased
	 * connections: afterwards every command recorded so far has its outcome.
	 */
	void drain() {
		checkNotFinished();
		sendOpenChunk();
		while (!this.inFlight.isEmpty()) {
			settleOldest();
		}
		throwIfJustAborted();
	}

	/**
	 * Send what is left, wait for every chunk, retry what the options allow, give the
	 * connections back, and account for every command.
	 * @return the results
	 */
	BatchResults finish() {
		if (!this.finished) {
			sendOpenChunk();
			while (!this.inFlight.isEmpty()) {
				settleOldest();
			}
			releaseLeases();
			retryPending();
			close();
		}
		return results();
	}

	/**
	 * Stop the batch because the recording code failed: nothing more is sent, chunks in
	 * flight still get their replies, and connections go back.
	 * @param reason why, for the results
	 * @return the results
	 */
	BatchResults abort(String reason) {
		if (!this.finished) {
			stop(reason, null);
			while (!this.inFlight.isEmpty()) {
				settleOldest();
			}
			releaseLeases();
			this.retryAttemptsLeft = 0;
			this.pending.forEach((response) -> response.settlePending(this.ledger));
			this.pending.clear();
			close();
		}
		return results();
	}

	/**
	 * End the batch after the recording code threw: nothing more is sent, chunks in
	 * flight still get their replies, connections go back. If the exception is this
	 * pipeline's own stop signal, the result is a {@link BatchException} with the final
	 * results; otherwise the exception itself wins, with the batch outcome attached as a
	 * suppressed {@link BatchException} when anything was recorded.
	 * @param failure what the recording code threw
	 * @return the exception to throw
	 */
	Throwable afterFailure(Throwable failure) {
		BatchResults results = abort("the recording code threw " + failure.getClass().getSimpleName());
		if (isAbortSignal(failure)) {
			return new BatchException(results, this.abortCause);
		}
		if (results.size() > 0) {
			failure.addSuppressed(new BatchException(results, this.abortCause));
		}
		return failure;
	}

	/**
	 * Whether the given exception is the signal this pipeline threw to stop the recording
	 * code.
	 */
	boolean isAbortSignal(Throwable ex) {
		return ex == this.abortSignal;
	}

	/**
	 * Finish the batch and return its results if every command succeeded.
	 * @return the results
	 * @throws BatchException otherwise
	 */
	BatchResults complete() {
		BatchResults results = finish();
		if (!results.isSuccess()) {
			throw new BatchException(results, this.abortCause);
		}
		return results;
	}

	/**
	 * The results of the commands recorded from index {@code from} (inclusive) to
	 * {@code to} (exclusive), indexed from 0; every one of them must have its outcome.
	 */
	BatchResults slice(int from, int to, int chunks, Duration elapsed) {
		return this.ledger.slice(from, to).toResults(this.name, chunks, elapsed, this.abortReason);
	}

	private BatchResults results() {
		return this.ledger.toResults(this.name, this.chunksSent, Duration.ofNanos(System.nanoTime() - this.startNanos),
				this.abortReason);
	}

	// ------------------------------------------------------------------ sending

	private void sendOpenChunk() {
		Chunk chunk = this.open;
		if (chunk.size == 0) {
			return;
		}
		this.open = newChunk();
		while (true) {
			if (this.abortReason != null) {
				chunk.settleNotSent(notSentReason());
				return;
			}
			Lease lease = lease();
			if (lease == null) {
				continue;
			}
			if (!lease.connection.isOpen()) {
				// It broke (for example the server restarted): nothing of this chunk was
				// sent on it, so another connection can take the chunk.
				breakLease(lease);
				continue;
			}
			if (chunk.dispatch(lease)) {
				lease.inFlight++;
				this.chunksSent++;
				this.inFlight.add(chunk);
			}
			else {
				// The connection closed between the check and the write, and refused the
				// whole write: nothing went out.
				breakLease(lease);
				chunk.settleNotSent("not sent: the connection closed just before the write");
			}
			return;
		}
	}

	/**
	 * A connection for the next chunk, once fewer than {@code parallelism} chunks are in
	 * flight (waiting for the oldest otherwise): a leased one with nothing in flight; a
	 * new one while below the parallelism (an idle pooled one, never a handshake on this
	 * thread); otherwise the leased one with the fewest chunks in flight, where this
	 * chunk is pipelined behind them. Returns {@code null} when the batch was stopped
	 * while waiting.
	 */
	private @Nullable Lease lease() {
		while (this.abortReason == null) {
			if (this.inFlight.size() >= this.parallelism) {
				settleOldest();
				continue;
			}
			Lease best = null;
			for (Lease lease : this.leases) {
				if (!lease.broken && (best == null || lease.inFlight < best.inFlight)) {
					best = lease;
				}
			}
			if (best != null && best.inFlight == 0) {
				return best;
			}
			if (this.inFlight.isEmpty()) {
				return borrow();
			}
			if (this.leases.size() < this.parallelism) {
				StatefulConnection<byte[], byte[]> connection = this.pool.tryBorrowIdle();
				if (connection != null) {
					return addLease(connection);
				}
				if (!this.askedForConnections) {
					// More connections open in the background; meanwhile this batch waits
					// only on its own chunks, never on a handshake.
					this.askedForConnections = true;
					this.pool.openInBackground(this.parallelism - this.leases.size());
				}
			}
			if (best != null) {
				return best;
			}
			settleOldest();
		}
		return null;
	}

	private @Nullable Lease borrow() {
		try {
			return addLease(this.pool.borrow());
		}
		catch (RuntimeException ex) {
			stop("no batch connection: " + CommandResponse.describe(ex), ex);
			return null;
		}
	}

	private Lease addLease(StatefulConnection<byte[], byte[]> connection) {
		Lease lease = new Lease(connection);
		this.leases.add(lease);
		return lease;
	}

	/**
	 * Close a connection that broke or may still receive replies: it leaves the pool at
	 * once, and the batch forgets it once nothing of the batch is in flight on it.
	 */
	private void breakLease(Lease lease) {
		if (!lease.broken) {
			lease.broken = true;
			this.pool.invalidate(lease.connection);
		}
		if (lease.inFlight == 0) {
			this.leases.remove(lease);
		}
	}

	private void releaseLeases() {
		for (Lease lease : this.leases) {
			if (!lease.broken) {
				this.pool.release(lease.connection);
			}
		}
		this.leases.clear();
	}

	private void settleOldest() {
		Chunk chunk = this.inFlight.poll();
		if (chunk == null) {
			return;
		}
		boolean interrupted = Thread.currentThread().isInterrupted();
		boolean complete = !interrupted && chunk.await();
		interrupted = interrupted || Thread.currentThread().isInterrupted();
		String noReply = interrupted ? "sent, but the batch was interrupted before its reply (it may have run)"
				: "sent, but no reply within the chunk timeout of " + Duration.ofNanos(this.timeoutNanos)
						+ " (it may have run)";
		Throwable connectionFailure = chunk.connectionFailure();
		int unknown = chunk.settle(noReply);
		this.context.chunkCompleted(System.nanoTime() - chunk.sentAt);
		Lease lease = chunk.lease();
		lease.inFlight--;
		boolean clean = complete && connectionFailure == null && lease.connection.isOpen();
		if (clean) {
			if (lease.broken && lease.inFlight == 0) {
				this.leases.remove(lease);
			}
			recycle(chunk.buffer);
		}
		else {
			// Unanswered commands may still be on the wire: the connection never serves
			// another chunk, and the chunk's buffer is never reused.
			breakLease(lease);
		}
		if (interrupted) {
			stop("the thread was interrupted", new InterruptedException("batch interrupted"));
		}
		else if (!complete) {
			stop("a chunk got no reply within its timeout of " + Duration.ofNanos(this.timeoutNanos), null);
		}
		else if (unknown > 0) {
			stop("a chunk lost its connection before every reply came (when the server closes it, its log says "
					+ "why: client-output-buffer-limit and client-query-buffer-limit are common causes, and a "
					+ "smaller chunk-size or max-chunk-bytes keeps a chunk under them)", connectionFailure);
		}
	}

	private void stop(String reason, @Nullable Throwable cause) {
		if (this.abortReason != null) {
			return;
		}
		this.abortReason = reason;
		this.abortCause = cause;
		Chunk unsent = this.open;
		this.open = newChunk();
		unsent.settleNotSent(notSentReason());
	}

	private void throwIfJustAborted() {
		if (this.abortReason != null && this.abortSignal == null) {
			// Settle what is still in flight so the signal's results are complete so far.
			while (!this.inFlight.isEmpty()) {
				settleOldest();
			}
			this.abortSignal = new BatchException(results(), this.abortCause);
			throw this.abortSignal;
		}
	}

	private String notSentReason() {
		return "not sent: the batch stopped early (" + this.abortReason + ")";
	}

	private Chunk newChunk() {
		ByteBuf buffer = this.spareBuffers.poll();
		if (buffer == null) {
			buffer = Unpooled.buffer(Math.min(this.chunkSize, 1024) * 48);
		}
		if (this.transactional) {
			buffer.writeBytes(MULTI);
		}
		return new Chunk(this.chunkSize, buffer);
	}

	private void recycle(ByteBuf buffer) {
		if (this.spareBuffers.size() <= this.parallelism && buffer.capacity() <= 4 * this.maxChunkBytes) {
			buffer.clear();
			this.spareBuffers.push(buffer);
		}
	}

	// ------------------------------------------------------------------ retries

	/**
	 * Whether a command, about to end with the given outcome, is sent again: not sent, or
	 * unknown and idempotent, while retry attempts are left.
	 */
	private boolean deferForRetry(CommandResponse<?> response, Outcome outcome) {
		boolean again = outcome == Outcome.NOT_SENT || (outcome == Outcome.UNKNOWN && response.isIdempotent());
		if (again && this.retryAttemptsLeft > 0) {
			this.pending.add(response);
			return true;
		}
		return false;
	}

	/**
	 * Send the pending commands again, after the backoff, in passes of their own, until
	 * none is pending or no attempt is left; then their last outcome is final.
	 */
	private void retryPending() {
		while (!this.pending.isEmpty() && this.retryAttemptsLeft > 0 && backOff()) {
			this.retryAttemptsLeft--;
			List<CommandResponse<?>> again = this.pending;
			this.pending = new ArrayList<>();
			ChunkedPipeline pass = new ChunkedPipeline(this);
			int resent = 0;
			try {
				for (; resent < again.size(); resent++) {
					pass.resend(again.get(resent));
				}
			}
			catch (BatchException ex) {
				if (!pass.isAbortSignal(ex)) {
					throw ex;
				}
				resent++;
			}
			for (int i = resent; i < again.size(); i++) {
				again.get(i).settle(Outcome.NOT_SENT, pass.notSentReason(), this.ledger);
			}
			pass.finish();
			this.chunksSent += pass.chunksSent;
			this.abortReason = pass.abortReason;
			this.abortCause = pass.abortCause;
		}
		this.retryAttemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(this.ledger);
		}
		this.pending.clear();
	}

	/**
	 * Send a pending command again, from its recipe, with its original response.
	 */
	private void resend(CommandResponse<?> response) {
		CommandResponse.Recipe recipe = response.recipe();
		startCommand().writeBytes(recipe.bytes());
		response.resend(recipe.output().get());
		enqueue(response);
	}

	private boolean backOff() {
		if (Thread.currentThread().isInterrupted()) {
			return false;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(this.options.retryBackoff().toNanos());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	// ------------------------------------------------------------------ reporting

	private void close() {
		this.finished = true;
		releaseLeases();
		report(results());
	}

	/**
	 * Record the observation and log the outcome: counts and timing, never keys or
	 * values.
	 */
	private void report(BatchResults results) {
		Observation current = this.observation;
		if (current == null) {
			return;
		}
		this.context.setResults(results.count(Outcome.SUCCESS), results.count(Outcome.FAILED),
				results.count(Outcome.UNKNOWN), results.count(Outcome.NOT_SENT), results.chunks());
		current.stop();
		if (results.count(Outcome.UNKNOWN) > 0) {
			logger.warn("Batch '" + this.name + "' ended with " + results.count(Outcome.UNKNOWN)
					+ " commands in an UNKNOWN state: they were sent but got no reply, so they may or may not have run ("
					+ this.abortReason + "). " + results.summary());
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Batch '" + this.name + "' ended: " + results.summary()
					+ ((this.abortReason != null) ? "; stopped early: " + this.abortReason : ""));
		}
	}

	private static byte[] encoded(ProtocolKeyword command) {
		ByteBuf buffer = Unpooled.buffer(32);
		RespWriter.array(buffer, 1);
		RespWriter.bulk(buffer, command);
		byte[] bytes = new byte[buffer.readableBytes()];
		buffer.readBytes(bytes);
		return bytes;
	}

	/**
	 * A connection this batch holds, and how many of its chunks are in flight on it.
	 */
	private static final class Lease {

		private final StatefulConnection<byte[], byte[]> connection;

		private int inFlight;

		private boolean broken;

		Lease(StatefulConnection<byte[], byte[]> connection) {
			this.connection = connection;
		}

	}

	/**
	 * A chunk of commands, encoded in one buffer and sent in one write on one connection.
	 * It counts down as its commands complete, and its thread waits for zero.
	 */
	private final class Chunk implements CommandResponse.Countdown {

		@SuppressWarnings("rawtypes")
		private static final AtomicIntegerFieldUpdater<Chunk> REMAINING = AtomicIntegerFieldUpdater
			.newUpdater(Chunk.class, "remaining");

		private final int capacity;

		private final ByteBuf buffer;

		private CommandResponse<?>[] responses;

		private int size;

		private volatile int remaining;

		private volatile @Nullable Thread waiter;

		private @Nullable Lease lease;

		private long sentAt;

		private long deadline;

		private @Nullable AsyncCommand<byte[], byte[], TransactionResult> exec;

		Chunk(int capacity, ByteBuf buffer) {
			this.capacity = capacity;
			this.buffer = buffer;
			this.responses = new CommandResponse<?>[Math.min(capacity, 64)];
		}

		void add(CommandResponse<?> response) {
			if (this.size == this.responses.length) {
				this.responses = Arrays.copyOf(this.responses, Math.min(this.capacity, this.size * 2));
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

		/**
		 * Write the chunk on the leased connection. Returns {@code false} when the
		 * connection refused the whole write (it was closed), so nothing was sent.
		 */
		boolean dispatch(Lease to) {
			StatefulConnection<byte[], byte[]> target = to.connection;
			this.lease = to;
			this.remaining = this.size;
			List<RedisCommand<byte[], byte[], ?>> commands = new ArrayList<>(this.size + 2);
			if (ChunkedPipeline.this.transactional) {
				// MULTI and EXEC go through Lettuce's own dispatch, which makes EXEC's
				// reply complete the commands in between. MULTI carries the chunk's
				// bytes.
				this.buffer.writeBytes(EXEC);
				commands.add(
						new WireCommand<>(CommandType.MULTI, new StatusOutput<>(ByteArrayCodec.INSTANCE), this.buffer));
				for (int i = 0; i < this.size; i++) {
					this.responses[i].sendWith(this, null);
					commands.add(this.responses[i]);
				}
				this.exec = new WireCommand<>(CommandType.EXEC, new MultiOutput<>(ByteArrayCodec.INSTANCE), null);
				commands.add(this.exec);
				start();
				target.dispatch(commands);
				return !rejected(commands.get(0));
			}
			for (int i = 0; i < this.size; i++) {
				this.responses[i].sendWith(this, (i == 0) ? this.buffer : null);
				commands.add(this.responses[i]);
			}
			start();
			Channel channel = ChunkedPipeline.this.pool.channelOf(target);
			if (channel == null) {
				target.dispatch(commands);
				return !rejected(commands.get(0));
			}
			// One message for the whole chunk: Lettuce's command handler queues every
			// command for its reply, and the first writes the chunk's bytes. A failed
			// write closes the channel, which completes every queued command.
			if (!channel.isActive()) {
				return false;
			}
			channel.writeAndFlush(commands, channel.voidPromise());
			return true;
		}

		private void start() {
			this.sentAt = System.nanoTime();
			this.deadline = this.sentAt + ChunkedPipeline.this.timeoutNanos;
		}

		/**
		 * Wait until every command (and EXEC) is done, the deadline passes, or the thread
		 * is interrupted (the flag stays set).
		 * @return whether everything is done
		 */
		boolean await() {
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
		@Nullable Throwable connectionFailure() {
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			if (transaction != null) {
				Throwable failure = CommandResponse.failureOf(transaction);
				return (failure == null || failure instanceof io.lettuce.core.RedisCommandExecutionException) ? null
						: failure;
			}
			return this.responses[this.size - 1].localFailure();
		}

		/**
		 * Decide the outcome of every command of the chunk.
		 * @return how many ended {@link Outcome#UNKNOWN}
		 */
		int settle(String noReply) {
			OutcomeLedger ledger = ChunkedPipeline.this.ledger;
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			if (transaction != null && transactionAborted(transaction)) {
				// EXECABORT (a command was refused while queueing) or discarded: nothing
				// in
				// the chunk ran.
				String execError = CommandResponse.errorReply(transaction);
				String reason = (execError != null) ? execError : "transaction discarded";
				for (int i = 0; i < this.size; i++) {
					String own = this.responses[i].errorReply();
					this.responses[i].settle(Outcome.FAILED, (own != null) ? own : reason, ledger);
				}
				return 0;
			}
			// Without an EXEC reply nothing is known about a transaction: its commands
			// stay
			// unknown.
			int unknown = 0;
			for (int i = 0; i < this.size; i++) {
				if (this.responses[i].settleFromReply(noReply, ledger) == Outcome.UNKNOWN) {
					unknown++;
				}
			}
			return unknown;
		}

		/**
		 * Whether EXEC answered that the transaction did not run: an error (EXECABORT) or
		 * a discarded transaction.
		 */
		private boolean transactionAborted(AsyncCommand<byte[], byte[], TransactionResult> transaction) {
			if (!transaction.isDone()) {
				return false;
			}
			if (CommandResponse.errorReply(transaction) != null) {
				return true;
			}
			if (transaction.isCompletedExceptionally()) {
				return false;
			}
			TransactionResult result = transaction.getNow(null);
			return result != null && result.wasDiscarded();
		}

		void settleNotSent(String reason) {
			for (int i = 0; i < this.size; i++) {
				this.responses[i].settle(Outcome.NOT_SENT, reason, ChunkedPipeline.this.ledger);
			}
			recycle(this.buffer);
		}

		/**
		 * Whether the endpoint refused the write as a whole (closed or disconnected
		 * connection): then every command failed synchronously, before anything was
		 * written.
		 */
		private static boolean rejected(RedisCommand<byte[], byte[], ?> first) {
			Throwable failure = (first instanceof CommandResponse<?> response) ? response.localFailure()
					: CommandResponse.failureOf(first);
			if (failure == null || failure.getClass() != RedisException.class) {
				return false;
			}
			String message = String.valueOf(failure.getMessage());
			return message.startsWith("Connection is closed") || message.startsWith("Currently not connected")
					|| message.startsWith("Request queue size exceeded")
					|| message.startsWith("Command buffer size exceeded");
		}

	}

	/**
	 * A command of the batch's own (MULTI, EXEC) whose bytes are already in the chunk's
	 * buffer: it writes that buffer if it carries it, and nothing otherwise.
	 */
	private static final class WireCommand<T> extends AsyncCommand<byte[], byte[], T> {

		private @Nullable ByteBuf carries;

		WireCommand(CommandType type, CommandOutput<byte[], byte[], T> output, @Nullable ByteBuf carries) {
			super(new Command<>(type, output));
			this.carries = carries;
		}

		@Override
		public void encode(ByteBuf buffer) {
			ByteBuf bytes = this.carries;
			if (bytes != null) {
				this.carries = null;
				buffer.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
			}
		}

	}

}
