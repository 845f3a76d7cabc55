package dev.redisbatch.autoconfigure;

import dev.redisbatch.testsupport.EveryLine;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Spring Boot line's guard says at startup: nothing to an application of this
 * line with this line's jar alone; one sentence that names the starter to remove to an
 * application with the jars of both lines (here the other line's marker, served by the
 * application's class loader), whichever line's classes the class path's order loads.
 * Runs on both lines.
 */
@EveryLine
class RedisBatchBootLineAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("spring.data.redis.port=1")
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class,
				RedisBatchBootLineAutoConfiguration.class));

	@Test
	void thisLinesJarCarriesTheMarkerOfItsLineAndNoOther() {
		assertThat(SpringBootLine.current().generation()).isEqualTo(boot().generation());
		assertThat(RedisBatchBootLineAutoConfiguration.linesOn(getClass().getClassLoader()))
			.containsExactly(SpringBootLine.current().generation());
	}

	@Test
	void thisLinesJarListsTheSharedAutoConfigurationsAndThoseOfItsLine() {
		List<String> listed = new ArrayList<>();
		ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).forEach((name) -> listed.add(name));
		assertThat(listed).filteredOn((name) -> name.startsWith("dev.redisbatch."))
			.containsExactly(AutoBatchingAutoConfiguration.class.getName(), RedisBatchAutoConfiguration.class.getName(),
					RedisBatchBootLineAutoConfiguration.class.getName(),
					RedisBatchObservationAutoConfiguration.class.getName());
	}

	@Test
	void anApplicationOfThisLineWithThisLinesStarterStarts() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.hasBean("stringBatchTemplate")
			.doesNotHaveBean(RedisBatchBootLineAutoConfiguration.class));
	}

	@Test
	void theStartersOfBothLinesStopTheApplicationWithOneSentenceThatNamesTheOneToRemove(@TempDir Path jar)
			throws IOException {
		int other = (boot().generation() == 4) ? 3 : 4;
		try (URLClassLoader classLoader = withMarker(jar, other)) {
			this.contextRunner.withClassLoader(classLoader).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.isInstanceOf(IllegalStateException.class)
					.hasMessage("This application has both redis-batch-spring-boot3-starter and "
							+ "redis-batch-spring-boot-starter (the starters of two Spring Boot lines), and runs "
							+ "Spring Boot " + SpringBootVersion.getVersion() + ": remove dev.redisbatch:"
							+ ((boot().generation() == 4) ? "redis-batch-spring-boot3-starter"
									: "redis-batch-spring-boot-starter"));
			});
		}
	}

	@Test
	void bothLinesOnAnUnknownSpringBootAskToKeepTheStarterOfItsLine() {
		assertThat(RedisBatchBootLineAutoConfiguration.problem(null, Set.of(3, 4)))
			.isEqualTo("This application has both redis-batch-spring-boot3-starter and redis-batch-spring-boot-starter "
					+ "(the starters of two Spring Boot lines): keep only the starter of its Spring Boot line");
	}

	@Test
	void anUnknownSpringBootWithOneLinePasses() {
		assertThat(RedisBatchBootLineAutoConfiguration.problem(null, Set.of(boot().generation()))).isNull();
		assertThat(RedisBatchBootLineAutoConfiguration.problem("unknown", Set.of(boot().generation()))).isNull();
	}

	/**
	 * The test's class loader, with the marker of another line's jar.
	 */
	private URLClassLoader withMarker(Path jar, int generation) throws IOException {
		Path marker = jar.resolve(RedisBatchBootLineAutoConfiguration.MARKER);
		Files.createDirectories(marker.getParent());
		Files.writeString(marker, "generation=" + generation + "\n");
		return new URLClassLoader(new URL[] { jar.toUri().toURL() }, getClass().getClassLoader());
	}

}
