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
 * Boot 3.5) calls them.
 */
public final class Boot implements SpringBootLineTestSupport {

	/**
	 * This line.
	 */
	static final Boot LINE = new Boot();

	private Boot() {
	}

	@Override
	public int generation() {
		return 3;
	}

	@Override
	public Class<?> redisAutoConfiguration() {
		return RedisAutoConfiguration.class;
	}

	@Override
	public Class<?> observationAutoConfiguration() {
		return ObservationAutoConfiguration.class;
	}

	@Override
	public Class<?> metricsAutoConfiguration() {
		return MetricsAutoConfiguration.class;
	}

	@Override
	public ApplicationContextRunner withLettuceClientCustomizer(ApplicationContextRunner runner,
			Consumer<LettuceClientConfigurationBuilder> customizer) {
		return runner.withBean(LettuceClientConfigurationBuilderCustomizer.class, () -> customizer::accept);
	}

	@Override
	public ApplicationContextRunner withClientResourcesCustomizer(ApplicationContextRunner runner,
			Consumer<ClientResources.Builder> customizer) {
		return runner.withBean(ClientResourcesBuilderCustomizer.class, () -> customizer::accept);
	}

	@Override
	public ApplicationContextRunner withConnectionDetails(ApplicationContextRunner runner, String host, int port,
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
