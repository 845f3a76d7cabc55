package dev.redisbatch.docs;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.EnableRedisBatch;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The configuration of docs/getting-started.md, "Without Spring Boot": a Spring
 * application's own Redis beans, and the two that redis-batch adds.
 * {@code PlainSpringTests} runs it against a real server.
 */
@Configuration(proxyBeanMethods = false)
@EnableRedisBatch
public class RedisConfig {

	// The beans a Spring Data Redis application has already.

	@Bean
	LettuceConnectionFactory redisConnectionFactory(@Value("${redis.host:localhost}") String host,
			@Value("${redis.port:6379}") int port) {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
	}

	@Bean
	StringRedisTemplate stringRedisTemplate(LettuceConnectionFactory redisConnectionFactory) {
		return new StringRedisTemplate(redisConnectionFactory);
	}

	// The two that redis-batch adds: a pool of its own, to the same server, closed with
	// the context; and the template.

	@Bean(destroyMethod = "close")
	BatchConnectionPool batchConnectionPool(LettuceConnectionFactory redisConnectionFactory) {
		return BatchConnectionPool.builder(redisConnectionFactory).build();
	}

	@Bean
	StringBatchTemplate stringBatchTemplate(BatchConnectionPool batchConnectionPool) {
		return new StringBatchTemplate(batchConnectionPool);
	}

}
