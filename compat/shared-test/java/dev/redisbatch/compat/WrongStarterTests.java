package dev.redisbatch.compat;

import dev.redisbatch.testsupport.WrongStarter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An application of this line with the starter of the other Spring Boot line (its POM
 * puts that line's auto-configuration on the classpath for this test alone): it does not
 * start, and says in one sentence which starter to depend on.
 */
@WrongStarter
class WrongStarterTests {

	@Test
	void theStarterOfTheOtherSpringBootLineStopsTheApplicationAndNamesTheRightOne() {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);

		Throwable failure = catchThrowable(() -> application.run("--spring.data.redis.port=1"));

		assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
			.isInstanceOf(IllegalStateException.class)
			.hasMessage(System.getProperty("compat.wrong-starter") + " is built for Spring Boot "
					+ System.getProperty("compat.wrong-starter.generation") + ".x, and this application runs Spring Boot "
					+ SpringBootVersion.getVersion() + ": depend on dev.redisbatch:"
					+ System.getProperty("compat.right-starter") + " instead");
	}

	@SpringBootApplication
	static class Application {

	}

}
