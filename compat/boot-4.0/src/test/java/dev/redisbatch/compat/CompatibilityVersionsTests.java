package dev.redisbatch.compat;

import dev.redisbatch.BatchTemplate;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.boot.SpringBootVersion;
import org.springframework.data.redis.core.RedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The borrowed tests of this module prove something only if they run on the versions it
 * names (its POM passes them in): Spring Boot 4.0's, not the 4.1 the library is built on,
 * with the Spring Batch that the Spring Batch module needs.
 */
class CompatibilityVersionsTests {

	@Test
	void theTestsRunOnSpringBoot40sLettuceAndSpringDataRedis() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
		assertThat(implementationVersion(RedisURI.class))
			.startsWith(System.getProperty("compat.lettuce.version") + ".");
		assertThat(implementationVersion(RedisTemplate.class))
			.startsWith(System.getProperty("compat.spring-data-redis.version") + ".");
		assertThat(implementationVersion(Chunk.class)).isEqualTo(System.getProperty("compat.spring-batch.version"));
	}

	@Test
	void theLibraryIsTheJarBuiltOnSpringBoot41() {
		assertThat(BatchTemplate.class.getProtectionDomain().getCodeSource().getLocation().getPath())
			.as("redis-batch-core comes from its module's build, not from sources compiled here")
			.doesNotContain("/compat/");
	}

	private static String implementationVersion(Class<?> type) {
		return String.valueOf(type.getPackage().getImplementationVersion());
	}

}
