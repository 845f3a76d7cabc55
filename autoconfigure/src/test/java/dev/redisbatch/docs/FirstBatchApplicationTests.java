package dev.redisbatch.docs;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first batch runs as printed: the application starts, its runner writes and
 * reads the orders, and prints what happened.
 */
// the README's application scans its own package: on the compatibility modules' merged
// test classpath, that package holds other examples' configurations too
@VersionIndependent
@ExtendWith({ RedisServerExtension.class, OutputCaptureExtension.class })
class FirstBatchApplicationTests {

	@Test
	void theFirstBatchWritesAndReadsTheOrders(RedisProcess server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.run(FirstBatchApplication.class,
				"--spring.data.redis.port=" + server.port(), "--spring.main.banner-mode=off")) {
			assertThat(output).contains("2 commands in 1 chunk(s): all succeeded")
				.contains("[{\"total\":9.5}, {}, null]");
			assertThat(server.call("GET", "order:2")).isEqualTo("{}");
		}
	}

}
