package dev.redisbatch.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies {@code redis.batch.*} values to the library's builders, which check them: a
 * value the library refuses stops the application with a Boot configuration error that
 * names the property, the value and the library's reason. The ranges live in the library
 * only.
 */
final class RedisBatchPropertiesValidator {

	private static final Log logger = LogFactory.getLog(RedisBatchPropertiesValidator.class);

	private RedisBatchPropertiesValidator() {
	}

	/**
	 * The template defaults the properties set.
	 */
	static BatchOptions defaults(RedisBatchProperties properties) {
		BatchOptions.Builder options = BatchOptions.builder();
		apply("redis.batch.chunk-size", properties.getChunkSize(), options::chunkSize);
		apply("redis.batch.max-in-flight-bytes", properties.getMaxInFlightBytes(),
				(size) -> options.maxInFlightBytes(size.toBytes()));
		apply("redis.batch.max-in-flight-commands", properties.getMaxInFlightCommands(), options::maxInFlightCommands);
		apply("redis.batch.timeout", properties.getTimeout(), options::timeout);
		apply("redis.batch.max-chunk-bytes", properties.getMaxChunkBytes(),
				(size) -> options.maxChunkBytes(size.toBytes()));
		options.transactional(properties.isTransactional());
		apply("redis.batch.max-commands-per-second", properties.getMaxCommandsPerSecond(),
				options::maxCommandsPerSecond);
		apply("redis.batch.max-bytes-per-second", properties.getMaxBytesPerSecond(),
				(size) -> options.maxBytesPerSecond(size.toBytes()));
		RedisBatchProperties.Retry retry = properties.getRetry();
		apply("redis.batch.retry.attempts", retry.getAttempts(),
				(attempts) -> options.retry(attempts, BatchTemplate.DEFAULT_RETRY_BACKOFF));
		apply("redis.batch.retry.backoff", retry.getBackoff(),
				(backoff) -> options.retry(retry.getAttempts(), backoff));
		return options.build();
	}

	/**
	 * Set the pool properties on a pool builder and build it. {@code max-idle} above
	 * {@code max-active}, and {@code min-idle} above the effective {@code max-idle}, are
	 * accepted, as commons-pool2 and Spring Boot's own {@code lettuce.pool} accept them:
	 * the pool caps them, and one warning says so.
	 */
	static BatchConnectionPool pool(BatchConnectionPool.Builder builder, RedisBatchProperties.Pool pool) {
		apply("redis.batch.pool.max-active", pool.getMaxActive(), builder::maxActive);
		if (pool.getMaxIdle() != null) {
			apply("redis.batch.pool.max-idle", pool.getMaxIdle(), builder::maxIdle);
		}
		apply("redis.batch.pool.min-idle", pool.getMinIdle(), builder::minIdle);
		apply("redis.batch.pool.max-wait", pool.getMaxWait(), builder::maxWait);
		BatchConnectionPool built = builder.build();
		String capped = capped(pool, built);
		if (capped != null) {
			logger.warn(capped);
		}
		return built;
	}

	/**
	 * What the pool capped, or {@code null} when it kept every value as set.
	 */
	private static @Nullable String capped(RedisBatchProperties.Pool pool, BatchConnectionPool built) {
		List<String> capped = new ArrayList<>();
		Integer maxIdle = pool.getMaxIdle();
		if (maxIdle != null && maxIdle > built.getMaxIdle()) {
			capped.add("redis.batch.pool.max-idle=" + maxIdle + " is above redis.batch.pool.max-active="
					+ built.getMaxActive() + ": the batch pool keeps at most " + built.getMaxIdle()
					+ " idle connections per server");
		}
		if (pool.getMinIdle() > built.getMinIdle()) {
			capped.add("redis.batch.pool.min-idle=" + pool.getMinIdle() + " is above the effective max-idle of "
					+ built.getMaxIdle() + ": the batch pool keeps " + built.getMinIdle()
					+ " idle connections open per server");
		}
		return capped.isEmpty() ? null : String.join("; ", capped);
	}

	private static <T> void apply(String property, @Nullable T value, Consumer<T> setter) {
		try {
			setter.accept(value);
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			// IllegalStateException: a rate cap without Bucket4j on the classpath
			throw new InvalidConfigurationPropertyValueException(property, value, ex.getMessage());
		}
	}

}
