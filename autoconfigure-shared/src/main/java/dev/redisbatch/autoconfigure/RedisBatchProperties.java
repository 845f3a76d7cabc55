package dev.redisbatch.autoconfigure;

import java.time.Duration;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for redis-batch. Connection settings (host, port, URL,
 * password, ACL user, TLS, sentinel, cluster) come from {@code spring.data.redis.*}.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("redis.batch")
public class RedisBatchProperties {

	/**
	 * Whether to enable redis-batch.
	 */
	private boolean enabled = true;

	/**
	 * Number of commands per chunk, from 1 to 1000000. A chunk is sent as soon as it
	 * fills.
	 */
	private int chunkSize = BatchTemplate.DEFAULT_CHUNK_SIZE;

	/**
	 * Window of one batch to one server, in bytes: the most request bytes written but not
	 * yet answered. At least 1KB. Chunks go out while they fit; a batch smaller than the
	 * window goes out in one flight.
	 */
	private DataSize maxInFlightBytes = DataSize.ofBytes(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES);

	/**
	 * Window of one batch to one server, in commands: the most commands written but not
	 * yet answered, from 1 to 10000000. Bounds memory when commands are tiny or replies
	 * large.
	 */
	private int maxInFlightCommands = BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS;

	/**
	 * Time one chunk may take from being sent until its last reply. Must be positive.
	 * Commands not answered by then have an unknown outcome.
	 */
	private Duration timeout = BatchTemplate.DEFAULT_TIMEOUT;

	/**
	 * Whether to wrap each chunk in MULTI/EXEC.
	 */
	private boolean transactional = false;

	/**
	 * Most request bytes (keys, values, arguments) one chunk holds, at least 1KB. A chunk
	 * is sent when the next command would take it over, even before it has chunk-size
	 * commands.
	 */
	private DataSize maxChunkBytes = DataSize.ofBytes(BatchTemplate.DEFAULT_MAX_CHUNK_BYTES);

	/**
	 * Most commands per second one batch writes, across its servers (polite mode): each
	 * chunk waits for the cap before it is written. 0 (no cap) or positive. Needs
	 * Bucket4j, which the starter brings.
	 */
	private long maxCommandsPerSecond = BatchTemplate.DEFAULT_MAX_COMMANDS_PER_SECOND;

	/**
	 * Most request bytes per second one batch writes, across its servers (polite mode).
	 * 0B (no cap) or positive. Needs Bucket4j, which the starter brings.
	 */
	private DataSize maxBytesPerSecond = DataSize.ofBytes(BatchTemplate.DEFAULT_MAX_BYTES_PER_SECOND);

	private final Pool pool = new Pool();

	private final Retry retry = new Retry();

	private final Metrics metrics = new Metrics();

	private final Annotations annotations = new Annotations();

	private final AutoBatching autoBatching = new AutoBatching();

	private final FastPath fastPath = new FastPath();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getChunkSize() {
		return this.chunkSize;
	}

	public void setChunkSize(int chunkSize) {
		this.chunkSize = chunkSize;
	}

	public DataSize getMaxInFlightBytes() {
		return this.maxInFlightBytes;
	}

	public void setMaxInFlightBytes(DataSize maxInFlightBytes) {
		this.maxInFlightBytes = maxInFlightBytes;
	}

	public int getMaxInFlightCommands() {
		return this.maxInFlightCommands;
	}

	public void setMaxInFlightCommands(int maxInFlightCommands) {
		this.maxInFlightCommands = maxInFlightCommands;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public boolean isTransactional() {
		return this.transactional;
	}

	public void setTransactional(boolean transactional) {
		this.transactional = transactional;
	}

	public DataSize getMaxChunkBytes() {
		return this.maxChunkBytes;
	}

	public void setMaxChunkBytes(DataSize maxChunkBytes) {
		this.maxChunkBytes = maxChunkBytes;
	}

	public long getMaxCommandsPerSecond() {
		return this.maxCommandsPerSecond;
	}

	public void setMaxCommandsPerSecond(long maxCommandsPerSecond) {
		this.maxCommandsPerSecond = maxCommandsPerSecond;
	}

	public DataSize getMaxBytesPerSecond() {
		return this.maxBytesPerSecond;
	}

	public void setMaxBytesPerSecond(DataSize maxBytesPerSecond) {
		this.maxBytesPerSecond = maxBytesPerSecond;
	}

	public Pool getPool() {
		return this.pool;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Annotations getAnnotations() {
		return this.annotations;
	}

	public FastPath getFastPath() {
		return this.fastPath;
	}

	public AutoBatching getAutoBatching() {
		return this.autoBatching;
	}

	/**
	 * The pool of connections batches run on, separate from the application's shared
	 * connection.
	 */
	public static class Pool {

		/**
		 * Maximum number of batch connections to one server, in use or idle. At least 1.
		 */
		private int maxActive = BatchConnectionPool.DEFAULT_MAX_ACTIVE;

		/**
		 * Maximum number of idle batch connections kept open, 0 or more. Defaults to
		 * max-active; a larger value is accepted, and the pool keeps at most max-active
		 * idle.
		 */
		private @Nullable Integer maxIdle;

		/**
		 * Number of idle batch connections the pool tries to keep open, 0 or more. A
		 * value above the effective max-idle is accepted, and the pool keeps that many
		 * instead.
		 */
		private int minIdle = 0;

		/**
		 * Maximum time a batch waits for a free connection before it fails. Must be
		 * positive: the pool never waits without bound.
		 */
		private Duration maxWait = BatchConnectionPool.DEFAULT_MAX_WAIT;

		public int getMaxActive() {
			return this.maxActive;
		}

		public void setMaxActive(int maxActive) {
			this.maxActive = maxActive;
		}

		public @Nullable Integer getMaxIdle() {
			return this.maxIdle;
		}

		public void setMaxIdle(@Nullable Integer maxIdle) {
			this.maxIdle = maxIdle;
		}

		public int getMinIdle() {
			return this.minIdle;
		}

		public void setMinIdle(int minIdle) {
			this.minIdle = minIdle;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

	}

	/**
	 * Sending commands again after a lost connection, and pausing when a server refuses
	 * commands for now (LOADING, BUSY, TRYAGAIN).
	 */
	public static class Retry {

		/**
		 * How many times a batch recovers, from 0 (never: a lost connection or a LOADING
		 * server ends the batch) to 10. Each recovery waits the backoff first.
		 */
		private int attempts = BatchTemplate.DEFAULT_RETRY_ATTEMPTS;

		/**
		 * Pause before each attempt. Must not be negative. attempts x backoff bounds how
		 * long a batch waits for a server that is loading its data.
		 */
		private Duration backoff = BatchTemplate.DEFAULT_RETRY_BACKOFF;

		public int getAttempts() {
			return this.attempts;
		}

		public void setAttempts(int attempts) {
			this.attempts = attempts;
		}

		public Duration getBackoff() {
			return this.backoff;
		}

		public void setBackoff(Duration backoff) {
			this.backoff = backoff;
		}

	}

	/**
	 * Metrics and observations of batches.
	 */
	public static class Metrics {

		/**
		 * Whether to record a Micrometer observation and meters for every batch.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * The @RedisBatch annotation.
	 */
	public static class Annotations {

		/**
		 * Whether @RedisBatch methods pipeline the RedisTemplate calls they make.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Auto-batching of the application's own Lettuce connections: those of its
	 * RedisTemplates, caches and sessions, not the batch connections.
	 */
	public static class AutoBatching {

		/**
		 * Whether to send the commands that concurrent callers write to one of the
		 * application's Lettuce connections in one write.
		 */
		private boolean enabled = false;

		/**
		 * Most bytes of one write, from 1KB to 64MB: a group of commands leaves as soon
		 * as it reaches it.
		 */
		private DataSize maxWriteBytes = DataSize.ofKilobytes(64);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public DataSize getMaxWriteBytes() {
			return this.maxWriteBytes;
		}

		public void setMaxWriteBytes(DataSize maxWriteBytes) {
			this.maxWriteBytes = maxWriteBytes;
		}

	}

	/**
	 * The fast path of batch connections.
	 */
	public static class FastPath {

		/**
		 * Whether batches take the fast path, where what it relies on inside Lettuce and
		 * Netty is there (checked when the pool is built, with a warning when it is not),
		 * or always the portable path, Lettuce's own pipelining.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
