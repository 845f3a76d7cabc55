package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.redisbatch.observation.BatchObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.Assert;

/**
 * Runs batches of Redis commands as chunked pipelines on a {@link BatchConnectionPool} of
 * its own, with a typed {@link Response} for every command and {@link BatchResults} that
 * account for all of them. Thread-safe once built.
 * <p>
 * Every convenience method delegates to {@link #execute(BatchOptions, BatchCallback)}.
 *
 * <pre class="code">
 * BatchResults results = batchTemplate.execute((batch) -&gt; {
 *     for (Order order : orders) {
 *         batch.set("order:" + order.id(), order.json(), Duration.ofHours(1));
 *     }
 * });
 * List&lt;String&gt; values = batchTemplate.getAll(keys); // aligned with keys, null where missing
 * </pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
public class BatchTemplate<K, V> implements BatchOperations<K, V> {

	/**
	 * The default number of commands per chunk (see docs/performance.md for how it was
	 * chosen).
	 */
	public static final int DEFAULT_CHUNK_SIZE = 1000;

	/**
	 * The default window in bytes: the most request bytes of a batch in flight to one
	 * server (see docs/performance.md for how it was chosen).
	 */
	public static final long DEFAULT_MAX_IN_FLIGHT_BYTES = 4L * 1024 * 1024;

	/**
	 * The default window in commands: the most commands of a batch in flight to one
	 * server.
	 */
	public static final int DEFAULT_MAX_IN_FLIGHT_COMMANDS = 100_000;

	/**
	 * The default time one chunk may take from being sent until its last reply.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * The default byte budget per chunk: 8 MiB of keys, values and arguments.
	 */
	public static final long DEFAULT_MAX_CHUNK_BYTES = 8L * 1024 * 1024;

	/**
	 * The default rate cap in commands per second: {@value BatchOptions#NO_RATE_CAP}, no
	 * cap.
	 */
	public static final long DEFAULT_MAX_COMMANDS_PER_SECOND = BatchOptions.NO_RATE_CAP;

	/**
	 * The default rate cap in request bytes per second:
	 * {@value BatchOptions#NO_RATE_CAP}, no cap.
	 */
	public static final long DEFAULT_MAX_BYTES_PER_SECOND = BatchOptions.NO_RATE_CAP;

	/**
	 * The default number of retry attempts: {@code 0}, no retry.
	 */
	public static final int DEFAULT_RETRY_ATTEMPTS = 0;

	/**
	 * The default pause before each retry attempt: none.
	 */
	public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ZERO;

	private static final BatchOptions BUILT_IN = BatchOptions.builder()
		.chunkSize(DEFAULT_CHUNK_SIZE)
		.maxInFlightBytes(DEFAULT_MAX_IN_FLIGHT_BYTES)
		.maxInFlightCommands(DEFAULT_MAX_IN_FLIGHT_COMMANDS)
		.timeout(DEFAULT_TIMEOUT)
		.transactional(false)
		.name(BatchOptions.DEFAULT_NAME)
		.maxChunkBytes(DEFAULT_MAX_CHUNK_BYTES)
		.retry(DEFAULT_RETRY_ATTEMPTS, DEFAULT_RETRY_BACKOFF)
		.maxCommandsPerSecond(DEFAULT_MAX_COMMANDS_PER_SECOND)
		.maxBytesPerSecond(DEFAULT_MAX_BYTES_PER_SECOND)
		.build();

	private final BatchConnectionPool pool;

	private final BatchSerializers<K, V> serializers;

	private final BatchOptions defaults;

	/**
	 * The settings of a batch that sets no option of its own: most batches.
	 */
	private final RunSettings defaultSettings;

	private BatchObservations observations = BatchObservations.NONE;

	private volatile @Nullable Executor asyncExecutor;

	/**
	 * Create a template. Hash fields use the key serializer and hash values the value
	 * serializer.
	 * @param pool the connections batches run on
	 * @param keySerializer the key serializer
	 * @param valueSerializer the value serializer
	 */
	public BatchTemplate(BatchConnectionPool pool, RedisSerializer<K> keySerializer,
			RedisSerializer<V> valueSerializer) {
		this(BatchTemplate.<K, V>builder(pool).keySerializer(keySerializer).valueSerializer(valueSerializer));
	}

	/**
	 * Create a template from a builder.
	 * @param builder the builder
	 */
	protected BatchTemplate(Builder<K, V> builder) {
		Assert.notNull(builder.keySerializer, "keySerializer must not be null");
		Assert.notNull(builder.valueSerializer, "valueSerializer must not be null");
		this.pool = builder.pool;
		RedisSerializer<?> hashKey = (builder.hashKeySerializer != null) ? builder.hashKeySerializer
				: builder.keySerializer;
		RedisSerializer<?> hashValue = (builder.hashValueSerializer != null) ? builder.hashValueSerializer
				: builder.valueSerializer;
		this.serializers = new BatchSerializers<>(builder.keySerializer, builder.valueSerializer, hashKey, hashValue);
		this.defaults = builder.defaults.withDefaults(BUILT_IN).requireComplete();
		this.defaultSettings = BatchOptions.defaults().resolve(this.defaults);
	}

	/**
	 * A builder for a template on the given pool.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param pool the connections batches run on
	 * @return a builder
	 */
	public static <K, V> Builder<K, V> builder(BatchConnectionPool pool) {
		Assert.notNull(pool, "pool must not be null");
		return new Builder<>(pool);
	}

	/**
	 * The options used for values a batch does not set.
	 * @return the default options, with every value set
	 */
	public BatchOptions getDefaultOptions() {
		return this.defaults;
	}

	/**
	 * Record a {@code redis.batch} observation for every batch. Set it before the
	 * template is used.
	 * @param observationRegistry the registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		Assert.notNull(observationRegistry, "observationRegistry must not be null");
		this.observations = new BatchObservations(observationRegistry, this.observations.convention());
	}

	/**
	 * Name and tag batch observations with a custom convention instead of
	 * {@link dev.redisbatch.observation.DefaultBatchObservationConvention}. Set it before
	 * the template is used.
	 * @param observationConvention the convention
	 */
	public void setObservationConvention(BatchObservationConvention observationConvention) {
		Assert.notNull(observationConvention, "observationConvention must not be null");
		this.observations = new BatchObservations(this.observations.registry(), observationConvention);
	}

	/**
	 * Run the batches of {@link #executeAsync(BatchOptions, BatchCallback)} on this
	 * executor instead of the template's own threads: for example
	 * {@code Executors.newVirtualThreadPerTaskExecutor()} on Java 21 or later. A batch
	 * blocks its thread while it records and waits for replies, so the executor must not
	 * run on an event loop (a Reactor or Netty thread).
	 * @param executor the executor
	 */
	public void setAsyncExecutor(Executor executor) {
		Assert.notNull(executor, "executor must not be null");
		this.asyncExecutor = executor;
	}

	/**
	 * The connections batches run on.
	 * @return the pool
	 */
	public BatchConnectionPool getConnectionPool() {
		return this.pool;
	}

	@Override
	public BatchResults execute(BatchCallback<K, V> callback) {
		return execute(BatchOptions.defaults(), callback);
	}

	@Override
	public BatchResults execute(BatchOptions options, BatchCallback<K, V> callback) {
		Assert.notNull(options, "options must not be null");
		Assert.notNull(callback, "callback must not be null");
		BoundBatch bound = BoundBatch.current(this.pool);
		if (bound != null) {
			return bound.join(this.serializers, callback);
		}
		return run(resolve(options), callback);
	}

	/**
	 * Run a batch on this thread, not bound to any other.
	 */
	private BatchResults run(RunSettings settings, BatchCallback<K, V> callback) {
		BatchRun pipeline = new BatchRun(this.pool, settings, this.observations);
		DefaultBatch<K, V> batch = new DefaultBatch<>(this.serializers, pipeline);
		try {
			callback.doInBatch(batch);
		}
		catch (Throwable ex) {
			// also what a Kotlin lambda or @SneakyThrows throws without declaring it
			batch.close();
			throw BatchRun.rethrow(pipeline.afterFailure(ex));
		}
		batch.close();
		// an empty callback is an empty success: nothing was borrowed or sent
		return pipeline.complete();
	}

	/**
	 * Run a batch with the default options on another thread.
	 * @param callback records the commands, on the batch's thread
	 * @return the results, or the same exception
	 * {@link #execute(BatchOptions, BatchCallback)} would throw
	 * @see #executeAsync(BatchOptions, BatchCallback)
	 */
	public CompletableFuture<BatchResults> executeAsync(BatchCallback<K, V> callback) {
		return executeAsync(BatchOptions.defaults(), callback);
	}

	/**
	 * Run a batch on another thread, so that the caller never blocks: for code on an
	 * event loop, or that starts several batches at once. The batch is the same as
	 * {@link #execute(BatchOptions, BatchCallback)}: the callback runs on the batch's
	 * thread, borrows there, and the future completes there, with the results when every
	 * command succeeded, or exceptionally with the same {@link BatchException} (or the
	 * callback's own exception) otherwise. Options are checked at once, before any thread
	 * is used.
	 * <p>
	 * The batch runs on the executor set with {@link #setAsyncExecutor(Executor)}, or
	 * else on daemon threads of the pool's ({@code redis-batch-async-N}), one per batch
	 * that runs, which end after a minute unused. A batch waits for a connection as
	 * {@code execute} does, and fails with {@link BatchPoolExhaustedException} after the
	 * pool's {@code maxWait}. An async batch never joins a batch bound to the calling
	 * thread: it runs on its own, inside the caller's current observation. Cancelling the
	 * future does not stop the batch.
	 * @param options the options; unset values come from the template's defaults
	 * @param callback records the commands, on the batch's thread
	 * @return the results
	 * @throws IllegalArgumentException for invalid options
	 */
	public CompletableFuture<BatchResults> executeAsync(BatchOptions options, BatchCallback<K, V> callback) {
		Assert.notNull(options, "options must not be null");
		Assert.notNull(callback, "callback must not be null");
		RunSettings resolved = resolve(options);
		CompletableFuture<BatchResults> future = new CompletableFuture<>();
		Runnable batch = () -> {
			try {
				future.complete(run(resolved, callback));
			}
			catch (Throwable ex) {
				future.completeExceptionally(ex);
			}
		};
		try {
			asyncExecutor().execute(this.observations.inCurrentObservation(batch));
		}
		catch (RejectedExecutionException ex) {
			future.completeExceptionally(ex);
		}
		return future;
	}

	/**
	 * The cause of a failed {@link #executeAsync(BatchOptions, BatchCallback)} future,
	 * without the {@link CompletionException} that dependent stages wrap it in.
	 * @param failure what a stage received
	 * @return the exception the batch ended with
	 */
	public static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	private Executor asyncExecutor() {
		Executor executor = this.asyncExecutor;
		return (executor != null) ? executor : this.pool.asyncExecutor();
	}

	/**
	 * Start a batch bound to the current thread: until it ends, every command that a
	 * {@code RedisTemplate} on one of the given connection factories issues on this
	 * thread is recorded into it, and {@link #execute(BatchOptions, BatchCallback)} joins
	 * it. This is what {@code @RedisBatch} does around a method.
	 * @param options the options; unset values come from the template's defaults
	 * @param capture the connection factories whose template commands the batch records
	 * @return the bound batch; end it with {@link BoundBatch#complete()} or
	 * {@link BoundBatch#fail(Throwable)}
	 * @throws IllegalStateException if a batch is already bound to this thread (join it
	 * instead)
	 */
	public BoundBatch bind(BatchOptions options, Collection<? extends RedisConnectionFactory> capture) {
		Assert.notNull(options, "options must not be null");
		Assert.notNull(capture, "capture must not be null");
		Assert.state(BoundBatch.current(this.pool) == null,
				"A batch is already bound to this thread: join it instead of binding another");
		return new BoundBatch(this.pool, resolve(options), this.observations, capture);
	}

	/**
	 * Whether a batch is bound to the current thread for this template's pool; commands
	 * then join it.
	 * @return whether a bound batch is active
	 */
	public boolean isBound() {
		return BoundBatch.current(this.pool) != null;
	}

	@Override
	public List<@Nullable V> getAll(Collection<K> keys) {
		Assert.notNull(keys, "keys must not be null");
		for (K key : keys) {
			Assert.notNull(key, "keys must not contain null");
		}
		if (keys.isEmpty()) {
			return new ArrayList<>();
		}
		List<Response<@Nullable V>> responses = new ArrayList<>(keys.size());
		execute((batch) -> {
			for (K key : keys) {
				responses.add(batch.get(key));
			}
		});
		List<@Nullable V> values = new ArrayList<>(responses.size());
		for (Response<@Nullable V> response : responses) {
			values.add(response.get());
		}
		return values;
	}

	@Override
	public void setAll(Map<K, V> entries, @Nullable Duration ttl) {
		Assert.notNull(entries, "entries must not be null");
		entries.forEach((key, value) -> {
			Assert.notNull(key, "entries must not contain a null key");
			Assert.notNull(value, "entries must not contain a null value");
		});
		Assert.isTrue(ttl == null || ttl.toMillis() >= 1, () -> "ttl must be at least 1 ms but was " + ttl);
		if (entries.isEmpty()) {
			return;
		}
		execute((batch) -> entries.forEach(
				(ttl != null) ? (key, value) -> batch.set(key, value, ttl) : (key, value) -> batch.set(key, value)));
	}

	/**
	 * Scan the keys of every master with {@code SCAN}: on a Redis Cluster every master in
	 * turn (never a replica), otherwise the one server. The scan is pulled a page at a
	 * time from the returned scanner; each page is one {@code SCAN} call on a pooled
	 * batch connection, with the template's default timeout, so memory is bounded by one
	 * page. Keys are deserialized with the template's key serializer.
	 * <p>
	 * {@code SCAN} returns every key present for the whole scan at least once, and may
	 * return a key more than once: consumers must tolerate duplicates (see
	 * {@link ScanCursor}).
	 * @param options {@code MATCH}, {@code COUNT} and {@code TYPE} (use
	 * {@code ScanOptions.scanOptions().match("order:*").count(500).type(DataType.STRING).build()},
	 * or {@link ScanOptions#NONE})
	 * @param from where to resume, from {@link KeyScanner#cursor()} or
	 * {@link ScanCursor#fromToken(String)}; {@code null} to start from the beginning
	 * @return the scanner; no I/O happens until its first {@link KeyScanner#next()}
	 * @throws IllegalArgumentException for invalid options (such as a {@code COUNT} below
	 * 1), before any I/O
	 */
	public KeyScanner<K> scanKeys(ScanOptions options, @Nullable ScanCursor from) {
		Assert.notNull(options, "options must not be null");
		return new MasterKeyScanner<>(this.pool, this.serializers.key(), options, this.defaultSettings.timeout(), from);
	}

	@Override
	public BulkOperations scan(ScanOptions options) {
		Assert.notNull(options, "options must not be null");
		MasterKeyScanner.scanArgs(options);
		return new ScanBulk(this.pool, this.observations, this::resolve, options, null, BatchOptions.defaults());
	}

	/**
	 * The settings of a batch with these options, the template's defaults filling what
	 * they leave unset.
	 */
	private RunSettings resolve(BatchOptions options) {
		return (options == BatchOptions.defaults()) ? this.defaultSettings : options.resolve(this.defaults);
	}

	/**
	 * Builds a {@link BatchTemplate}.
	 *
	 * @param <K> the key type
	 * @param <V> the value type
	 */
	public static final class Builder<K, V> {

		private final BatchConnectionPool pool;

		private @Nullable RedisSerializer<K> keySerializer;

		private @Nullable RedisSerializer<V> valueSerializer;

		private @Nullable RedisSerializer<?> hashKeySerializer;

		private @Nullable RedisSerializer<?> hashValueSerializer;

		private BatchOptions defaults = BatchOptions.defaults();

		private Builder(BatchConnectionPool pool) {
			this.pool = pool;
		}

		/**
		 * The key serializer.
		 * @param serializer the serializer
		 * @return this builder
		 */
		public Builder<K, V> keySerializer(RedisSerializer<K> serializer) {
			this.keySerializer = serializer;
			return this;
		}

		/**
		 * The value serializer, also used for set members, list elements and script
		 * arguments.
		 * @param serializer the serializer
		 * @return this builder
		 */
		public Builder<K, V> valueSerializer(RedisSerializer<V> serializer) {
			this.valueSerializer = serializer;
			return this;
		}

		/**
		 * The hash field serializer (the key serializer when not set).
		 * @param serializer the serializer
		 * @return this builder
		 */
		public Builder<K, V> hashKeySerializer(RedisSerializer<?> serializer) {
			this.hashKeySerializer = serializer;
			return this;
		}

		/**
		 * The hash value serializer (the value serializer when not set).
		 * @param serializer the serializer
		 * @return this builder
		 */
		public Builder<K, V> hashValueSerializer(RedisSerializer<?> serializer) {
			this.hashValueSerializer = serializer;
			return this;
		}

		/**
		 * Use the serializers of a {@link RedisTemplate}, so both read and write the same
		 * data. Serializers the template leaves unset fall back to its default
		 * serializer.
		 * @param template the template
		 * @return this builder
		 */
		@SuppressWarnings("unchecked")
		public Builder<K, V> serializersFrom(RedisTemplate<K, V> template) {
			Assert.notNull(template, "template must not be null");
			RedisSerializer<?> fallback = (template.getDefaultSerializer() != null) ? template.getDefaultSerializer()
					: RedisSerializer.java();
			this.keySerializer = (RedisSerializer<K>) orElse(template.getKeySerializer(), fallback);
			this.valueSerializer = (RedisSerializer<V>) orElse(template.getValueSerializer(), fallback);
			this.hashKeySerializer = orElse(template.getHashKeySerializer(), fallback);
			this.hashValueSerializer = orElse(template.getHashValueSerializer(), fallback);
			return this;
		}

		/**
		 * The options used for values a batch does not set. Values left unset here take
		 * the built-in defaults.
		 * @param defaults the defaults
		 * @return this builder
		 */
		public Builder<K, V> defaults(BatchOptions defaults) {
			Assert.notNull(defaults, "defaults must not be null");
			this.defaults = defaults;
			return this;
		}

		/**
		 * Build the template.
		 * @return the template
		 */
		public BatchTemplate<K, V> build() {
			return new BatchTemplate<>(this);
		}

		private static RedisSerializer<?> orElse(@Nullable RedisSerializer<?> serializer, RedisSerializer<?> fallback) {
			return (serializer != null) ? serializer : fallback;
		}

	}

}
