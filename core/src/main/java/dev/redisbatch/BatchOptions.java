package dev.redisbatch;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * How one batch runs: chunk size, parallelism, per-chunk timeout, transactional mode and
 * the name it is reported under. Any value left unset is taken from the template's
 * defaults, which come from the {@code redis.batch.*} properties.
 * <p>
 * Instances are immutable. Invalid values are rejected by the builder, before any I/O.
 *
 * <pre class="code">
 * BatchOptions options = BatchOptions.builder().chunkSize(500).parallelism(2).name("import").build();
 * </pre>
 *
 * @since 0.1.0
 */
public final class BatchOptions {

	/**
	 * The largest chunk size accepted. Larger chunks only add memory and latency: the
	 * benefit of pipelining levels off long before (see docs/performance.md).
	 */
	public static final int MAX_CHUNK_SIZE = 1_000_000;

	/**
	 * The largest parallelism accepted.
	 */
	public static final int MAX_PARALLELISM = 64;

	/**
	 * The name a batch is reported under when none is set.
	 */
	public static final String DEFAULT_NAME = "default";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

	/**
	 * The smallest byte budget per chunk accepted.
	 */
	public static final long MIN_CHUNK_BYTES = 1024;

	/**
	 * The most retry attempts accepted.
	 */
	public static final int MAX_RETRY_ATTEMPTS = 10;

	private static final BatchOptions DEFAULTS = new BatchOptions(null, null, null, null, null, null, null, null);

	private final @Nullable Integer chunkSize;

	private final @Nullable Integer parallelism;

	private final @Nullable Duration timeout;

	private final @Nullable Boolean transactional;

	private final @Nullable String name;

	private final @Nullable Long maxChunkBytes;

	private final @Nullable Integer retryAttempts;

	private final @Nullable Duration retryBackoff;

	private BatchOptions(@Nullable Integer chunkSize, @Nullable Integer parallelism, @Nullable Duration timeout,
			@Nullable Boolean transactional, @Nullable String name, @Nullable Long maxChunkBytes,
			@Nullable Integer retryAttempts, @Nullable Duration retryBackoff) {
		this.chunkSize = chunkSize;
		this.parallelism = parallelism;
		this.timeout = timeout;
		this.transactional = transactional;
		this.name = name;
		this.maxChunkBytes = maxChunkBytes;
		this.retryAttempts = retryAttempts;
		this.retryBackoff = retryBackoff;
	}

	/**
	 * Options that set nothing: every value comes from the template's defaults (the
	 * {@code redis.batch.*} properties).
	 * @return the default options
	 */
	public static BatchOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * A builder for options.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * A builder that starts from these options.
	 * @return a new builder
	 */
	public Builder mutate() {
		Builder builder = new Builder();
		builder.chunkSize = this.chunkSize;
		builder.parallelism = this.parallelism;
		builder.timeout = this.timeout;
		builder.transactional = this.transactional;
		builder.name = this.name;
		builder.maxChunkBytes = this.maxChunkBytes;
		builder.retryAttempts = this.retryAttempts;
		builder.retryBackoff = this.retryBackoff;
		return builder;
	}

	/**
	 * The number of commands per chunk, or {@code null} for the default.
	 * @return the chunk size
	 */
	public @Nullable Integer chunkSize() {
		return this.chunkSize;
	}

	/**
	 * How many chunks may be in flight at once (pipelined on the batch's connection to
	 * each server), or {@code null} for the default.
	 * @return the parallelism
	 */
	public @Nullable Integer parallelism() {
		return this.parallelism;
	}

	/**
	 * How long one chunk may take from being sent until its last reply, or {@code null}
	 * for the default.
	 * @return the per-chunk timeout
	 */
	public @Nullable Duration timeout() {
		return this.timeout;
	}

	/**
	 * Whether each chunk is wrapped in MULTI/EXEC, or {@code null} for the default.
	 * @return whether chunks are transactions
	 */
	public @Nullable Boolean transactional() {
		return this.transactional;
	}

	/**
	 * The name the batch is reported under in metrics and results, or {@code null} for
	 * the default.
	 * @return the name
	 */
	public @Nullable String name() {
		return this.name;
	}

	/**
	 * The most request bytes (keys, values, arguments) a chunk holds before it is sent,
	 * or {@code null} for the default.
	 * @return the byte budget per chunk
	 */
	public @Nullable Long maxChunkBytes() {
		return this.maxChunkBytes;
	}

	/**
	 * How many more times commands that were not sent (and unknown ones marked
	 * idempotent) are sent again, {@code 0} for never; or {@code null} for the default
	 * (the template's, which is never unless it was built with a retry).
	 * @return the retry attempts
	 */
	public @Nullable Integer retryAttempts() {
		return this.retryAttempts;
	}

	/**
	 * How long to wait before each retry attempt, or {@code null} for the default.
	 * @return the backoff
	 */
	public @Nullable Duration retryBackoff() {
		return this.retryBackoff;
	}

	/**
	 * Fill the values these options leave unset from the given fully-set options.
	 * @param defaults options with every value set
	 * @return options with every value set
	 */
	BatchOptions withDefaults(BatchOptions defaults) {
		return new BatchOptions(pick(this.chunkSize, defaults.chunkSize), pick(this.parallelism, defaults.parallelism),
				pick(this.timeout, defaults.timeout), pick(this.transactional, defaults.transactional),
				pick(this.name, defaults.name), pick(this.maxChunkBytes, defaults.maxChunkBytes),
				(this.retryAttempts != null) ? this.retryAttempts : defaults.retryAttempts,
				(this.retryAttempts != null) ? this.retryBackoff : defaults.retryBackoff);
	}

	boolean isComplete() {
		return this.chunkSize != null && this.parallelism != null && this.timeout != null && this.transactional != null
				&& this.name != null;
	}

	private static <T> @Nullable T pick(@Nullable T value, @Nullable T fallback) {
		return (value != null) ? value : fallback;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (!(other instanceof BatchOptions that)) {
			return false;
		}
		return Objects.equals(this.chunkSize, that.chunkSize) && Objects.equals(this.parallelism, that.parallelism)
				&& Objects.equals(this.timeout, that.timeout) && Objects.equals(this.transactional, that.transactional)
				&& Objects.equals(this.name, that.name) && Objects.equals(this.maxChunkBytes, that.maxChunkBytes)
				&& Objects.equals(this.retryAttempts, that.retryAttempts)
				&& Objects.equals(this.retryBackoff, that.retryBackoff);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.chunkSize, this.parallelism, this.timeout, this.transactional, this.name,
				this.maxChunkBytes, this.retryAttempts, this.retryBackoff);
	}

	@Override
	public String toString() {
		return "BatchOptions[chunkSize=" + this.chunkSize + ", parallelism=" + this.parallelism + ", timeout="
				+ this.timeout + ", transactional=" + this.transactional + ", name=" + this.name + ", maxChunkBytes="
				+ this.maxChunkBytes + ", retryAttempts=" + this.retryAttempts + ", retryBackoff=" + this.retryBackoff
				+ "]";
	}

	/**
	 * Check a chunk size.
	 * @param chunkSize the chunk size
	 * @param source what the value came from, for the message
	 */
	static void validateChunkSize(int chunkSize, String source) {
		Assert.isTrue(chunkSize >= 1 && chunkSize <= MAX_CHUNK_SIZE,
				() -> source + " must be between 1 and " + MAX_CHUNK_SIZE + " but was " + chunkSize);
	}

	static void validateParallelism(int parallelism, String source) {
		Assert.isTrue(parallelism >= 1 && parallelism <= MAX_PARALLELISM,
				() -> source + " must be between 1 and " + MAX_PARALLELISM + " but was " + parallelism);
	}

	static void validateTimeout(Duration timeout, String source) {
		Assert.isTrue(!timeout.isNegative() && !timeout.isZero(),
				() -> source + " must be positive but was " + timeout);
	}

	static void validateMaxChunkBytes(long maxChunkBytes, String source) {
		Assert.isTrue(maxChunkBytes >= MIN_CHUNK_BYTES,
				() -> source + " must be at least " + MIN_CHUNK_BYTES + " bytes but was " + maxChunkBytes);
	}

	static void validateName(String name, String source) {
		Assert.isTrue(NAME.matcher(name).matches(), () -> source
				+ " must be 1 to 64 characters of letters, digits, '.', '_' or '-' (it is a metrics tag) but was '"
				+ name + "'");
	}

	/**
	 * Builds {@link BatchOptions}. Each setter checks its value at once.
	 */
	public static final class Builder {

		private @Nullable Integer chunkSize;

		private @Nullable Integer parallelism;

		private @Nullable Duration timeout;

		private @Nullable Boolean transactional;

		private @Nullable String name;

		private @Nullable Long maxChunkBytes;

		private @Nullable Integer retryAttempts;

		private @Nullable Duration retryBackoff;

		private Builder() {
		}

		/**
		 * The number of commands per chunk: a chunk is sent as soon as it fills.
		 * @param chunkSize from 1 to {@value BatchOptions#MAX_CHUNK_SIZE}
		 * @return this builder
		 */
		public Builder chunkSize(int chunkSize) {
			validateChunkSize(chunkSize, "chunkSize");
			this.chunkSize = chunkSize;
			return this;
		}

		/**
		 * How many chunks may be in flight at once, pipelined on the batch's connection
		 * to each server (so commands still run in the order they were recorded).
		 * @param parallelism from 1 to {@value BatchOptions#MAX_PARALLELISM}
		 * @return this builder
		 */
		public Builder parallelism(int parallelism) {
			validateParallelism(parallelism, "parallelism");
			this.parallelism = parallelism;
			return this;
		}

		/**
		 * How long each chunk may take from being sent until its last reply. Commands
		 * answered in time keep their results; the rest of that chunk is
		 * {@link Outcome#UNKNOWN}.
		 * @param timeout a positive duration
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			Assert.notNull(timeout, "timeout must not be null");
			validateTimeout(timeout, "timeout");
			this.timeout = timeout;
			return this;
		}

		/**
		 * Whether to wrap each chunk in MULTI/EXEC, so that a chunk is applied as a whole
		 * or not at all.
		 * @param transactional whether chunks are transactions
		 * @return this builder
		 */
		public Builder transactional(boolean transactional) {
			this.transactional = transactional;
			return this;
		}

		/**
		 * The name the batch is reported under (a metrics tag, so a fixed value, never
		 * data).
		 * @param name letters, digits, '.', '_' or '-', at most 64 characters
		 * @return this builder
		 */
		public Builder name(String name) {
			Assert.notNull(name, "name must not be null");
			validateName(name, "name");
			this.name = name;
			return this;
		}

		/**
		 * The most request bytes (serialized keys, values and arguments) a chunk holds: a
		 * chunk is sent when the next command would take it over this budget, even before
		 * it has {@code chunkSize} commands. It bounds memory and the size of each write
		 * when values are large. A single command larger than the budget goes alone.
		 * @param maxChunkBytes at least {@value BatchOptions#MIN_CHUNK_BYTES}
		 * @return this builder
		 */
		public Builder maxChunkBytes(long maxChunkBytes) {
			validateMaxChunkBytes(maxChunkBytes, "maxChunkBytes");
			this.maxChunkBytes = maxChunkBytes;
			return this;
		}

		/**
		 * Send again, up to {@code attempts} more times after a backoff, the commands
		 * that were not sent, and the commands marked {@link Batch#idempotent()
		 * idempotent} whose outcome is unknown. Commands that Redis refused
		 * ({@link Outcome#FAILED}) are never sent again, nor unknown commands that are
		 * not marked idempotent (they may have run). Applies to commands recorded through
		 * {@link Batch}; commands that {@code RedisTemplate} code issues in a
		 * {@code @RedisBatch} method are not retried.
		 * @param attempts from 0 (off, the built-in default) to
		 * {@value BatchOptions#MAX_RETRY_ATTEMPTS}
		 * @param backoff how long to wait before each attempt, not negative
		 * @return this builder
		 */
		public Builder retry(int attempts, Duration backoff) {
			Assert.isTrue(attempts >= 0 && attempts <= MAX_RETRY_ATTEMPTS,
					() -> "retry attempts must be between 0 and " + MAX_RETRY_ATTEMPTS + " but was " + attempts);
			Assert.isTrue(backoff != null && !backoff.isNegative(), "retry backoff must not be negative");
			this.retryAttempts = attempts;
			this.retryBackoff = backoff;
			return this;
		}

		/**
		 * Build the options.
		 * @return the options
		 */
		public BatchOptions build() {
			return new BatchOptions(this.chunkSize, this.parallelism, this.timeout, this.transactional, this.name,
					this.maxChunkBytes, this.retryAttempts, this.retryBackoff);
		}

	}

}
