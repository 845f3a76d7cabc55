package dev.redisbatch.starter;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose only dependency is this starter: with no redis-batch configuration
 * at all, it gets both templates, and they work.
 */
@ExtendWith(RedisServerExtension.class)
class StarterApplicationTests {

	@Test
	void anApplicationWithOnlyTheStarterGetsBothTemplatesWithNoConfiguration(RedisProcess server) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.port=" + server.port())) {
			StringBatchTemplate strings = context.getBean(StringBatchTemplate.class);
			String[] objectTemplates = context.getBeanNamesForType(
					ResolvableType.forClassWithGenerics(BatchTemplate.class, Object.class, Object.class));
			assertThat(objectTemplates).contains("batchTemplate");
			assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isZero();

			strings.setAll(Map.of("starter:a", "1", "starter:b", "2"), Duration.ofMinutes(1));

			assertThat(strings.getAll(List.of("starter:a", "starter:b", "starter:c"))).containsExactly("1", "2", null);
			assertThat(server.call("GET", "starter:b")).isEqualTo("2");
		}
	}

	@SpringBootApplication
	static class Application {

	}

}
