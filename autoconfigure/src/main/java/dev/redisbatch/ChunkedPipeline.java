package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.redisbatch.observation.BatchObservationContext;
import io.lettuce.core.RedisException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.MultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Runs one batch: the chunker, the connection leases and the outcome accounting.
 * <p>
 * Recorded commands fill the open chunk; a full chunk is sent at once, in one write, on a
 * leased connection. Up to {@code parallelism} chunks are in flight, each on its own
 * connection; when all are busy, the caller waits for the oldest chunk. So memory is
 * bounded by {@code chunkSize × (parallelism + 1)} commands, whatever the batch size.
 * <p>
 * Each chunk has its own deadline. Replies arrive in order, so when a chunk is settled
 * the answered commands keep their results and the rest are {@link Outcome#UNKNOWN}. A
 * chunk that lost its connection or passed its deadline stops the batch: its connection
 * leaves the pool, and commands not yet sent end {@link Outcome#NOT_SENT}. Nothing is
 * ever sent twice.
 * <p>
 * Not thread-safe: a pipeline belongs to the thread that runs the batch.
 */
final class ChunkedPipeline {

	private static final Log logger = LogFactory.getLog(ChunkedPipeline.class);

	private final BatchConnectionPool pool;

	private final BatchObservations observations;

	private final BatchObservationContext context;

	private @Nullable Observation observation;

	private final String name;

	private final int chunkSize;

	private final int parallelism;

	private final long timeoutNanos;

	private final boolean transactional;

	private final long maxChunkBytes;

	private final OutcomeLedger ledger;

	private final BatchOptions options;

	private CommandResponse.Retries retries;

	private int retryAttemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	private final long startNanos = System.nanoTime();

	private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>();

	private final ArrayDeque<StatefulConnection<byte[], byte[]>> idle = new ArrayDeque<>();

	private Chunk open;

	private int leased;

	private boolean askedForConnections;

	private int submitted;

	private int chunksSent;

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
		this.open = new Chunk(this.chunkSize);
		this.context = (context != null) ? context
				: new BatchObservationContext(this.name,
						this.transactional ? BatchObservationContext.Mode.TRANSACTION
								: BatchObservationContext.Mode.PIPELINE,
						pool.topology().name().toLowerCase(Locale.ROOT));
		this.retries = this::deferForRetry;
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

	/**
	 * Record a command. If the open chunk is full it is sent; if the batch has to stop
	 * (no connection, a lost chunk, an interrupt) this throws a {@link BatchException} so
	 * that the recording code stops too.
	 */
	<T> CommandResponse<T> add(RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter,
			long bytes, CommandResponse.@Nullable Recipe recipe, boolean idempotent) {
		checkNotFinished();
		observeFromFirstCommand();
		CommandResponse<T> response = new CommandResponse<>(this.submitted++, command, converter);
		if (recipe != null && this.retryAttemptsLeft > 0) {
			response.retryable(recipe, idempotent, this.retries);
		}
		enqueue(response, bytes);
		return response;
	}

	/**
	 * Take a pending command, recorded again from its recipe, in a retry pass.
	 */
	void replay(CommandResponse<?> response, RedisCommand<byte[], byte[], ?> command, long bytes) {
		response.replayAs(command);
		enqueue(response, bytes);
	}

	private void enqueue(CommandResponse<?> response, long bytes) {
		if (this.abortReason == null && this.open.size > 0 && this.open.bytes + bytes > this.maxChunkBytes) {
			// the byte budget is reached before the chunk size: send what is there first
			sendOpenChunk();
			throwIfJustAborted();
		}
		if (this.abortReason != null) {
			response.settle(Outcome.NOT_SENT, notSentReason(), this.ledger);
			return;
		}
		this.open.add(response, bytes);
		if (this.open.size == this.chunkSize || this.open.bytes >= this.maxChunkBytes) {
			sendOpenChunk();
			throwIfJustAborted();
		}
	}

	/**
	 * Record a command that failed before it could be sent (its key or value could not be
	 * serialized). It takes its place in the batch and is {@link Outcome#FAILED}.
	 */
	<T> CommandResponse<T> addFailed(String commandName, String message, Throwable cause) {
		checkNotFinished();
		observeFromFirstCommand();
		return CommandResponse.failedLocally(this.submitted++, commandName, message, cause, this.ledger);
	}

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
	 * Send what is left, wait for every chunk, give the connections back, and account for
	 * every command.
	 * @return the results
	 */
	BatchResults finish() {
		if (!this.finished) {
			sendOpenChunk();
			while (!this.inFlight.isEmpty()) {
				settleOldest();
			}
			releaseIdle();
			retryPending();
			close();
		}
		return results();
	}

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
			CommandRecorder recorder = new CommandRecorder(this.pool.clientResources(), pass, this.pool::maxBulkBytes);
			int replayed = 0;
			try {
				for (; replayed < again.size(); replayed++) {
					recorder.replay(again.get(replayed));
				}
			}
			catch (BatchException ex) {
				if (!pass.isAbortSignal(ex)) {
					throw ex;
				}
				replayed++;
			}
			for (int i = replayed; i < again.size(); i++) {
				again.get(i).settle(Outcome.NOT_SENT, pass.notSentReason(), this.ledger);
			}
			pass.finish();
			this.chunksSent += pass.chunksSent;
			if (pass.abortReason != null) {
				this.abortReason = pass.abortReason;
				this.abortCause = pass.abortCause;
			}
			else {
				this.abortReason = null;
				this.abortCause = null;
			}
		}
		this.retryAttemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(this.ledger);
		}
		this.pending.clear();
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
			releaseIdle();
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
	 * The number of chunks sent so far.
	 */
	int chunksSent() {
		return this.chunksSent;
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

	private void sendOpenChunk() {
		Chunk chunk = this.open;
		if (chunk.size == 0) {
			return;
		}
		this.open = new Chunk(this.chunkSize);
		while (true) {
			if (this.abortReason != null) {
				chunk.settleNotSent(notSentReason());
				return;
			}
			StatefulConnection<byte[], byte[]> connection = lease();
			if (connection == null) {
				continue;
			}
			if (!connection.isOpen()) {
				// It broke while idle (for example the server restarted): nothing was
				// sent
				// on it, so another connection can take the chunk.
				discard(connection);
				continue;
			}
			if (chunk.dispatch(connection)) {
				this.chunksSent++;
				this.inFlight.add(chunk);
			}
			else {
				// The connection closed between the check and the write, and refused the
				// whole write: nothing went out, and the refused commands cannot be
				// reused.
				discard(connection);
				chunk.settleNotSent("not sent: the connection closed just before the write");
			}
			return;
		}
	}

	/**
	 * A connection for the next chunk: an idle leased one, an idle pooled one while below
	 * the parallelism, or the one the oldest chunk in flight frees. Returns {@code null}
	 * when the batch was stopped while waiting.
	 */
	private @Nullable StatefulConnection<byte[], byte[]> lease() {
		while (this.abortReason == null) {
			StatefulConnection<byte[], byte[]> connection = this.idle.poll();
			if (connection != null) {
				return connection;
			}
			if (this.inFlight.isEmpty()) {
				return borrow();
			}
			if (this.leased < this.parallelism) {
				connection = this.pool.tryBorrowIdle();
				if (connection != null) {
					this.leased++;
					return connection;
				}
				if (!this.askedForConnections) {
					// More connections open in the background; meanwhile this batch waits
					// only on its own chunks, never on a handshake.
					this.askedForConnections = true;
					this.pool.openInBackground(this.parallelism - this.leased);
				}
			}
			settleOldest();
		}
		return null;
	}

	private @Nullable StatefulConnection<byte[], byte[]> borrow() {
		try {
			StatefulConnection<byte[], byte[]> connection = this.pool.borrow();
			this.leased++;
			return connection;
		}
		catch (RuntimeException ex) {
			stop("no batch connection: " + CommandResponse.describe(ex), ex);
			return null;
		}
	}

	private void settleOldest() {
		Chunk chunk = this.inFlight.poll();
		if (chunk == null) {
			return;
		}
		boolean interrupted = Thread.currentThread().isInterrupted();
		boolean complete = false;
		if (!interrupted) {
			try {
				complete = chunk.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				interrupted = true;
			}
		}
		String noReply = interrupted ? "sent, but the batch was interrupted before its reply (it may have run)"
				: "sent, but no reply within the chunk timeout of " + Duration.ofNanos(this.timeoutNanos)
						+ " (it may have run)";
		Throwable connectionFailure = chunk.connectionFailure();
		int unknown = chunk.settle(noReply);
		this.context.chunkCompleted(System.nanoTime() - chunk.sentAt());
		if (complete && connectionFailure == null && chunk.connection().isOpen()) {
			this.idle.add(chunk.connection());
		}
		else {
			// Unanswered commands may still be on the wire: the connection never serves
			// another chunk.
			discard(chunk.connection());
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

	private void discard(StatefulConnection<byte[], byte[]> connection) {
		this.leased--;
		this.pool.invalidate(connection);
	}

	private void stop(String reason, @Nullable Throwable cause) {
		if (this.abortReason != null) {
			return;
		}
		this.abortReason = reason;
		this.abortCause = cause;
		Chunk unsent = this.open;
		this.open = new Chunk(this.chunkSize);
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

	private void releaseIdle() {
		StatefulConnection<byte[], byte[]> connection;
		while ((connection = this.idle.poll()) != null) {
			this.leased--;
			this.pool.release(connection);
		}
	}

	private void close() {
		this.finished = true;
		releaseIdle();
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

	/**
	 * A chunk of commands, sent in one write on one connection.
	 */
	private final class Chunk {

		private final int capacity;

		private CommandResponse<?>[] responses;

		private int size;

		private long bytes;

		private @Nullable StatefulConnection<byte[], byte[]> connection;

		private long sentAt;

		private long deadline;

		private @Nullable AsyncCommand<byte[], byte[], TransactionResult> exec;

		Chunk(int capacity) {
			this.capacity = capacity;
			this.responses = new CommandResponse<?>[Math.min(capacity, 64)];
		}

		void add(CommandResponse<?> response, long commandBytes) {
			this.bytes += commandBytes;
			if (this.size == this.responses.length) {
				this.responses = Arrays.copyOf(this.responses, Math.min(this.capacity, this.size * 2));
			}
			this.responses[this.size++] = response;
		}

		long sentAt() {
			return this.sentAt;
		}

		StatefulConnection<byte[], byte[]> connection() {
			StatefulConnection<byte[], byte[]> current = this.connection;
			if (current == null) {
				throw new IllegalStateException("Chunk was not sent");
			}
			return current;
		}

		/**
		 * Write every command of the chunk with one flush. Returns {@code false} when the
		 * connection refused the whole write (it was closed), so nothing was sent.
		 */
		boolean dispatch(StatefulConnection<byte[], byte[]> target) {
			List<RedisCommand<byte[], byte[], ?>> commands = new ArrayList<>(this.size + 2);
			boolean transaction = ChunkedPipeline.this.transactional;
			if (transaction) {
				commands.add(new AsyncCommand<>(
						new Command<>(CommandType.MULTI, new StatusOutput<>(ByteArrayCodec.INSTANCE))));
			}
			for (int i = 0; i < this.size; i++) {
				commands.add(this.responses[i].command());
			}
			if (transaction) {
				AsyncCommand<byte[], byte[], TransactionResult> execCommand = new AsyncCommand<>(
						new Command<>(CommandType.EXEC, new MultiOutput<>(ByteArrayCodec.INSTANCE)));
				this.exec = execCommand;
				commands.add(execCommand);
			}
			this.connection = target;
			this.sentAt = System.nanoTime();
			this.deadline = this.sentAt + ChunkedPipeline.this.timeoutNanos;
			target.dispatch(commands);
			return !rejected(commands.get(0));
		}

		/**
		 * Wait until every command (and EXEC) is done or the deadline passes.
		 * @return whether everything is done
		 */
		boolean await() throws InterruptedException {
			if (!waitFor(last())) {
				return false;
			}
			for (int i = 0; i < this.size; i++) {
				if (!waitFor(this.responses[i].command())) {
					return false;
				}
			}
			return true;
		}

		/**
		 * The failure that completed the last command without a reply (such as a closed
		 * connection), or {@code null}.
		 */
		@Nullable Throwable connectionFailure() {
			Throwable failure = CommandResponse.failureOf(last());
			return (failure == null || CommandResponse.isErrorReply(failure)) ? null : failure;
		}

		private RedisCommand<byte[], byte[], ?> last() {
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			return (transaction != null) ? transaction : this.responses[this.size - 1].command();
		}

		private boolean waitFor(RedisCommand<byte[], byte[], ?> command) throws InterruptedException {
			if (command.isDone()) {
				return true;
			}
			long remaining = this.deadline - System.nanoTime();
			if (remaining <= 0 || !(command instanceof CompletableFuture<?> future)) {
				return false;
			}
			try {
				future.get(remaining, TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException | CancellationException ex) {
				// completed exceptionally: settle() reads the failure
			}
			catch (TimeoutException ex) {
				return false;
			}
			return true;
		}

		/**
		 * Decide the outcome of every command of the chunk.
		 * @return how many ended {@link Outcome#UNKNOWN}
		 */
		int settle(String noReply) {
			OutcomeLedger ledger = ChunkedPipeline.this.ledger;
			int unknown = 0;
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			if (transaction != null && transactionAborted(transaction)) {
				// EXECABORT (a command was refused while queueing) or discarded: nothing
				// in
				// the chunk ran.
				String execError = CommandResponse.errorReply(transaction);
				String reason = (execError != null) ? execError : "transaction discarded";
				for (int i = 0; i < this.size; i++) {
					String own = CommandResponse.errorReply(this.responses[i].command());
					this.responses[i].settle(Outcome.FAILED, (own != null) ? own : reason, ledger);
				}
				return 0;
			}
			// Without an EXEC reply nothing is known about a transaction: its commands
			// stay
			// unknown.
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
		}

		/**
		 * Whether the endpoint refused the write as a whole (closed or disconnected
		 * connection): then every command failed synchronously, before anything was
		 * written.
		 */
		private static boolean rejected(RedisCommand<byte[], byte[], ?> first) {
			Throwable failure = CommandResponse.failureOf(first);
			if (failure == null || failure.getClass() != RedisException.class) {
				return false;
			}
			String message = String.valueOf(failure.getMessage());
			return message.startsWith("Connection is closed") || message.startsWith("Currently not connected")
					|| message.startsWith("Request queue size exceeded")
					|| message.startsWith("Command buffer size exceeded");
		}

	}

}
