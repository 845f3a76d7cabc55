package dev.redisbatch.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Stops an application whose Spring Boot is not the line this module is built for, with
 * one sentence that names the starter to use. Without it the other auto-configurations
 * would be skipped silently, for want of this line's Spring Boot classes, and the
 * application would find no {@code StringBatchTemplate}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "redis.batch.enabled", matchIfMissing = true)
@Conditional(RedisBatchBootLineAutoConfiguration.OtherBootLine.class)
public final class RedisBatchBootLineAutoConfiguration {

	RedisBatchBootLineAutoConfiguration() {
		throw new IllegalStateException(message(String.valueOf(SpringBootVersion.getVersion())));
	}

	/**
	 * The sentence for an application on the given Spring Boot version.
	 */
	static String message(String bootVersion) {
		String starter = starterFor(generation(bootVersion));
		return starterFor(BootLine.GENERATION) + " is built for Spring Boot " + BootLine.GENERATION
				+ ".x, and this application runs Spring Boot " + bootVersion + ": "
				+ ((starter != null) ? "depend on dev.redisbatch:" + starter + " instead"
						: "redis-batch supports Spring Boot 3.5 and 4.x");
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
		if (bootVersion == null) {
			return -1;
		}
		int dot = bootVersion.indexOf('.');
		try {
			return Integer.parseInt((dot > 0) ? bootVersion.substring(0, dot) : bootVersion);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * Matches when the application's Spring Boot is of another generation than this
	 * module's (an unknown version, as in a repackaged jar without a manifest, passes).
	 */
	static final class OtherBootLine implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			int generation = generation(SpringBootVersion.getVersion());
			return generation != -1 && generation != BootLine.GENERATION;
		}

	}

}
