package dev.redisbatch.springbatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * An application whose Spring Batch is older than 6.0.6 (Spring Boot 4.0.7 manages
 * 6.0.4), or than 5.2 on the Spring Batch 5 line, fails when its writer is built (at
 * startup), with one sentence that names the requirement and the fix. No server: nothing
 * is opened. That each line's writer passes the version of the Spring Batch on the
 * classpath is tested by each line ({@code RedisBatchItemWriterTests}).
 */
class SpringBatchRequirementTests {

	@ParameterizedTest
	@ValueSource(strings = { "5.2.0", "5.2.4", "6.0.6", "6.0.7-SNAPSHOT", "6.1.0-M1", "7.0.0" })
	void springBatch52And606AndNewerPass(String version) {
		assertThatNoException().isThrownBy(() -> SpringBatchRequirement.check(version));
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = "unknown")
	void aSpringBatchWhoseVersionIsNotKnownPasses(String version) {
		assertThatNoException().isThrownBy(() -> SpringBatchRequirement.check(version));
	}

	@Test
	void springBoot407sSpringBatchFailsWithTheRequirementAndTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> SpringBatchRequirement.check("6.0.4"))
			.withMessage("RedisBatchItemWriter needs Spring Batch 6.0.6 or newer, whose chunk scan its item-by-item "
					+ "skip relies on, and this application has Spring Batch 6.0.4 (Spring Boot 4.0.7 manages 6.0.4): "
					+ "set the spring-batch.version property to 6.0.6 or newer");
	}

	@Test
	void aSpringBatch5OlderThan52FailsWithTheRequirementAndTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> SpringBatchRequirement.check("5.1.2"))
			.withMessage("RedisBatchItemWriter needs Spring Batch 5.2 or newer on the Spring Batch 5 line (Spring Boot "
					+ "3.5 manages 5.2), and this application has Spring Batch 5.1.2: set the spring-batch.version "
					+ "property to 5.2.4 or newer");
	}

}
