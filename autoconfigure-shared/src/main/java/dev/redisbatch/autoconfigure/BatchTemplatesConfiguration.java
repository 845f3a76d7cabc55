package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatchAnnotationBeanPostProcessor;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import reactor.core.publisher.Flux;

import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The templates on the batch connection pool, and {@code @RedisBatch}: the part of
 * {@link RedisBatchAutoConfiguration} that is the same on every Spring Boot line.
 */
@Configuration(proxyBeanMethods = false)
class BatchTemplatesConfiguration {

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
