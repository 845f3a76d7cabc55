package dev.redisbatch.autoconfigure;

import java.util.List;

import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.autobatch.AutoBatchingMetrics;
import dev.redisbatch.autobatch.WriteListener;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Auto-batching's post-processor of {@code ClientResources} beans, its settings and its
 * meter: the part of {@link AutoBatchingAutoConfiguration} that is the same on every
 * Spring Boot line.
 */
@Configuration(proxyBeanMethods = false)
class AutoBatchingConfiguration {

	private static final String PREFIX = "redis.batch.auto-batching";

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static AutoBatchingPostProcessor redisBatchAutoBatchingPostProcessor(Environment environment,
			ObjectProvider<WriteListener> listeners) {
		return new AutoBatchingPostProcessor(() -> settings(environment, listeners));
	}

	/**
	 * The settings from the properties (bound here: the post-processor is created before
	 * the properties bean), with every {@link WriteListener} bean.
	 */
	static AutoBatching settings(Environment environment, ObjectProvider<WriteListener> listeners) {
		RedisBatchProperties.AutoBatching properties = Binder.get(environment)
			.bind(PREFIX, RedisBatchProperties.AutoBatching.class)
			.orElseGet(RedisBatchProperties.AutoBatching::new);
		AutoBatching.Builder builder = AutoBatching.builder();
		try {
			builder.maxWriteBytes((int) Math.min(Integer.MAX_VALUE, properties.getMaxWriteBytes().toBytes()));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".max-write-bytes",
					properties.getMaxWriteBytes(), ex.getMessage());
		}
		List<WriteListener> all = listeners.orderedStream().toList();
		if (!all.isEmpty()) {
			builder.writeListener((all.size() == 1) ? all.get(0) : (commands) -> {
				for (WriteListener listener : all) {
					listener.written(commands);
				}
			});
		}
		return builder.build();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	@ConditionalOnBooleanProperty(name = "redis.batch.metrics.enabled", matchIfMissing = true)
	static class AutoBatchingMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		AutoBatchingMetrics redisBatchAutoBatchingMetrics() {
			return new AutoBatchingMetrics();
		}

	}

}
