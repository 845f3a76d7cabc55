package dev.redisbatch;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import org.springframework.data.util.Version;

/**
 * The oldest Lettuce that redis-batch runs on: 6.6, the one Spring Boot 3.5 manages (4.0
 * manages 6.8 and 4.1 7.x; each is tested in the build). It is checked when a pool is
 * built, so that an application that overrides Lettuce with an older one fails at startup
 * with a sentence that says what to do, rather than at its first batch with a
 * class-loading error.
 */
final class LettuceRequirement {

	static final Version OLDEST = Version.parse("6.6");

	private LettuceRequirement() {
	}

	/**
	 * Check the Lettuce on the classpath. A Lettuce whose version is not known (no jar
	 * manifest, as in a native image) passes.
	 * @throws IllegalStateException if it is older than {@link #OLDEST}
	 */
	static void check() {
		check(RedisURI.class.getPackage().getImplementationVersion());
	}

	/**
	 * Check a Lettuce version as its jar names it (e.g. {@code 6.8.2.RELEASE/34f8700}).
	 * @throws IllegalStateException if it is older than {@link #OLDEST}
	 */
	static void check(@Nullable String implementationVersion) {
		Version found = parse(implementationVersion);
		if (found != null && found.isLessThan(OLDEST)) {
			// as the jar names it, without the commit: "6.5.0.RELEASE"
			String named = implementationVersion.replaceAll("/.*", "");
			throw new IllegalStateException(Messages.lettuceTooOld(OLDEST.toString(), named));
		}
	}

	private static @Nullable Version parse(@Nullable String implementationVersion) {
		// the numbers before the qualifier: "6.8.2.RELEASE/34f8700" is 6.8.2
		String numbers = (implementationVersion != null) ? implementationVersion.replaceAll("[^0-9.].*", "") : "";
		numbers = numbers.replaceAll("\\.+$", "");
		if (numbers.isEmpty()) {
			return null;
		}
		try {
			return Version.parse(numbers);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
