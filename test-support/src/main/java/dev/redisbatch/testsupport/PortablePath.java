package dev.redisbatch.testsupport;

import org.junit.jupiter.api.Assumptions;

/**
 * Which path this JVM's batches take: the {@code portable-path} executions set
 * {@code -Dredis.batch.fast-path.enabled=false}, the pool builder's default.
 *
 * @since 0.1.0
 * @see BothPaths
 */
public final class PortablePath {

	private PortablePath() {
	}

	/**
	 * Whether this JVM's pools take the portable path by default.
	 * @return {@code true} when {@code redis.batch.fast-path.enabled} is {@code false}
	 */
	public static boolean isForced() {
		return "false".equals(System.getProperty("redis.batch.fast-path.enabled"));
	}

	/**
	 * Skip the test on the portable path, for a test of the fast path's own mechanics.
	 * @param why what the test checks that only the fast path has
	 */
	public static void assumeFastPath(String why) {
		Assumptions.assumeFalse(isForced(), () -> "on the fast path only: " + why);
	}

}
