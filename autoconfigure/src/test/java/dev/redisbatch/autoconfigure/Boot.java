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
 * Boot 4) calls them.
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
		return 4;
	}

	@Override
	public Class<?> redisAutoConfiguration() {
		return DataRedisAutoConfiguration.class;
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
