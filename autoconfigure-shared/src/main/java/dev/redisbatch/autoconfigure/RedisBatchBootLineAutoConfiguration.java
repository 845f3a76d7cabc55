package dev.redisbatch.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Enumeration;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.Ordered;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Stops an application that does not run the Spring Boot line this module is built for,
 * with one sentence that says what to do: an application of the other line (without it
 * the other auto-configurations would be skipped silently, for want of this line's Spring
 * Boot classes, and the application would find no {@code StringBatchTemplate}), one of an
 * older Spring Boot than the line's oldest, and one with the starters of both lines (both
 * have auto-configurations of the same names, so the classpath's order would decide which
 * line's load). It runs first, before anything of redis-batch fails otherwise.
 * <p>
 * Each line's jar carries a marker, {@value #MARKER}, that names its line.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@AutoConfigureOrder(Ordered.HIGHEST_PRECEDENCE)
@ConditionalOnBooleanProperty(name = "redis.batch.enabled", matchIfMissing = true)
@Conditional(RedisBatchBootLineAutoConfiguration.UnsupportedSetup.class)
public final class RedisBatchBootLineAutoConfiguration {

	/**
	 * The resource in each line's jar that names its line ({@code generation=4}).
	 */
	static final String MARKER = "META-INF/redis-batch/spring-boot-line.properties";

	RedisBatchBootLineAutoConfiguration(ResourceLoader resourceLoader) {
		String problem = problem(SpringBootVersion.getVersion(), linesOn(resourceLoader.getClassLoader()));
		throw new IllegalStateException((problem != null) ? problem : "redis-batch cannot run here");
	}

	/**
	 * The sentence for an application on the given Spring Boot version with the given
	 * lines' jars, or {@code null} when it can run.
	 * @param bootVersion the application's Spring Boot version, or {@code null} when it
	 * is not known
	 * @param lines the Spring Boot generations whose redis-batch jars are on the
	 * classpath
	 */
	static @Nullable String problem(@Nullable String bootVersion, Set<Integer> lines) {
		SpringBootLine<?, ?> line = SpringBootLine.current();
		int generation = generation(bootVersion);
		if (lines.size() > 1) {
			return bothStarters(bootVersion, generation, lines);
		}
		if (generation == -1) {
			return null;
		}
		if (generation != line.generation()) {
			String starter = starterFor(generation);
			return starterFor(line.generation()) + " is built for Spring Boot " + line.generation()
					+ ".x, and this application runs Spring Boot " + bootVersion + ": "
					+ ((starter != null) ? "depend on dev.redisbatch:" + starter + " instead"
							: "redis-batch supports Spring Boot 3.5 and 4.x");
		}
		int minor = minor(bootVersion);
		if (minor != -1 && minor < minor(line.oldest())) {
			return starterFor(line.generation()) + " needs Spring Boot " + line.oldest()
					+ " or newer, the oldest line redis-batch supports, and this application runs Spring Boot "
					+ bootVersion + ": upgrade the application to Spring Boot " + line.oldest() + " or newer";
		}
		return null;
	}

	private static String bothStarters(@Nullable String bootVersion, int generation, Set<Integer> lines) {
		String starters = lines.stream()
			.sorted()
			.map(RedisBatchBootLineAutoConfiguration::starterFor)
			.map(String::valueOf)
			.collect(Collectors.joining(" and "));
		String remove = lines.stream()
			.sorted()
			.filter((line) -> line != generation)
			.map(RedisBatchBootLineAutoConfiguration::starterFor)
			.map(String::valueOf)
			.collect(Collectors.joining(" and dev.redisbatch:"));
		String both = "This application has both " + starters + " (the starters of two Spring Boot lines)";
		return lines.contains(generation)
				? both + ", and runs Spring Boot " + bootVersion + ": remove dev.redisbatch:" + remove
				: both + ": keep only the starter of its Spring Boot line";
	}

	/**
	 * The Spring Boot generations whose redis-batch jars are on the class path, as their
	 * markers name them.
	 */
	static Set<Integer> linesOn(@Nullable ClassLoader classLoader) {
		Set<Integer> lines = new TreeSet<>();
		ClassLoader loader = (classLoader != null) ? classLoader
				: RedisBatchBootLineAutoConfiguration.class.getClassLoader();
		try {
			Enumeration<URL> markers = loader.getResources(MARKER);
			while (markers.hasMoreElements()) {
				Properties marker = new Properties();
				try (InputStream in = markers.nextElement().openStream()) {
					marker.load(in);
				}
				int generation = generation(marker.getProperty("generation"));
				if (generation != -1) {
					lines.add(generation);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return lines;
	}

	/**
	 * The starter for applications on a Spring Boot generation, or {@code null} when
	 * there is none.
	 */
	static @Nullable String starterFor(int generation) {
		return switch (generation) {
			case 3 -> "redis-batch-spring-boot3-starter";
			case 4 -> "redis-batch-spring-boot-starter";
			default -> null;
		};
	}

	/**
	 * The major version of a Spring Boot version, or {@code -1} when it cannot be read.
	 */
	static int generation(@Nullable String bootVersion) {
		return part(bootVersion, 0);
	}

	/**
	 * The minor version of a Spring Boot version, or {@code -1} when it cannot be read.
	 */
	private static int minor(@Nullable String bootVersion) {
		return part(bootVersion, 1);
	}

	private static int part(@Nullable String version, int index) {
		if (version == null) {
			return -1;
		}
		String[] parts = version.trim().split("[.-]");
		try {
			return (parts.length > index) ? Integer.parseInt(parts[index]) : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * Matches when the application cannot run this module: another generation of Spring
	 * Boot than this module's (an unknown version, as in a repackaged jar without a
	 * manifest, passes), an older one than its line's oldest, or the jars of two lines.
	 */
	static final class UnsupportedSetup implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return problem(SpringBootVersion.getVersion(), linesOn(context.getClassLoader())) != null;
		}

	}

}
