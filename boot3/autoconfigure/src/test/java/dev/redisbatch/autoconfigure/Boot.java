package dev.redisbatch.autoconfigure;

import java.util.function.Consumer;

import io.lettuce.core.resource.ClientResources;

import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * The Spring Boot classes the shared auto-configuration tests name, as this line (Spring
 * Boot 3.5) calls them: the tests in {@code autoconfigure/src/shared-test} run on every
 * line.
 */
public final class Boot {

	/**
	 * Spring Boot's Redis auto-configuration.
	 */
	public static final Class<?> REDIS = RedisAutoConfiguration.class;

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
	public static final int GENERATION = 3;

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
		return runner.withBean(RedisConnectionDetails.class, () -> new RedisConnectionDetails() {

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
