package dev.redisbatch;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * How one batch runs: chunk size, the in-flight window, per-chunk timeout, transactional
 * mode, retry, the rate cap (polite mode) and the name it is reported under. Any value
 * left unset is taken from the template's defaults, which come from the
 * {@code redis.batch.*} properties.
 * <p>
 * Instances are immutable. Invalid values are rejected by the builder, before any I/O.
 *
 * <pre class="code">
 * BatchOptions options = BatchOptions.builder().chunkSize(500).maxInFlightBytes(16 * 1024 * 1024).name("import").build();
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
	 * The largest number of commands in flight accepted.
	 */
	public static final int MAX_IN_FLIGHT_COMMANDS = 10_000_000;

	/**
	 * The name a batch is reported under when none is set.
	 */
	public static final String DEFAULT_NAME = "default";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

	/**
	 * The smallest byte budget per chunk accepted.
	 */
	public static final long MIN_CHUNK_BYTES = 1024;

	private static final int MAX_BATCH_ID_LENGTH = 200;

	private static final Duration MAX_WINDOW = Duration.ofDays(30);

	/**
	 * The most retry attempts accepted.
	 */
	public static final int MAX_RETRY_ATTEMPTS = 10;

	/**
	 * The rate cap that means no cap.
	 */
	public static final long NO_RATE_CAP = 0;

	private static final String BUCKET4J = "io.github.bucket4j.Bucket";

	/**
	 * Whether Bucket4j, which the rate caps need, is on the classpath: looked up once.
	 */
	private static final boolean BUCKET4J_PRESENT = ClassUtils.isPresent(BUCKET4J, BatchOptions.class.getClassLoader());

	private static final BatchOptions DEFAULTS = new BatchOptions(new Builder());

	private final @Nullable Integer chunkSize;

	private final @Nullable Duration timeout;

	private final @Nullable Boolean transactional;

	private final @Nullable String name;

	private final @Nullable Long maxChunkBytes;

	private final @Nullable Long maxInFlightBytes;

	private final @Nullable Integer maxInFlightCommands;

	private final @Nullable Integer retryAttempts;

	private final @Nullable Duration retryBackoff;

	private final @Nullable Long maxCommandsPerSecond;

	private final @Nullable Long maxBytesPerSecond;

	private final @Nullable Boolean exactlyOnce;

	private final @Nullable String exactlyOnceId;

	private final @Nullable Duration exactlyOnceWindow;

	private BatchOptions(Builder builder) {
		this.chunkSize = builder.chunkSize;
		this.timeout = builder.timeout;
		this.transactional = builder.transactional;
		this.name = builder.name;
		this.maxChunkBytes = builder.maxChunkBytes;
		this.maxInFlightBytes = builder.maxInFlightBytes;
		this.maxInFlightCommands = builder.maxInFlightCommands;
		this.retryAttempts = builder.retryAttempts;
		this.retryBackoff = builder.retryBackoff;
		this.maxCommandsPerSecond = builder.maxCommandsPerSecond;
		this.maxBytesPerSecond = builder.maxBytesPerSecond;
		this.exactlyOnce = builder.exactlyOnce;
		this.exactlyOnceId = builder.exactlyOnceId;
		this.exactlyOnceWindow = builder.exactlyOnceWindow;
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
		builder.timeout = this.timeout;
		builder.transactional = this.transactional;
		builder.name = this.name;
		builder.maxChunkBytes = this.maxChunkBytes;
		builder.maxInFlightBytes = this.maxInFlightBytes;
		builder.maxInFlightCommands = this.maxInFlightCommands;
		builder.retryAttempts = this.retryAttempts;
		builder.retryBackoff = this.retryBackoff;
		builder.maxCommandsPerSecond = this.maxCommandsPerSecond;
		builder.maxBytesPerSecond = this.maxBytesPerSecond;
		builder.exactlyOnce = this.exactlyOnce;
		builder.exactlyOnceId = this.exactlyOnceId;
		builder.exactlyOnceWindow = this.exactlyOnceWindow;
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
	 * The most request bytes of the batch in flight to one server (written, not yet
	 * answered), or {@code null} for the default.
	 * @return the byte window
	 */
	public @Nullable Long maxInFlightBytes() {
		return this.maxInFlightBytes;
	}

	/**
	 * The most commands of the batch in flight to one server, or {@code null} for the
	 * default.
	 * @return the command window
	 */
	public @Nullable Integer maxInFlightCommands() {
		return this.maxInFlightCommands;
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
	 * The most commands per second the batch writes, {@link #NO_RATE_CAP 0} for no cap,
	 * or {@code null} for the default.
	 * @return the command rate cap
	 */
	public @Nullable Long maxCommandsPerSecond() {
		return this.maxCommandsPerSecond;
	}

	/**
	 * The most request bytes per second the batch writes, {@link #NO_RATE_CAP 0} for no
	 * cap, or {@code null} for the default.
	 * @return the byte rate cap
	 */
	public @Nullable Long maxBytesPerSecond() {
		return this.maxBytesPerSecond;
	}

	/**
	 * Whether each chunk runs exactly once, or {@code null} for the default (the
	 * template's, which is at-most-once unless it was built otherwise).
	 * @return whether the batch is exactly-once
	 */
	public @Nullable Boolean exactlyOnce() {
		return this.exactlyOnce;
	}

	/**
	 * The id that names an exactly-once batch's markers across runs, or {@code null}
	 * ({@link Builder#exactlyOnce(String, Duration)}).
	 * @return the batch's id
	 */
	public @Nullable String exactlyOnceId() {
		return this.exactlyOnceId;
	}

	/**
	 * How long the markers of a batch with an {@link #exactlyOnceId()} are kept, or
	 * {@code null}.
	 * @return the window in which the same batch run again finds what ran
	 */
	public @Nullable Duration exactlyOnceWindow() {
		return this.exactlyOnceWindow;
	}

	/**
	 * Fill the values these options leave unset from the given fully-set options.
	 * @param defaults options with every value set
	 * @return options with every value set
	 */
	BatchOptions withDefaults(BatchOptions defaults) {
		Builder merged = new Builder();
		merged.chunkSize = pick(this.chunkSize, defaults.chunkSize);
		merged.timeout = pick(this.timeout, defaults.timeout);
		merged.transactional = pick(this.transactional, defaults.transactional);
		merged.name = pick(this.name, defaults.name);
		merged.maxChunkBytes = pick(this.maxChunkBytes, defaults.maxChunkBytes);
		merged.maxInFlightBytes = pick(this.maxInFlightBytes, defaults.maxInFlightBytes);
		merged.maxInFlightCommands = pick(this.maxInFlightCommands, defaults.maxInFlightCommands);
		merged.retryAttempts = (this.retryAttempts != null) ? this.retryAttempts : defaults.retryAttempts;
		merged.retryBackoff = (this.retryAttempts != null) ? this.retryBackoff : defaults.retryBackoff;
		merged.maxCommandsPerSecond = pick(this.maxCommandsPerSecond, defaults.maxCommandsPerSecond);
		merged.maxBytesPerSecond = pick(this.maxBytesPerSecond, defaults.maxBytesPerSecond);
		merged.exactlyOnce = pick(this.exactlyOnce, defaults.exactlyOnce);
		// an id names one batch: it is never a default
		if (Boolean.TRUE.equals(merged.exactlyOnce)) {
			merged.exactlyOnceId = this.exactlyOnceId;
			merged.exactlyOnceWindow = this.exactlyOnceWindow;
		}
		return new BatchOptions(merged);
	}

	/**
	 * Resolve these options against a template's defaults, in one call: every value these
	 * options leave unset comes from the defaults, the whole is checked, and the result
	 * is the settings one batch runs with. Callers never look at the fields one by one:
	 * an option is added here and in {@link RunSettings} only.
	 * @param defaults options with every value set (a template's defaults)
	 * @return the settings of one batch, every value set and valid
	 * @throws IllegalStateException when the defaults leave a value unset
	 */
	RunSettings resolve(BatchOptions defaults) {
		return withDefaults(defaults).toSettings();
	}

	/**
	 * Check that every value is set, as a template's defaults must be.
	 * @return these options
	 * @throws IllegalStateException naming the first value that is unset
	 * @throws IllegalArgumentException when they carry an exactly-once id, which names
	 * one batch
	 */
	BatchOptions requireComplete() {
		toSettings();
		if (this.exactlyOnceId != null) {
			throw new IllegalArgumentException(Messages.exactlyOnceIdAsDefault());
		}
		return this;
	}

	/**
	 * The settings of these complete options. Each value was checked by its builder
	 * setter when it was set; what is left to check is that none is missing.
	 */
	private RunSettings toSettings() {
		// unset means at-most-once: defaults made before the mode existed stay complete
		boolean once = Boolean.TRUE.equals(this.exactlyOnce);
		if (once && Boolean.TRUE.equals(this.transactional)) {
			throw new IllegalArgumentException(Messages.exactlyOnceTransactional());
		}
		return new RunSettings(this, require(this.name, "name"), require(this.chunkSize, "chunkSize"),
				require(this.maxInFlightBytes, "maxInFlightBytes"),
				require(this.maxInFlightCommands, "maxInFlightCommands"), require(this.timeout, "timeout"),
				require(this.transactional, "transactional"), require(this.maxChunkBytes, "maxChunkBytes"),
				require(this.retryAttempts, "retryAttempts"), require(this.retryBackoff, "retryBackoff"),
				require(this.maxCommandsPerSecond, "maxCommandsPerSecond"),
				require(this.maxBytesPerSecond, "maxBytesPerSecond"), once);
	}

	private static <T> T require(@Nullable T value, String what) {
		if (value == null) {
			throw new IllegalStateException("The default options leave " + what + " unset: a template's defaults "
					+ "must set every value (start from the template's getDefaultOptions())");
		}
		return value;
	}

	private static <T> @Nullable T pick(@Nullable T value, @Nullable T fallback) {
		return (value != null) ? value : fallback;
	}

	private List<@Nullable Object> values() {
		return Arrays.asList(this.chunkSize, this.timeout, this.transactional, this.name, this.maxChunkBytes,
				this.maxInFlightBytes, this.maxInFlightCommands, this.retryAttempts, this.retryBackoff,
				this.maxCommandsPerSecond, this.maxBytesPerSecond, this.exactlyOnce, this.exactlyOnceId,
				this.exactlyOnceWindow);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof BatchOptions that && values().equals(that.values()));
	}

	@Override
	public int hashCode() {
		return values().hashCode();
	}

	@Override
	public String toString() {
		return "BatchOptions[chunkSize=" + this.chunkSize + ", timeout=" + this.timeout + ", transactional="
				+ this.transactional + ", name=" + this.name + ", maxChunkBytes=" + this.maxChunkBytes
				+ ", maxInFlightBytes=" + this.maxInFlightBytes + ", maxInFlightCommands=" + this.maxInFlightCommands
				+ ", retryAttempts=" + this.retryAttempts + ", retryBackoff=" + this.retryBackoff
				+ ", maxCommandsPerSecond=" + this.maxCommandsPerSecond + ", maxBytesPerSecond="
				+ this.maxBytesPerSecond + ", exactlyOnce=" + this.exactlyOnce
				+ ((this.exactlyOnceId != null)
						? ", exactlyOnceId=" + this.exactlyOnceId + ", exactlyOnceWindow=" + this.exactlyOnceWindow
						: "")
				+ "]";
	}

	private static void checkBytes(long bytes, String what) {
		Assert.isTrue(bytes >= MIN_CHUNK_BYTES,
				() -> what + " must be at least " + MIN_CHUNK_BYTES + " bytes but was " + bytes);
	}

	/**
	 * Check a rate cap: {@code 0} (no cap) or positive, and a cap only with Bucket4j on
	 * the classpath.
	 */
	private static void checkRateCap(long perSecond, String what) {
		Assert.isTrue(perSecond >= 0, () -> what + " must be 0 (no cap) or positive but was " + perSecond);
		if (perSecond > 0 && !BUCKET4J_PRESENT) {
			throw new IllegalStateException(Messages.rateCapNeedsBucket4j(what));
		}
	}

	/**
	 * Builds {@link BatchOptions}. Each setter checks its value at once.
	 */
	public static final class Builder {

		private @Nullable Integer chunkSize;

		private @Nullable Duration timeout;

		private @Nullable Boolean transactional;

		private @Nullable String name;

		private @Nullable Long maxChunkBytes;

		private @Nullable Long maxInFlightBytes;

		private @Nullable Integer maxInFlightCommands;

		private @Nullable Integer retryAttempts;

		private @Nullable Duration retryBackoff;

		private @Nullable Long maxCommandsPerSecond;

		private @Nullable Long maxBytesPerSecond;

		private @Nullable Boolean exactlyOnce;

		private @Nullable String exactlyOnceId;

		private @Nullable Duration exactlyOnceWindow;

		private Builder() {
		}

		/**
		 * The most commands per chunk. A batch's first chunk to a server goes out at 8 KB
		 * of requests and each next one may take twice as many bytes, up to this size and
		 * {@link #maxChunkBytes(long)} (a transaction's chunks are whole).
		 * @param chunkSize from 1 to {@value BatchOptions#MAX_CHUNK_SIZE}
		 * @return this builder
		 */
		public Builder chunkSize(int chunkSize) {
			Assert.isTrue(chunkSize >= 1 && chunkSize <= MAX_CHUNK_SIZE,
					() -> "chunkSize must be between 1 and " + MAX_CHUNK_SIZE + " but was " + chunkSize);
			this.chunkSize = chunkSize;
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
			Assert.isTrue(!timeout.isNegative() && !timeout.isZero(),
					() -> "timeout must be positive but was " + timeout);
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
			Assert.isTrue(NAME.matcher(name).matches(),
					() -> "name must be 1 to 64 characters of letters, digits, '.', '_' or '-' (it is a metrics tag) but was '"
							+ name + "'");
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
			checkBytes(maxChunkBytes, "maxChunkBytes");
			this.maxChunkBytes = maxChunkBytes;
			return this;
		}

		/**
		 * Recover from lost connections, up to {@code attempts} times: after a backoff,
		 * send again on a fresh connection the commands that were not sent, the commands
		 * marked {@link Batch#idempotent() idempotent} whose outcome is unknown, and
		 * those a server refused for now without running them ({@code LOADING},
		 * {@code BUSY}, {@code TRYAGAIN}); then carry on with the rest of the batch.
		 * Commands that Redis refused otherwise ({@link Outcome#FAILED}) are never sent
		 * again, nor unknown commands that are not marked idempotent (they may have run).
		 * Applies to commands recorded through {@link Batch}; commands that
		 * {@code RedisTemplate} code issues in a {@code @RedisBatch} method are not
		 * retried.
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
		 * The window, in bytes: the most request bytes of the batch in flight to one
		 * server, written but not yet answered. Chunks are written while they fit in the
		 * window (so a batch smaller than the window goes out in one flight); then
		 * recording waits for the oldest chunk's replies. At least one chunk is always in
		 * flight. It bounds memory and the server's output buffer for the batch, whatever
		 * its size; size it to the bandwidth-delay product of the path (see
		 * docs/configuration.md).
		 * @param maxInFlightBytes at least {@value BatchOptions#MIN_CHUNK_BYTES}
		 * @return this builder
		 */
		public Builder maxInFlightBytes(long maxInFlightBytes) {
			checkBytes(maxInFlightBytes, "maxInFlightBytes");
			this.maxInFlightBytes = maxInFlightBytes;
			return this;
		}

		/**
		 * The window, in commands: the most commands of the batch in flight to one
		 * server. It bounds the objects in flight when commands are tiny (each keeps its
		 * reply until its chunk is settled).
		 * @param maxInFlightCommands from 1 to
		 * {@value BatchOptions#MAX_IN_FLIGHT_COMMANDS}
		 * @return this builder
		 */
		public Builder maxInFlightCommands(int maxInFlightCommands) {
			Assert.isTrue(maxInFlightCommands >= 1 && maxInFlightCommands <= MAX_IN_FLIGHT_COMMANDS,
					() -> "maxInFlightCommands must be between 1 and " + MAX_IN_FLIGHT_COMMANDS + " but was "
							+ maxInFlightCommands);
			this.maxInFlightCommands = maxInFlightCommands;
			return this;
		}

		/**
		 * Polite mode: the most commands per second this batch writes, across all its
		 * servers. Before each chunk is written, the batch waits until the cap allows it,
		 * so a long backfill leaves the server room for other clients. The waiting is not
		 * part of any chunk's deadline, honours interrupts, and is reported as the
		 * observation's throttle wait. Needs Bucket4j
		 * ({@code com.bucket4j:bucket4j_jdk17-core}, which the starter brings).
		 * @param maxCommandsPerSecond {@value BatchOptions#NO_RATE_CAP} for no cap, or
		 * positive
		 * @return this builder
		 * @throws IllegalStateException for a cap when Bucket4j is not on the classpath
		 */
		public Builder maxCommandsPerSecond(long maxCommandsPerSecond) {
			checkRateCap(maxCommandsPerSecond, "maxCommandsPerSecond");
			this.maxCommandsPerSecond = maxCommandsPerSecond;
			return this;
		}

		/**
		 * Polite mode: the most request bytes (the commands as written on the wire) per
		 * second this batch writes, across all its servers; see
		 * {@link #maxCommandsPerSecond(long)}. A chunk larger than a second's worth waits
		 * for as long as its bytes take at this rate.
		 * @param maxBytesPerSecond {@value BatchOptions#NO_RATE_CAP} for no cap, or
		 * positive
		 * @return this builder
		 * @throws IllegalStateException for a cap when Bucket4j is not on the classpath
		 */
		public Builder maxBytesPerSecond(long maxBytesPerSecond) {
			checkRateCap(maxBytesPerSecond, "maxBytesPerSecond");
			this.maxBytesPerSecond = maxBytesPerSecond;
			return this;
		}

		/**
		 * Whether each chunk runs exactly once: atomically, as one Lua script that keeps
		 * its commands' replies under a marker key. A chunk whose connection is lost
		 * before its reply came is sent again, with the same marker, on a new connection:
		 * if it ran, its commands' own replies come back; if not, it runs now. So no
		 * command is left {@link Outcome#UNKNOWN} while its server can be reached, and
		 * none runs twice. It runs on standalone servers, Sentinel-managed servers and
		 * Redis Cluster (where each chunk holds the commands of one hash slot), and
		 * cannot be combined with {@link #transactional(boolean)} (the script is atomic
		 * already). Commands a script cannot run are refused when they are recorded.
		 * @param exactlyOnce whether the batch is exactly-once
		 * @return this builder
		 */
		public Builder exactlyOnce(boolean exactlyOnce) {
			this.exactlyOnce = exactlyOnce;
			this.exactlyOnceId = null;
			this.exactlyOnceWindow = null;
			return this;
		}

		/**
		 * Exactly once across runs: {@link #exactlyOnce(boolean) exactly-once}, with
		 * markers named after {@code batchId} (and each chunk's place in the batch and a
		 * digest of its bytes) and kept for {@code window} instead of being removed once
		 * answered. The same batch run again with the same id within the window (after
		 * the application restarted, say) finds the chunks that ran: their commands take
		 * the replies that were kept, and nothing runs twice; the chunks that did not
		 * run, run. It is the same batch when it records the same commands in the same
		 * order, with the same options, against the same servers: a chunk whose bytes
		 * differ has another marker, and runs. An id names one batch: two batches that
		 * share one could take each other's replies.
		 * @param batchId the batch's id: 1 to 200 characters, without {@code {} or {@code
		 * }}
		 * @param window how long the markers are kept: at least one second, at most 30
		 * days
		 * @return this builder
		 */
		public Builder exactlyOnce(String batchId, Duration window) {
			Assert.notNull(batchId, "batchId must not be null");
			Assert.notNull(window, "window must not be null");
			Assert.isTrue(!batchId.isEmpty() && batchId.length() <= MAX_BATCH_ID_LENGTH,
					() -> "batchId must have 1 to " + MAX_BATCH_ID_LENGTH + " characters but has " + batchId.length());
			Assert.isTrue(batchId.indexOf('{') < 0 && batchId.indexOf('}') < 0,
					"batchId must not contain '{' or '}' (they would choose the markers' cluster hash slot)");
			Assert.isTrue(window.compareTo(Duration.ofSeconds(1)) >= 0 && window.compareTo(MAX_WINDOW) <= 0,
					() -> "window must be from 1 second to 30 days but was " + window);
			this.exactlyOnce = true;
			this.exactlyOnceId = batchId;
			this.exactlyOnceWindow = window;
			return this;
		}

		/**
		 * Build the options.
		 * @return the options
		 */
		public BatchOptions build() {
			return new BatchOptions(this);
		}

	}

}
