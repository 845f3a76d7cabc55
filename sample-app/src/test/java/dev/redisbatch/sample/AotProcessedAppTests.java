package dev.redisbatch.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.sample.SampleClient.Reply;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.PackagedApp;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample app as Spring's AOT processing leaves it (what a native image is built
 * from), run on the JVM: the build's jar, started with {@code -Dspring.aot.enabled=true},
 * starts from the generated bean definitions, and its {@code BatchTemplate} and
 * {@code @RedisBatch} endpoints answer. It runs in the {@code aot-processed-app}
 * execution of {@code sample-app/pom.xml}, after {@code process-aot} and the jar.
 */
@ExtendWith(RedisServerExtension.class)
@PackagedApp
class AotProcessedAppTests {

	@Test
	void theAotProcessedJarStartsFromTheGeneratedCodeAndItsBatchEndpointsAnswer(RedisProcess redis)
			throws IOException, InterruptedException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/redis-batch-sample-app-0.1.0-SNAPSHOT.jar"));
		assertThat(jar).as("the jar that process-aot and repackage write (run this test with ./mvnw verify)")
			.isRegularFile();
		int port = FreePorts.next();
		Path log = Files.createTempFile("aot-processed-app", ".log");
		Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dspring.aot.enabled=true", "-jar", jar.toString(), "--server.port=" + port,
				"--spring.data.redis.port=" + redis.port(), "--sample.warm-up=false")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			SampleClient client = new SampleClient(port);
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(200))
				.ignoreExceptionsInstanceOf(UncheckedIOException.class)
				.until(() -> !app.isAlive() || client.get("/actuator/health").status() == 200);
			assertThat(app.isAlive()).as("the app is running; its log: %s", log).isTrue();
			assertThat(Files.readString(log)).contains("Starting AOT-processed SampleApplication");

			Reply batch = client.get("/redis/pipeline/100");
			Reply annotated = client.get("/redis/annotation/pipeline/50");

			assertThat(batch.status()).isEqualTo(200);
			assertThat(batch.body().get("strategy").asString()).isEqualTo("batch-template");
			assertThat(batch.body().get("count").asInt()).isEqualTo(100);
			assertThat(annotated.status()).isEqualTo(200);
			assertThat(annotated.body().get("strategy").asString()).isEqualTo("redis-batch-annotation");
			assertThat(RedisTestServer.keys(redis)).hasSize(100);
			assertThat(redis.call("GET", "sample:42")).isEqualTo("value-42");
		}
		finally {
			app.destroy();
			if (!app.waitFor(30, TimeUnit.SECONDS)) {
				app.destroyForcibly();
			}
		}
		Files.deleteIfExists(log);
	}

}
