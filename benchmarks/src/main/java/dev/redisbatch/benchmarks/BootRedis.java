package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.autoconfigure.RedisBatchAutoConfiguration;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;

/**
 * A Spring Boot application context with Boot's own Redis auto-configuration and
 * redis-batch's, so that "Boot's defaults" are whatever Boot really configures (not a
 * hand-made imitation) and {@code BatchTemplate} is the bean an application gets.
 * <p>
 * With {@code commons-pool2} on the classpath, as here, Boot configures a
 * {@link LettucePoolingClientConfiguration};
 * {@code spring.data.redis.lettuce.pool.enabled=false} gives Boot's configuration without
 * commons-pool2.
 */
final class BootRedis {

	private BootRedis() {
	}

	/**
	 * Start a context against the endpoint, with beans of the caller's.
	 * @param endpoint where to connect
	 * @param components more configuration or component classes
	 * @param properties extra properties, {@code name=value}
	 * @return the running context
	 */
	static ConfigurableApplicationContext start(Endpoint endpoint, List<Class<?>> components, String... properties) {
		List<Class<?>> sources = new ArrayList<>();
		sources.add(Config.class);
		sources.addAll(components);
		List<String> all = new ArrayList<>();
		all.add("spring.data.redis.host=" + Endpoint.HOST);
		all.add("spring.data.redis.port=" + endpoint.port());
		all.add("logging.level.root=WARN");
		all.add("spring.main.register-shutdown-hook=false");
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(all.toArray(String[]::new))
			.run();
	}

	/**
	 * Describe Boot's connection factory in a context, to state in the report which
	 * configuration was measured.
	 * @param context the context
	 * @return for example {@code LettuceConnectionFactory, pooled (max-active 8)}
	 */
	static String describe(ConfigurableApplicationContext context) {
		RedisConnectionFactory factory = context.getBean(RedisConnectionFactory.class);
		if (!(factory instanceof LettuceConnectionFactory lettuce)) {
			return factory.getClass().getSimpleName();
		}
		if (lettuce.getClientConfiguration() instanceof LettucePoolingClientConfiguration pooling) {
			return "LettuceConnectionFactory, LettucePoolingClientConfiguration (max-active "
					+ pooling.getPoolConfig().getMaxTotal() + ")";
		}
		return "LettuceConnectionFactory, no pool (shared native connection; a new connection per pipeline)";
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, RedisBatchAutoConfiguration.class })
	static class Config {

	}

}
