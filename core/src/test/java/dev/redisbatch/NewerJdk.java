package dev.redisbatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Finds a JDK of at least a given feature version to fork, for tests of what the build's
 * Java 17 baseline cannot compile against (virtual threads). Looks, in order, at the JVM
 * running the tests, the {@code JAVA21_HOME} and {@code JDK21_HOME} environment variables
 * (a JDK 21 or newer, whatever the name says), and the JDKs in {@code /usr/lib/jvm}
 * (newest first), reading each one's {@code release} file.
 */
final class NewerJdk {

	private static final Path SYSTEM_JDKS = Path.of("/usr/lib/jvm");

	private NewerJdk() {
	}

	/**
	 * Search for a JDK.
	 * @param minimum the lowest feature version, such as 21
	 * @return what was found, and where it looked
	 */
	static Search find(int minimum) {
		List<String> tried = new ArrayList<>();
		int running = Runtime.version().feature();
		if (running >= minimum) {
			return new Search(new Jdk(Path.of(System.getProperty("java.home")), running, "the running JVM"), tried);
		}
		tried.add("the JVM running the tests is Java " + running);
		for (String variable : List.of("JAVA21_HOME", "JDK21_HOME")) {
			String value = System.getenv(variable);
			if (value == null || value.isBlank()) {
				tried.add(variable + " is not set");
				continue;
			}
			Optional<Jdk> jdk = inspect(Path.of(value), variable);
			if (jdk.isPresent() && jdk.get().feature() >= minimum) {
				return new Search(jdk.get(), tried);
			}
			tried.add(variable + "=" + value + " is not a JDK " + minimum + "+");
		}
		Optional<Jdk> newest = systemJdks().filter((jdk) -> jdk.feature() >= minimum)
			.max(Comparator.comparingInt(Jdk::feature));
		if (newest.isPresent()) {
			return new Search(newest.get(), tried);
		}
		tried.add("no JDK " + minimum + "+ in " + SYSTEM_JDKS);
		return new Search(null, tried);
	}

	private static Stream<Jdk> systemJdks() {
		if (!Files.isDirectory(SYSTEM_JDKS)) {
			return Stream.empty();
		}
		try (Stream<Path> entries = Files.list(SYSTEM_JDKS)) {
			List<Path> homes = entries.toList();
			return homes.stream().flatMap((home) -> inspect(home, home.toString()).stream());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The JDK at a path, from its {@code release} file, if it has one and a
	 * {@code bin/java}.
	 */
	private static Optional<Jdk> inspect(Path home, String where) {
		Path release = home.resolve("release");
		if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin").resolve("java"))) {
			return Optional.empty();
		}
		try {
			for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
				if (line.startsWith("JAVA_VERSION=")) {
					String version = line.substring("JAVA_VERSION=".length()).replace("\"", "").trim();
					String feature = version.split("[.+-]", 2)[0];
					return Optional.of(new Jdk(home, Integer.parseInt(feature), where));
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// not a JDK we can use
		}
		return Optional.empty();
	}

	/**
	 * A JDK.
	 *
	 * @param home its home directory
	 * @param feature its feature version, such as 25
	 * @param where how it was found
	 */
	record Jdk(Path home, int feature, String where) {

		Path java() {
			return this.home.resolve("bin").resolve("java");
		}

	}

	/**
	 * The outcome of a search.
	 *
	 * @param jdk the JDK found, or {@code null}
	 * @param tried the places that had none, for a skip message
	 */
	record Search(@Nullable Jdk jdk, List<String> tried) {

		String reason() {
			return String.join("; ", this.tried);
		}

	}

}
