package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchConnectionPool;
import io.lettuce.core.RedisClient;
import org.apache.commons.pool2.impl.GenericObjectPool;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration for redis-batch on Spring Boot 3.5: a {@link BatchConnectionPool} of
 * its own built from Spring Boot's Redis connection details, and the
 * {@code stringBatchTemplate} and {@code batchTemplate} beans, and their reactive
 * counterparts {@code reactiveStringBatchTemplate} and {@code reactiveBatchTemplate} when
 * Reactor is on the classpath (Lettuce brings it). Every bean backs off when the
 * application defines its own; {@code redis.batch.enabled=false} turns it all off. The
 * application's {@code RedisConnectionFactory} is never replaced or reconfigured.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = RedisAutoConfiguration.class)
@ConditionalOnClass({ RedisClient.class, GenericObjectPool.class, RedisConnectionDetails.class })
@ConditionalOnBooleanProperty(name = "redis.batch.enabled", matchIfMissing = true)
@ConditionalOnBean(RedisConnectionDetails.class)
@EnableConfigurationProperties(RedisBatchProperties.class)
@Import(BatchTemplatesConfiguration.class)
public final class RedisBatchAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	BatchConnectionPool redisBatchConnectionPool(RedisConnectionDetails connectionDetails,
			ObjectProvider<RedisProperties> redisProperties, RedisBatchProperties properties) {
		return BatchConnectionPools
			.create(BootLine.INSTANCE.settings(connectionDetails, redisProperties.getIfAvailable()), properties);
	}

}
