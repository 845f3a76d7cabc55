package dev.redisbatch.autoconfigure;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot 3 application older than Spring Boot 3.5 is stopped by the line's guard
 * with one sentence that names the oldest line supported, before anything else of
 * redis-batch fails (the pool would otherwise ask for a newer Lettuce); 3.5 and newer
 * pass. The guard reads the application's version from {@code SpringBootVersion}; here
 * the versions are given.
 */
class OlderSpringBootTests {

	@Test
	void springBoot34IsToldThatSpringBoot35IsTheOldestLineSupported() {
		assertThat(RedisBatchBootLineAutoConfiguration.problem("3.4.10", Set.of(3)))
			.isEqualTo("redis-batch-spring-boot3-starter needs Spring Boot 3.5 or newer, the oldest line redis-batch "
					+ "supports, and this application runs Spring Boot 3.4.10: upgrade the application to Spring Boot "
					+ "3.5 or newer");
	}

	@ParameterizedTest
	@ValueSource(strings = { "3.5.0", "3.5.7", "3.6.0-SNAPSHOT" })
	void springBoot35AndNewerPass(String version) {
		assertThat(RedisBatchBootLineAutoConfiguration.problem(version, Set.of(3))).isNull();
	}

}
