package dev.redisbatch.autoconfigure;

import java.time.Duration;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.unit.DataSize;

/**
 * Checks {@code redis.batch.*} values at startup, so that a bad value stops the
 * application with a message naming the property, the value and the allowed range.
 */
final class RedisBatchPropertiesValidator {

	private RedisBatchPropertiesValidator() {
	}

	static BatchOptions defaults(RedisBatchProperties properties) {
		int chunkSize = properties.getChunkSize();
		check(chunkSize >= 1 && chunkSize <= BatchOptions.MAX_CHUNK_SIZE, "redis.batch.chunk-size", chunkSize,
				"must be between 1 and " + BatchOptions.MAX_CHUNK_SIZE);
		int parallelism = properties.getParallelism();
		check(parallelism >= 1 && parallelism <= BatchOptions.MAX_PARALLELISM, "redis.batch.parallelism", parallelism,
				"must be between 1 and " + BatchOptions.MAX_PARALLELISM);
		Duration timeout = properties.getTimeout();
		check(timeout != null && isPositive(timeout), "redis.batch.timeout", timeout, "must be positive");
		DataSize maxChunkBytes = properties.getMaxChunkBytes();
		check(maxChunkBytes != null && maxChunkBytes.toBytes() >= BatchOptions.MIN_CHUNK_BYTES,
				"redis.batch.max-chunk-bytes", maxChunkBytes, "must be at least " + BatchOptions.MIN_CHUNK_BYTES + "B");
		return BatchOptions.builder()
			.chunkSize(chunkSize)
			.parallelism(parallelism)
			.timeout(timeout)
			.transactional(properties.isTransactional())
			.maxChunkBytes(maxChunkBytes.toBytes())
			.build();
	}

	static void validatePool(RedisBatchProperties.Pool pool) {
		check(pool.getMaxActive() >= 1, "redis.batch.pool.max-active", pool.getMaxActive(), "must be at least 1");
		check(pool.getMaxIdle() >= 0 && pool.getMaxIdle() <= pool.getMaxActive(), "redis.batch.pool.max-idle",
				pool.getMaxIdle(), "must be between 0 and redis.batch.pool.max-active (" + pool.getMaxActive() + ")");
		check(pool.getMinIdle() >= 0 && pool.getMinIdle() <= pool.getMaxIdle(), "redis.batch.pool.min-idle",
				pool.getMinIdle(), "must be between 0 and redis.batch.pool.max-idle (" + pool.getMaxIdle() + ")");
		Duration maxWait = pool.getMaxWait();
		check(maxWait != null && isPositive(maxWait), "redis.batch.pool.max-wait", maxWait,
				"must be positive: the batch pool never waits without bound");
	}

	private static boolean isPositive(Duration duration) {
		return !duration.isNegative() && !duration.isZero();
	}

	private static void check(boolean valid, String name, Object value, String reason) {
		if (!valid) {
			throw new InvalidConfigurationPropertyValueException(name, value, reason);
		}
	}

}
