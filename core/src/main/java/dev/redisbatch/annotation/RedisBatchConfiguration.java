package dev.redisbatch.annotation;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import dev.redisbatch.BatchTemplate;
import dev.redisbatch.StringBatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.context.annotation.ImportAware;
import org.springframework.context.annotation.Role;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * The infrastructure that {@link EnableRedisBatch @EnableRedisBatch} imports: the
 * {@link RedisBatchAnnotationBeanPostProcessor}, registered under its constant name only
 * when no bean has that name yet.
 *
 * @since 0.1.0
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
class RedisBatchConfiguration implements ImportAware {

	private @Nullable AnnotationAttributes enableRedisBatch;

	@Override
	public void setImportMetadata(AnnotationMetadata importMetadata) {
		this.enableRedisBatch = AnnotationAttributes
			.fromMap(importMetadata.getAnnotationAttributes(EnableRedisBatch.class.getName()));
	}

	@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@Conditional(NoRedisBatchPostProcessorYet.class)
	RedisBatchAnnotationBeanPostProcessor redisBatchAnnotationBeanPostProcessor(ListableBeanFactory beanFactory) {
		// Both looked up when the first annotated method runs, not while post-processors
		// are being created.
		Supplier<BatchTemplate<?, ?>> template = SingletonSupplier.of(() -> batchTemplate(beanFactory));
		Supplier<List<RedisConnectionFactory>> connectionFactories = SingletonSupplier
			.of(() -> beanFactory.getBeanProvider(RedisConnectionFactory.class).orderedStream().toList());
		RedisBatchAnnotationBeanPostProcessor postProcessor = new RedisBatchAnnotationBeanPostProcessor(template,
				connectionFactories);
		if (this.enableRedisBatch != null) {
			postProcessor.setProxyTargetClass(this.enableRedisBatch.getBoolean("proxyTargetClass"));
			postProcessor.setOrder(this.enableRedisBatch.<Integer>getNumber("order"));
		}
		return postProcessor;
	}

	/**
	 * The template whose pool and defaults batches use: the only {@code BatchTemplate},
	 * else the primary one, else the only {@code StringBatchTemplate}.
	 */
	static BatchTemplate<?, ?> batchTemplate(ListableBeanFactory beanFactory) {
		BatchTemplate<?, ?> template = beanFactory.getBeanProvider(BatchTemplate.class).getIfUnique();
		if (template == null) {
			template = beanFactory.getBeanProvider(StringBatchTemplate.class).getIfUnique();
		}
		if (template != null) {
			return template;
		}
		String[] names = beanFactory.getBeanNamesForType(BatchTemplate.class);
		if (names.length == 0) {
			throw new IllegalStateException("@RedisBatch needs a BatchTemplate bean whose pool and defaults its "
					+ "batches use, and there is none: define a StringBatchTemplate bean on a BatchConnectionPool");
		}
		throw new IllegalStateException("@RedisBatch needs one BatchTemplate bean whose pool and defaults its batches "
				+ "use, and there are " + names.length + " " + Arrays.toString(names)
				+ " with no single StringBatchTemplate among them: mark the one to use @Primary");
	}

	/**
	 * Matches while no bean is registered under
	 * {@link RedisBatchAnnotationBeanPostProcessor#BEAN_NAME}.
	 */
	static class NoRedisBatchPostProcessorYet implements ConfigurationCondition {

		@Override
		public ConfigurationPhase getConfigurationPhase() {
			return ConfigurationPhase.REGISTER_BEAN;
		}

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !context.getRegistry().containsBeanDefinition(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME);
		}

	}

}
