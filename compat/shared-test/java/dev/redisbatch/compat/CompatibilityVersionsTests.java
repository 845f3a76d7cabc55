package dev.redisbatch.compat;

import dev.redisbatch.BatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import io.lettuce.core.RedisURI;
import io.netty.util.Version;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.data.redis.core.RedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The borrowed tests of a compatibility module prove something only if they run on the
 * versions it names (its POM passes them in): its line's Spring Boot, Lettuce, Spring
 * Data Redis and Netty, not the Spring Boot 4.1 the library is built on.
 */
@EveryLine
class CompatibilityVersionsTests {

	@Test
	void theTestsRunOnTheVersionsOfTheirLine() {
		assertThat(SpringBootVersion.getVersion()).startsWith(expected("spring-boot"));
		assertThat(implementationVersion(RedisURI.class)).startsWith(expected("lettuce"));
		assertThat(implementationVersion(RedisTemplate.class)).startsWith(expected("spring-data-redis"));
		assertThat(Version.identify().get("netty-common").artifactVersion()).startsWith(expected("netty"));
	}

	@Test
	void theSpringBatchModuleRunsOnTheSpringBatchItNames() throws ClassNotFoundException {
		String springBatch = System.getProperty("compat.spring-batch.version");
		assumeTrue(springBatch != null, "this line runs no Spring Batch tests");
		assertThat(implementationVersion(Class.forName("org.springframework.batch.infrastructure.item.Chunk")))
			.isEqualTo(springBatch);
	}

	@Test
	void theLibraryIsTheJarBuiltOnSpringBoot41() {
		assertThat(BatchTemplate.class.getProtectionDomain().getCodeSource().getLocation().getPath())
			.as("redis-batch-core comes from its module's build, not from sources compiled here")
			.doesNotContain("/compat/");
	}

	private static String expected(String library) {
		String version = System.getProperty("compat." + library + ".version");
		assertThat(version).as("the POM names the %s version of the line", library).isNotBlank();
		return version + ".";
	}

	static String implementationVersion(Class<?> type) {
		return String.valueOf(type.getPackage().getImplementationVersion());
	}

}
