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
	 * Number of chunks of one batch in flight at once, from 1 to 64, pipelined on the
	 * batch's connection to each server, so that commands still run in the order they
	 * were recorded.
	 */
	private int parallelism = BatchTemplate.DEFAULT_PARALLELISM;

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

	private final Pool pool = new Pool();

	private final Metrics metrics = new Metrics();

	private final Annotations annotations = new Annotations();

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

	public int getParallelism() {
		return this.parallelism;
	}

	public void setParallelism(int parallelism) {
		this.parallelism = parallelism;
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

	public Pool getPool() {
		return this.pool;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Annotations getAnnotations() {
		return this.annotations;
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
		 * Maximum number of idle batch connections kept open, from 0 to max-active.
		 * Defaults to max-active.
		 */
		private @Nullable Integer maxIdle;

		/**
		 * Number of idle batch connections the pool tries to keep open, from 0 to
		 * max-idle.
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

}
