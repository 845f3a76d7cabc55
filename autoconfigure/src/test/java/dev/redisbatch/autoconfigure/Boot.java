package dev.redisbatch.autoconfigure;

import java.util.function.Consumer;

import io.lettuce.core.resource.ClientResources;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * The Spring Boot classes the shared auto-configuration tests name, as this line (Spring
 * Boot 4) calls them: the tests in {@code src/shared-test} run on every line.
 */
public final class Boot {

	/**
	 * Spring Boot's Redis auto-configuration.
	 */
	public static final Class<?> REDIS = DataRedisAutoConfiguration.class;

	/**
	 * Spring Boot's observation auto-configuration.
	 */
	public static final Class<?> OBSERVATION = ObservationAutoConfiguration.class;

	/**
	 * Spring Boot's metrics auto-configuration.
	 */
	public static final Class<?> METRICS = MetricsAutoConfiguration.class;

	/**
	 * The major version of this line.
	 */
	public static final int GENERATION = 4;

	private Boot() {
	}

	/**
	 * The runner with a customizer of Spring Boot's Lettuce client configuration.
	 */
	public static ApplicationContextRunner withLettuceClientCustomizer(ApplicationContextRunner runner,
			Consumer<LettuceClientConfigurationBuilder> customizer) {
		return runner.withBean(LettuceClientConfigurationBuilderCustomizer.class, () -> customizer::accept);
	}

	/**
	 * The runner with a customizer of the {@code ClientResources} Spring Boot builds.
	 */
	public static ApplicationContextRunner withClientResourcesCustomizer(ApplicationContextRunner runner,
			Consumer<ClientResources.Builder> customizer) {
		return runner.withBean(ClientResourcesBuilderCustomizer.class, () -> customizer::accept);
	}

	/**
	 * The runner with a Redis connection details bean, as {@code @ServiceConnection} and
	 * Docker Compose provide one.
	 */
	public static ApplicationContextRunner withConnectionDetails(ApplicationContextRunner runner, String host, int port,
			String username, String password) {
		return runner.withBean(DataRedisConnectionDetails.class, () -> new DataRedisConnectionDetails() {

			@Override
			public String getUsername() {
				return username;
			}

			@Override
			public String getPassword() {
				return password;
			}

			@Override
			public Standalone getStandalone() {
				return Standalone.of(host, port);
			}

		});
	}

}
