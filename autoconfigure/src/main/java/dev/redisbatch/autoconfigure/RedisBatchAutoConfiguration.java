package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatchAnnotationBeanPostProcessor;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import io.lettuce.core.RedisClient;
import org.apache.commons.pool2.impl.GenericObjectPool;
import reactor.core.publisher.Flux;

import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Auto-configuration for redis-batch: a {@link BatchConnectionPool} of its own built from
 * Spring Boot's Redis connection details, and the {@code stringBatchTemplate} and
 * {@code batchTemplate} beans, and their reactive counterparts
 * {@code reactiveStringBatchTemplate} and {@code reactiveBatchTemplate} when Reactor is
 * on the classpath (Lettuce brings it). Every bean backs off when the application defines
 * its own; {@code redis.batch.enabled=false} turns it all off. The application's
 * {@code RedisConnectionFactory} is never replaced or reconfigured.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass({ RedisClient.class, GenericObjectPool.class, DataRedisConnectionDetails.class })
@ConditionalOnBooleanProperty(name = "redis.batch.enabled", matchIfMissing = true)
@ConditionalOnBean(DataRedisConnectionDetails.class)
@EnableConfigurationProperties(RedisBatchProperties.class)
public final class RedisBatchAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	BatchConnectionPool redisBatchConnectionPool(DataRedisConnectionDetails connectionDetails,
			ObjectProvider<DataRedisProperties> redisProperties, RedisBatchProperties properties) {
		return BatchConnectionPools.create(connectionDetails, redisProperties.getIfAvailable(), properties.getPool());
	}

	@Bean
	@ConditionalOnMissingBean
	StringBatchTemplate stringBatchTemplate(BatchConnectionPool redisBatchConnectionPool,
			RedisBatchProperties properties, ObjectProvider<BatchTemplateCustomizer> customizers) {
		StringBatchTemplate template = new StringBatchTemplate(redisBatchConnectionPool,
				RedisBatchPropertiesValidator.defaults(properties));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(template));
		return template;
	}

	@Bean
	@ConditionalOnMissingBean(name = "batchTemplate")
	BatchTemplate<Object, Object> batchTemplate(BatchConnectionPool redisBatchConnectionPool,
			RedisBatchProperties properties,
			@Qualifier("redisTemplate") ObjectProvider<RedisTemplate<Object, Object>> redisTemplate,
			ObjectProvider<BatchTemplateCustomizer> customizers) {
		BatchTemplate.Builder<Object, Object> builder = BatchTemplate.builder(redisBatchConnectionPool);
		RedisTemplate<Object, Object> serializersSource = redisTemplate.getIfAvailable();
		if (serializersSource != null) {
			builder.serializersFrom(serializersSource);
		}
		else {
			builder.keySerializer(RedisSerializer.java()).valueSerializer(RedisSerializer.java());
		}
		BatchTemplate<Object, Object> template = builder.defaults(RedisBatchPropertiesValidator.defaults(properties))
			.build();
		customizers.orderedStream().forEach((customizer) -> customizer.customize(template));
		return template;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Flux.class)
	static class ReactiveBatchConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "reactiveStringBatchTemplate")
		ReactiveBatchTemplate<String, String> reactiveStringBatchTemplate(StringBatchTemplate stringBatchTemplate) {
			return new ReactiveBatchTemplate<>(stringBatchTemplate);
		}

		@Bean
		@ConditionalOnMissingBean(name = "reactiveBatchTemplate")
		ReactiveBatchTemplate<Object, Object> reactiveBatchTemplate(
				@Qualifier("batchTemplate") BatchTemplate<Object, Object> batchTemplate) {
			return new ReactiveBatchTemplate<>(batchTemplate);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(AbstractBeanFactoryAwareAdvisingPostProcessor.class)
	@ConditionalOnBooleanProperty(name = "redis.batch.annotations.enabled", matchIfMissing = true)
	static class RedisBatchAnnotationConfiguration {

		@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		@ConditionalOnMissingBean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		static RedisBatchAnnotationBeanPostProcessor redisBatchAnnotationBeanPostProcessor(
				ObjectProvider<StringBatchTemplate> stringBatchTemplate,
				ObjectProvider<RedisConnectionFactory> connectionFactories) {
			return new RedisBatchAnnotationBeanPostProcessor(stringBatchTemplate::getObject,
					() -> connectionFactories.orderedStream().toList());
		}

	}

}
