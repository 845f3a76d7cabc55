package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.redisbatch.autobatch.WriteListener;
import dev.redisbatch.autoconfigure.AutoBatchingAutoConfiguration;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The strategies of the concurrency suite: the application's own
 * {@code StringRedisTemplate}, called by many threads at once with one command each, as
 * Spring Boot configures it and with the three ways to batch what they write. Each one is
 * a Spring Boot context with Boot's Redis auto-configuration ({@link BootRedis}).
 * <ul>
 * <li>{@value #BOOT}: Boot's defaults: Lettuce, every command on the one shared
 * connection, written and flushed on its own;</li>
 * <li>{@value #JEDIS}: Boot with Jedis ({@code spring.data.redis.client-type=jedis}) and
 * a pool of as many connections as threads, so no thread waits for one;</li>
 * <li>{@value #FLUSH_CONSOLIDATION}: Boot's defaults with Netty's
 * {@code FlushConsolidationHandler(256, true)} added first in every channel by hand (a
 * {@code ClientResourcesBuilderCustomizer}): the flushes of the callers' write tasks
 * become one;</li>
 * <li>{@value #AUTO_BATCHING}: Boot's defaults with
 * {@code redis.batch.auto-batching.enabled=true}.</li>
 * </ul>
 */
final class SingleCommandClients {

	static final String BOOT = "bootLettuce";

	static final String JEDIS = "bootJedisPool";

	static final String FLUSH_CONSOLIDATION = "lettuceFlushConsolidation";

	static final String AUTO_BATCHING = "autoBatching";

	private static final List<Descriptor> ALL = List.of(
			new Descriptor(BOOT, "Boot's defaults (Lettuce, shared connection)",
					"Spring Boot's auto-configured StringRedisTemplate on its LettuceConnectionFactory: every command "
							+ "on the shared native connection, written and flushed on its own"),
			new Descriptor(JEDIS, "Boot with a Jedis pool",
					"spring.data.redis.client-type=jedis with a pool of as many connections as threads "
							+ "(max-active = max-idle = threads, timeouts of 10 s): a connection per command"),
			new Descriptor(FLUSH_CONSOLIDATION, "Lettuce + FlushConsolidationHandler by hand",
					"Boot's defaults with a ClientResourcesBuilderCustomizer whose Netty customizer adds "
							+ "FlushConsolidationHandler(256, true) first in every channel"),
			new Descriptor(AUTO_BATCHING, "redis-batch auto-batching",
					"Boot's defaults with redis.batch.auto-batching.enabled=true (max-write-bytes 64KB)"));

	private SingleCommandClients() {
	}

	/**
	 * The ids, in report order.
	 * @return the ids
	 */
	static List<String> ids() {
		return ALL.stream().map(Descriptor::id).toList();
	}

	/**
	 * Look a strategy up.
	 * @param id the id
	 * @return the descriptor, if the id is one of the suite's
	 */
	static Optional<Descriptor> find(String id) {
		return ALL.stream().filter((descriptor) -> descriptor.id().equals(id)).findFirst();
	}

	/**
	 * Start the application context of a strategy.
	 * @param id the id
	 * @param endpoint where it connects
	 * @param threads the threads that will call it
	 * @return the context
	 */
	static ConfigurableApplicationContext start(String id, Endpoint endpoint, int threads) {
		List<Class<?>> components = new ArrayList<>();
		List<String> properties = new ArrayList<>();
		switch (id) {
			case BOOT -> {
			}
			case JEDIS -> {
				properties.add("spring.data.redis.client-type=jedis");
				properties.add("spring.data.redis.jedis.pool.enabled=true");
				properties.add("spring.data.redis.jedis.pool.max-active=" + threads);
				properties.add("spring.data.redis.jedis.pool.max-idle=" + threads);
				// hundreds of threads open their connections at once through the proxy,
				// which
				// shares the two cores: more than Jedis's default of 2 s
				properties.add("spring.data.redis.connect-timeout=10s");
			}
			case FLUSH_CONSOLIDATION -> components.add(FlushConsolidation.class);
			case AUTO_BATCHING -> {
				components.add(AutoBatchingCounted.class);
				properties.add("redis.batch.auto-batching.enabled=true");
			}
			default -> throw new IllegalArgumentException(
					"Unknown strategy '" + id + "' of the concurrency suite; known: " + ids());
		}
		return BootRedis.start(endpoint, components, properties.toArray(String[]::new));
	}

	/**
	 * The template a strategy's threads call.
	 * @param context the strategy's context
	 * @return the application's {@code StringRedisTemplate}
	 */
	static StringRedisTemplate template(ConfigurableApplicationContext context) {
		return context.getBean(StringRedisTemplate.class);
	}

	/**
	 * A strategy of the concurrency suite.
	 *
	 * @param id the id (the JMH parameter value)
	 * @param label the name in tables
	 * @param description how it is configured
	 */
	record Descriptor(String id, String label, String description) {

	}

	/**
	 * Netty's {@code FlushConsolidationHandler}, added by hand as an application would.
	 */
	@Configuration(proxyBeanMethods = false)
	static class FlushConsolidation {

		@Bean
		ClientResourcesBuilderCustomizer flushConsolidation() {
			return (builder) -> builder.nettyCustomizer(new NettyCustomizer() {

				@Override
				public void afterChannelInitialized(Channel channel) {
					channel.pipeline().addFirst(new FlushConsolidationHandler(256, true));
				}

			});
		}

	}

	/**
	 * Auto-batching, with its writes counted for {@link CommandsPerWriteProfiler}.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(AutoBatchingAutoConfiguration.class)
	static class AutoBatchingCounted {

		@Bean
		WriteListener commandsPerWrite() {
			return CommandsPerWriteProfiler::written;
		}

	}

}
