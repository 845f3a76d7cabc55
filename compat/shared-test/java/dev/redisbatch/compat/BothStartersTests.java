package dev.redisbatch.compat;

import dev.redisbatch.testsupport.BothStarters;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An application of this line in the middle of an upgrade, with the starters of both
 * Spring Boot lines (its POM puts both lines' auto-configurations on the classpath for
 * this test alone): whichever line's classes the classpath's order loads, it does not
 * start, and says in one sentence which starter to remove.
 */
@BothStarters
class BothStartersTests {

	@Test
	void theStartersOfBothSpringBootLinesStopTheApplicationAndNameTheOneToRemove() {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable failure = catchThrowable(() -> application.run("--spring.data.redis.port=1"));

		assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(IllegalStateException.class)
			.hasMessage("This application has both redis-batch-spring-boot3-starter and redis-batch-spring-boot-starter "
					+ "(the starters of two Spring Boot lines), and runs Spring Boot " + SpringBootVersion.getVersion()
					+ ": remove dev.redisbatch:" + System.getProperty("compat.wrong-starter"));
	}

	@SpringBootApplication
	static class Application {

	}

}
