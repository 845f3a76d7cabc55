package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.redis.testcontainers.RedisContainer;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code @ServiceConnection} path, and other server versions (Redis 7.4, Valkey 8),
 * in containers. Skipped, with the reason "No Docker environment is available", where
 * Docker is absent.
 */
@EveryLine
class ServiceConnectionContainerTests {

	@Nested
	@Testcontainers(disabledWithoutDocker = true)
	@SpringBootTest(classes = Application.class)
	class Redis74 extends Checks {

		@Container
		@ServiceConnection
		static final RedisContainer redis = new RedisContainer(DockerImageName.parse("redis:7.4-alpine"));

	}

	@Nested
	@Testcontainers(disabledWithoutDocker = true)
	@SpringBootTest(classes = Application.class)
	class Valkey8 extends Checks {

		@Container
		@ServiceConnection
		static final RedisContainer valkey = new RedisContainer(
				DockerImageName.parse("valkey/valkey:8-alpine").asCompatibleSubstituteFor("redis"));

	}

	abstract static class Checks {

		@Autowired
		StringBatchTemplate batchTemplate;

		@Autowired
		StringRedisTemplate redisTemplate;

		@Test
		void batchesReachTheContainerWithNoConfiguration() {
			this.batchTemplate.setAll(Map.of("a", "1", "b", "2"), Duration.ofMinutes(1));

			assertThat(this.redisTemplate.opsForValue().get("a")).isEqualTo("1");
			assertThat(this.batchTemplate.getAll(List.of("a", "b", "c"))).containsExactly("1", "2", null);
		}

		@Test
		void transactionalChunksWork() {
			BatchResults results = this.batchTemplate.execute(BatchOptions.builder().transactional(true).build(),
					(batch) -> {
						batch.incr("counter");
						batch.incr("counter");
					});

			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(2);
			assertThat(this.redisTemplate.opsForValue().get("counter")).isEqualTo("2");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
