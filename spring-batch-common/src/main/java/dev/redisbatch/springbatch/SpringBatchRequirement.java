package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.data.util.Version;

/**
 * The oldest Spring Batch the writer runs on: 6.0.6 on the Spring Batch 6 line, and 5.2
 * on the Spring Batch 5 line (the one Spring Boot 3.5 manages, for which
 * {@code redis-batch-spring-batch5} is built). Its item-by-item skip relies on the chunk
 * scan as Spring Batch 6.0.6 runs it. Before (in 6.0.4, which Spring Boot 4.0.7 manages,
 * and 6.0.5) the scan rolls a skipped item's transaction back without updating the step's
 * streams, so the writer is never told that the item is gone, and refuses the next item
 * as one it did not write at that position: the step fails instead of skipping. It is
 * checked when a writer is built, so that such an application fails at startup with a
 * sentence that says what to do, not in the middle of a job. Each line's writer passes
 * the version of the Spring Batch it was built for, as that line's jar names it.
 */
final class SpringBatchRequirement {

	static final Version OLDEST = Version.parse("6.0.6");

	static final Version OLDEST_5 = Version.parse("5.2.0");

	private static final Version SIX = Version.parse("6.0.0");

	private SpringBatchRequirement() {
	}

	/**
	 * Check a Spring Batch version as its jars name it (e.g. {@code 6.0.4}; its jars are
	 * released together, so any of them tells). A Spring Batch whose version is not known
	 * (no jar manifest, as in a native image) passes.
	 * @param implementationVersion the implementation version of a Spring Batch jar
	 * @throws IllegalStateException if it is older than its line's oldest
	 */
	static void check(@Nullable String implementationVersion) {
		String numbers = (implementationVersion != null)
				? implementationVersion.replaceAll("[^0-9.].*", "").replaceAll("\\.+$", "") : "";
		if (numbers.isEmpty()) {
			return;
		}
		Version found;
		try {
			found = Version.parse(numbers);
		}
		catch (IllegalArgumentException ex) {
			return;
		}
		if (found.isLessThan(OLDEST_5)) {
			throw new IllegalStateException("RedisBatchItemWriter needs Spring Batch 5.2 or newer on the Spring Batch "
					+ "5 line (Spring Boot 3.5 manages 5.2), and " + "this application has Spring Batch "
					+ implementationVersion + ": set the spring-batch.version property to 5.2.4 or newer");
		}
		if (found.isGreaterThanOrEqualTo(SIX) && found.isLessThan(OLDEST)) {
			throw new IllegalStateException("RedisBatchItemWriter needs Spring Batch " + OLDEST
					+ " or newer, whose chunk scan its item-by-item skip relies on, and this application has Spring Batch "
					+ implementationVersion
					+ " (Spring Boot 4.0.7 manages 6.0.4): set the spring-batch.version property " + "to " + OLDEST
					+ " or newer");
		}
	}

}
