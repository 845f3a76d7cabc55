package dev.redisbatch.starter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A build that takes the highest version it meets anywhere in the graph (Gradle without
 * Spring Boot's plugin) gets only Spring Boot 3.5's versions through this starter: no
 * dependency of it asks for the Spring Boot 4.1 versions that {@code redis-batch-core}'s
 * own POM names. The build writes the starter's dependency tree (Maven's verbose tree,
 * which says where Spring Boot 3.5's dependency management changed a version a POM asked
 * for) before the tests; this reads it.
 */
class HighestVersionResolutionTests {

	/**
	 * The libraries Spring Boot 3.5 and 4.1 manage at different major or minor versions,
	 * and the newer lines a Spring Boot 3.5 application must never be asked for.
	 */
	private static final Pattern NEWER_LINE = Pattern.compile("(org\\.springframework:[^:]+:jar:7\\."
			+ "|org\\.springframework\\.data:[^:]+:jar:(4\\.|2026)|org\\.springframework\\.boot:[^:]+:jar:4\\."
			+ "|io\\.lettuce:lettuce-core:jar:7\\.|io\\.netty:[^:]+:jar:4\\.2\\.|io\\.micrometer:[^:]+:jar:1\\.1[6-9]\\."
			+ "|org\\.apache\\.commons:commons-pool2:jar:2\\.1[3-9]\\.|io\\.projectreactor:[^:]+:jar:3\\.8\\.)");

	private static final Pattern MANAGED_FROM = Pattern
		.compile("([\\w.-]+:[\\w.-]+:jar:)[^:]+(:[a-z]+.*version managed from ([^;)]+))");

	@Test
	void noDependencyOfTheStarterAsksForASpringBoot41Version() throws IOException {
		List<String> tree = Files.readAllLines(Path.of(System.getProperty("starter.dependency-tree")),
				StandardCharsets.UTF_8);
		assertThat(tree).as("the dependency tree of the starter").isNotEmpty();
		assertThat(tree).filteredOn((line) -> line.contains("spring-data-redis:jar:"))
			.allSatisfy((line) -> assertThat(line).contains(":3.5."));

		assertThat(tree).noneSatisfy((line) -> {
			Matcher managed = MANAGED_FROM.matcher(line);
			assertThat(managed.find()).isTrue();
			String requested = managed.group(1) + managed.group(3).trim();
			assertThat(NEWER_LINE.matcher(requested).find()).isTrue();
		});
	}

}
