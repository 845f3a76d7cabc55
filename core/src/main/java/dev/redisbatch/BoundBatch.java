package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.core.RedisConnectionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A batch bound to the current thread while a block of code runs; what
 * {@code @RedisBatch} uses. While it is bound:
 * <ul>
 * <li>every command that a {@code RedisTemplate} on one of the captured connection
 * factories issues on this thread is recorded into the batch (template calls return
 * {@code null}, as in any pipeline);</li>
 * <li>{@link BatchTemplate#execute(BatchOptions, BatchCallback)} on the same pool joins
 * it: its commands go into this batch, and its responses are complete when it
 * returns;</li>
 * <li>a chunk is sent whenever it fills.</li>
 * </ul>
 * End it with {@link #complete()} or {@link #fail(Throwable)}; {@link #close()} is a
 * safety net that stops it if neither was called.
 *
 * <pre class="code">
 * try (BoundBatch batch = batchTemplate.bind(BatchOptions.defaults(), List.of(connectionFactory))) {
 *     try {
 *         orders.forEach((order) -&gt; redisTemplate.opsForValue().set(order.key(), order.json()));
 *     }
 *     catch (RuntimeException ex) {
 *         throw batch.fail(ex);
 *     }
 *     batch.complete();
 * }
 * </pre>
 *
 * @since 0.1.0
 */
public final class BoundBatch implements AutoCloseable {

	private final BatchConnectionPool pool;

	private final RunSettings settings;

	private final BatchRun run;

	private final CommandRecorder recorder;

	private final RecordingRedisConnection connection;

	private final List<RedisConnectionFactory> bound = new ArrayList<>();

	private final Thread owner = Thread.currentThread();

	private boolean ended;

	/**
	 * How many batches are bound now, on any thread and pool: while none is, a batch
	 * finds that it joins none without looking up the thread's resources. A thread that
	 * bound one counted it before, so it never reads zero while its own is bound.
	 */
	private static final AtomicInteger boundNow = new AtomicInteger();

	private boolean counted;

	BoundBatch(BatchConnectionPool pool, RunSettings settings, BatchObservations observations,
			Collection<? extends RedisConnectionFactory> capture) {
		this.pool = pool;
		this.settings = settings;
		// Commands from RedisTemplate code cannot be recorded again, so bound batches
		// never retry.
		this.run = new BatchRun(pool, settings.withoutRetry(), observations);
		this.recorder = new CommandRecorder(pool.clientResources(), this.run);
		this.connection = new RecordingRedisConnection(this.run, this.recorder, settings.timeout().toMillis());
		TransactionSynchronizationManager.bindResource(pool, this);
		boundNow.incrementAndGet();
		this.counted = true;
		try {
			for (RedisConnectionFactory factory : capture) {
				bindConnection(factory);
				this.bound.add(factory);
			}
		}
		catch (RuntimeException ex) {
			unbindAll();
			throw ex;
		}
	}

	/**
	 * The batch bound to the current thread for the given pool, if any.
	 */
	static @Nullable BoundBatch current(BatchConnectionPool pool) {
		if (boundNow.get() == 0) {
			return null;
		}
		Object resource = TransactionSynchronizationManager.getResource(pool);
		return (resource instanceof BoundBatch batch) ? batch : null;
	}

	/**
	 * The options the batch runs with, every value set.
	 * @return the options
	 */
	public BatchOptions options() {
		return this.settings.options();
	}

	/**
	 * Send what is left, wait until every command has its outcome, and unbind.
	 * @return the results, when every command succeeded
	 * @throws BatchException otherwise, with every outcome
	 */
	public BatchResults complete() {
		checkOwner();
		end();
		return this.run.complete();
	}

	/**
	 * End the batch because the code it wraps failed: nothing more is sent, chunks in
	 * flight still get their replies, and the batch is unbound.
	 * @param <T> the type of the failure
	 * @param failure what the code threw
	 * @return the exception to throw: the given one, with the batch outcome attached as
	 * suppressed when anything was recorded (the batch itself never throws from a
	 * recording call: when it stops, later commands are not sent, and {@link #complete()}
	 * reports them)
	 */
	@SuppressWarnings("unchecked")
	public <T extends Throwable> T fail(T failure) {
		checkOwner();
		end();
		return (T) this.run.afterFailure(failure);
	}

	/**
	 * Stop and unbind the batch if neither {@link #complete()} nor
	 * {@link #fail(Throwable)} ended it. Commands not yet sent are
	 * {@link Outcome#NOT_SENT}.
	 */
	@Override
	public void close() {
		if (!this.ended) {
			end();
			this.run.abort(Messages.closedBeforeComplete());
		}
	}

	/**
	 * Run a {@link BatchTemplate#execute(BatchOptions, BatchCallback)} inside this batch:
	 * its commands are recorded here (with the calling template's serializers), and its
	 * responses are complete when it returns.
	 */
	<K, V> BatchResults join(BatchSerializers<K, V> serializers, BatchCallback<K, V> callback) {
		checkOwner();
		int from = this.run.submitted();
		int chunksBefore = this.run.chunksSent();
		long start = System.nanoTime();
		DefaultBatch<K, V> batch = new DefaultBatch<>(serializers, this.run);
		try {
			callback.doInBatch(batch);
		}
		finally {
			batch.close();
		}
		int to = this.run.submitted();
		this.run.drain();
		BatchResults results = this.run.slice(from, to, this.run.chunksSent() - chunksBefore,
				Duration.ofNanos(System.nanoTime() - start));
		if (!results.isSuccess()) {
			throw new BatchException(results, null);
		}
		return results;
	}

	private void end() {
		if (this.ended) {
			return;
		}
		this.ended = true;
		this.connection.close();
		unbindAll();
	}

	private void unbindAll() {
		for (RedisConnectionFactory factory : this.bound) {
			RedisConnectionUtils.unbindConnection(factory);
			if (RedisConnectionUtils.isConnectionTransactional(this.connection.connection(), factory)) {
				// someone bound it once more inside the batch and never released it
				TransactionSynchronizationManager.unbindResourceIfPossible(factory);
			}
		}
		this.bound.clear();
		if (TransactionSynchronizationManager.getResource(this.pool) == this) {
			TransactionSynchronizationManager.unbindResource(this.pool);
		}
		if (this.counted) {
			this.counted = false;
			boundNow.decrementAndGet();
		}
	}

	/**
	 * Bind the recording connection for a factory the way
	 * {@link RedisConnectionUtils#bindConnection(RedisConnectionFactory)} binds one, so
	 * that every {@code RedisTemplate} on that factory uses it on this thread.
	 */
	private void bindConnection(RedisConnectionFactory factory) {
		if (TransactionSynchronizationManager.hasResource(factory)) {
			throw new InvalidDataAccessApiUsageException("Cannot start a batch here: a Redis connection is already "
					+ "bound to this thread (RedisTemplate transaction support, a SessionCallback or "
					+ "RedisConnectionUtils.bindConnection). Start the batch outside of it.");
		}
		Handoff handoff = new Handoff(this.connection.connection());
		RedisConnectionUtils.bindConnection(handoff);
		Object holder = TransactionSynchronizationManager.unbindResource(handoff);
		TransactionSynchronizationManager.bindResource(factory, holder);
	}

	private void checkOwner() {
		if (Thread.currentThread() != this.owner) {
			throw new IllegalStateException("A bound batch belongs to the thread that started it");
		}
	}

	/**
	 * A factory that hands out the recording connection once, so that Spring Data Redis
	 * builds its own connection holder around it.
	 */
	private record Handoff(RedisConnection connection) implements RedisConnectionFactory {

		@Override
		public RedisConnection getConnection() {
			return this.connection;
		}

		@Override
		public RedisClusterConnection getClusterConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean getConvertPipelineAndTxResults() {
			return true;
		}

		@Override
		public RedisSentinelConnection getSentinelConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			return null;
		}

	}

}
