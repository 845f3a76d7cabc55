package dev.redisbatch.autoconfigure;

import dev.redisbatch.autobatch.WriteListener;
import io.lettuce.core.resource.ClientResources;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
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
@Import(AutoBatchingConfiguration.class)
public final class AutoBatchingAutoConfiguration {

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
			return (builder) -> builder
				.nettyCustomizer(AutoBatchingConfiguration.settings(environment, listeners).nettyCustomizer());
		}

	}

}
