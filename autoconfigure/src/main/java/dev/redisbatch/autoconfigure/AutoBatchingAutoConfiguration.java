package dev.redisbatch.autoconfigure;

import java.util.List;

import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.autobatch.AutoBatchingMetrics;
import dev.redisbatch.autobatch.WriteListener;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Auto-batching of the application's own Lettuce connections, with
 * {@code redis.batch.auto-batching.enabled=true}: the commands that concurrent callers
 * write to one connection (its {@code RedisTemplate}s, caches and sessions) leave in one
 * write. Off by default, and with {@code redis.batch.enabled=false}.
 * <p>
 * When Spring Boot builds the {@code ClientResources}, the first of its builder
 * customizers installs auto-batching; any other {@code ClientResources} bean (the
 * application's own) is wrapped by a post-processor, its own Netty customizer kept and
 * run first. A Jedis connection factory stops the application with one sentence. With
 * Micrometer, the commands of each write are recorded as
 * {@code redis.batch.auto.commands.per.write}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class)
@ConditionalOnClass(ClientResources.class)
@ConditionalOnBooleanProperty(name = "redis.batch.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("redis.batch.auto-batching.enabled")
public final class AutoBatchingAutoConfiguration {

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
	@ConditionalOnClass(ClientResourcesBuilderCustomizer.class)
	static class BootClientResourcesConfiguration {

		/**
		 * First of Boot's customizers: resources Boot builds get auto-batching as they
		 * are built (and keep their type). A later customizer that sets a Netty
		 * customizer of its own replaces it; the post-processor then wraps the resources.
		 */
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		ClientResourcesBuilderCustomizer redisBatchAutoBatchingClientResourcesCustomizer(Environment environment,
				ObjectProvider<WriteListener> listeners) {
			return (builder) -> builder.nettyCustomizer(settings(environment, listeners).nettyCustomizer());
		}

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
