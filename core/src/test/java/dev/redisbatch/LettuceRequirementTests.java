package dev.redisbatch;

import dev.redisbatch.testsupport.EveryLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * An application with a Lettuce older than 6.6 fails when its pool is built (at startup),
 * with one sentence that names the requirement and the fix; 6.6 (Spring Boot 3.5's), 6.8
 * (Spring Boot 4.0's) and 7.x (Spring Boot 4.1's) pass. No server: nothing is opened.
 */
@EveryLine
class LettuceRequirementTests {

	@ParameterizedTest
	@ValueSource(strings = { "6.6.0.RELEASE/0000000", "6.8.2.RELEASE/34f8700", "6.9.0.M1", "7.5.2.RELEASE/5728917",
			"7.7.0.RELEASE", "8.0.0-SNAPSHOT" })
	void lettuce66AndNewerPass(String version) {
		assertThatNoException().isThrownBy(() -> LettuceRequirement.check(version));
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { "unknown", "RELEASE" })
	void aLettuceWhoseVersionIsNotKnownPasses(String version) {
		assertThatNoException().isThrownBy(() -> LettuceRequirement.check(version));
	}

	@Test
	void anOlderLettuceFailsWithTheRequirementAndTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> LettuceRequirement.check("6.5.5.RELEASE/abcdef0"))
			.withMessage("redis-batch needs Lettuce 6.6 or newer (Spring Boot 3.5.x manages 6.6, 4.0.x 6.8, 4.1.x "
					+ "7.x), and this application has Lettuce 6.5.5.RELEASE: remove the application's "
					+ "lettuce.version override, or set it to 6.6.0.RELEASE or newer");
	}

	@Test
	void theLettuceOnTheClasspathPasses() {
		// 7.x in core's build, 6.6 and 6.8 in the compatibility modules'
		assertThatNoException().isThrownBy(LettuceRequirement::check);
	}

}
