package dev.redisbatch.sample;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The running sample app on a random port, talking to a real Redis server of the test
 * class's own (started on a free port by {@link RedisServerExtension}), never to a Redis
 * the machine may already run.
 */
@ExtendWith(RedisServerExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
abstract class SampleAppAgainstOwnRedis {

	/**
	 * The test class's Redis server.
	 */
	static RedisProcess redis;

	/**
	 * The sample app's HTTP port.
	 */
	@LocalServerPort
	int port;

	@BeforeAll
	static void redis(RedisProcess server) {
		redis = server;
	}

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> redis.port());
	}

}
