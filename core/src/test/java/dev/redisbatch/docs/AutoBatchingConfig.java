package dev.redisbatch.docs;

import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.autobatch.AutoBatchingMetrics;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The configuration of docs/auto-batching.md, "Without Spring Boot": auto-batching on the
 * client resources of a Spring application's own connection factory.
 * {@code AutoBatchingTests} runs it against a real server.
 */
@Configuration(proxyBeanMethods = false)
public class AutoBatchingConfig {

	@Bean
	AutoBatchingMetrics autoBatchingMetrics() {
		// a MeterBinder: bind it to your MeterRegistry (Spring Boot does it for you)
		return new AutoBatchingMetrics();
	}

	@Bean(destroyMethod = "shutdown")
	ClientResources clientResources(AutoBatchingMetrics autoBatchingMetrics) {
		return AutoBatching.builder()
			.writeListener(autoBatchingMetrics)
			.build()
			.clientResources(DefaultClientResources.create());
	}

	@Bean
	LettuceConnectionFactory redisConnectionFactory(ClientResources clientResources,
			@Value("${redis.host:localhost}") String host, @Value("${redis.port:6379}") int port) {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				LettuceClientConfiguration.builder().clientResources(clientResources).build());
	}

	@Bean
	StringRedisTemplate stringRedisTemplate(LettuceConnectionFactory redisConnectionFactory) {
		return new StringRedisTemplate(redisConnectionFactory);
	}

}
