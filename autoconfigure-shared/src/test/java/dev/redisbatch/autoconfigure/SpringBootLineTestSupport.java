package dev.redisbatch.autoconfigure;

import java.util.function.Consumer;

import io.lettuce.core.resource.ClientResources;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * What a Spring Boot line's module supplies to the tests both lines share: the Spring
 * Boot classes they name, as the line calls them. Each line's tests implement it once, as
 * the class {@code Boot}, and the shared tests reach it through {@link #boot()}: a module
 * without it does not compile.
 */
public interface SpringBootLineTestSupport {

	/**
	 * The line the tests run on.
	 */
	static SpringBootLineTestSupport boot() {
		return Boot.LINE;
	}

	/**
	 * The major version of the line.
	 */
	int generation();

	/**
	 * Spring Boot's Redis auto-configuration.
	 */
	Class<?> redisAutoConfiguration();

	/**
	 * Spring Boot's observation auto-configuration.
	 */
	Class<?> observationAutoConfiguration();

	/**
	 * Spring Boot's metrics auto-configuration.
	 */
	Class<?> metricsAutoConfiguration();

	/**
	 * The runner with a customizer of Spring Boot's Lettuce client configuration.
	 */
	ApplicationContextRunner withLettuceClientCustomizer(ApplicationContextRunner runner,
			Consumer<LettuceClientConfigurationBuilder> customizer);

	/**
	 * The runner with a customizer of the {@code ClientResources} Spring Boot builds.
	 */
	ApplicationContextRunner withClientResourcesCustomizer(ApplicationContextRunner runner,
			Consumer<ClientResources.Builder> customizer);

	/**
	 * The runner with a Redis connection details bean, as {@code @ServiceConnection} and
	 * Docker Compose provide one.
	 */
	ApplicationContextRunner withConnectionDetails(ApplicationContextRunner runner, String host, int port,
			String username, String password);

}
