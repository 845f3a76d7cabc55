package dev.redisbatch.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.sample.redis.RedisRoute;
import dev.redisbatch.sample.redis.RedisRouter;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RespConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Redis fallback: started only when nothing answers at the configured
 * loopback address, named in the log, stopped with the application. The application is
 * always pointed at a port of the test's choosing, never at a Redis the machine may run.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddedRedisFallbackTests {

	@Test
	void whenNothingAnswersAnEmbeddedRedisStartsOnTheConfiguredPortIsLoggedAndStopsWithTheApplication(
			CapturedOutput output) {
		int port = FreePorts.next();

		try (ConfigurableApplicationContext app = start(port)) {
			assertThat(RespConnection.call(port, "PING")).isEqualTo("PONG");
			RedisRoute route = app.getBean(RedisRouter.class).route();
			assertThat(route.origin()).isEqualTo(RedisRoute.Origin.EMBEDDED);
			assertThat(route.server()).isEqualTo("127.0.0.1:" + port);
			assertThat(output)
				.contains("Nothing answers at localhost:" + port
						+ ", so the sample started an embedded Redis on 127.0.0.1:" + port)
				.containsPattern(
						"redis-server \\d+\\.\\d+\\.\\d+ from (PATH|the embedded-redis jar|REDIS_SERVER) \\(/");
			assertThatTheApplicationUses(app, port);
		}

		assertThat(answers(port)).isFalse();
		assertThat(output).contains("Stopping the embedded Redis on 127.0.0.1:" + port);
	}

	@Test
	void whenTheConfiguredPortIsTakenButSilentTheEmbeddedRedisGetsAFreePortInstead() throws IOException {
		try (Socket squatter = new Socket()) {
			squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			int taken = squatter.getLocalPort();
			try (ConfigurableApplicationContext app = start(taken)) {
				RedisRoute route = app.getBean(RedisRouter.class).route();
				assertThat(route.origin()).isEqualTo(RedisRoute.Origin.EMBEDDED);
				assertThat(route.server()).startsWith("127.0.0.1:").isNotEqualTo("127.0.0.1:" + taken);
				int port = Integer.parseInt(route.server().substring("127.0.0.1:".length()));
				assertThatTheApplicationUses(app, port);
			}
		}
	}

	@Test
	void whenTheConfiguredRedisAnswersNothingIsStarted(CapturedOutput output) {
		try (RedisProcess redis = RedisProcess.start(); ConfigurableApplicationContext app = start(redis.port())) {
			RedisRoute route = app.getBean(RedisRouter.class).route();
			assertThat(route.origin()).isEqualTo(RedisRoute.Origin.CONFIGURED);
			assertThat(route.embeddedBinary()).isNull();
			assertThat(output).doesNotContain("embedded Redis");
			assertThatTheApplicationUses(app, redis.port());
		}
	}

	@Test
	void whenTheFallbackIsDisabledNothingIsStarted(CapturedOutput output) {
		int port = FreePorts.next();

		try (ConfigurableApplicationContext app = start(port, "sample.embedded-redis.enabled=false")) {
			assertThat(app.getBean(RedisRouter.class).route().origin()).isEqualTo(RedisRoute.Origin.CONFIGURED);
			assertThat(answers(port)).isFalse();
			assertThat(output).contains("no embedded Redis is started: sample.embedded-redis.enabled=false");
		}
	}

	/**
	 * Start the application without a web server. The Redis address is given as
	 * command-line arguments, which win over {@code application.properties}.
	 */
	private static ConfigurableApplicationContext start(int port, String... properties) {
		List<String> args = new ArrayList<>(
				List.of("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
						"--spring.data.redis.host=localhost", "--spring.data.redis.port=" + port));
		for (String property : properties) {
			args.add("--" + property);
		}
		return new SpringApplicationBuilder(SampleApplication.class).run(args.toArray(String[]::new));
	}

	/**
	 * Both the application's template and the batch pool reach the server on this port.
	 */
	private static void assertThatTheApplicationUses(ConfigurableApplicationContext app, int port) {
		app.getBean(StringBatchTemplate.class).setAll(Map.of("sample:batch", "1"), null);
		app.getBean(StringRedisTemplate.class).opsForValue().set("sample:template", "2");
		assertThat(RespConnection.call(port, "MGET", "sample:batch", "sample:template")).asList()
			.containsExactly("1", "2");
	}

	private static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
