package dev.redisbatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Memory is bounded by chunk size × parallelism, not by the size of the batch: a batch of
 * ten million commands completes in a JVM with a 256 MB heap, and a bound batch of a
 * million {@code RedisTemplate} calls in a 96 MB heap.
 */
@ExtendWith(RedisServerExtension.class)
class BoundedMemoryTests {

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aTenMillionCommandBatchRunsInA256MegabyteHeap(RedisProcess server) throws IOException, InterruptedException {
		String output = runInSmallHeap(TenMillionCommandsMain.class, "256m", server);

		assertThat(output).contains("RESULT success=10000000 size=10000000 chunks=10000");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aMillionRedisTemplateCallsInABoundBatchRunInA96MegabyteHeap(RedisProcess server)
			throws IOException, InterruptedException {
		String output = runInSmallHeap(MillionTemplateCommandsMain.class, "96m", server);

		assertThat(output).contains("RESULT success=1000000 size=1000000 chunks=1000");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
	}

	private static String runInSmallHeap(Class<?> main, String heap, RedisProcess server)
			throws IOException, InterruptedException {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(java.toString(), "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError", "-cp",
				System.getProperty("java.class.path"), main.getName(), String.valueOf(server.port()))
			.redirectErrorStream(true)
			.start();
		process.getOutputStream().close();
		boolean exited = process.waitFor(5, TimeUnit.MINUTES);
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!exited) {
			process.destroyForcibly();
		}
		System.out.println(output);
		assertThat(exited).as("finished within 5 minutes").isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		return output;
	}

}
