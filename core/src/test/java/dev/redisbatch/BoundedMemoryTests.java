package dev.redisbatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Memory is bounded by the in-flight window, not by the size of the batch: a batch of ten
 * million commands completes in a JVM with a 128 MB heap, and a bound batch of a million
 * {@code RedisTemplate} calls in a 96 MB heap.
 */
@ExtendWith(RedisServerExtension.class)
@VersionIndependent
class BoundedMemoryTests {

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aTenMillionCommandBatchRunsInA128MegabyteHeap(RedisProcess server) throws IOException, InterruptedException {
		String output = runInSmallHeap(TenMillionCommandsMain.class, "128m", server);

		// chunks of 1,000, after the two smaller first ones (8 and 16 KB)
		assertThat(output).contains("RESULT success=10000000 size=10000000 chunks=10002");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aFluxOfTenMillionEntriesRunsThroughTheReactiveTemplateInA128MegabyteHeap(RedisProcess server)
			throws IOException, InterruptedException {
		server.call("FLUSHALL");

		String output = runInSmallHeap(ReactiveTenMillionMain.class, "128m", server);

		// chunks of 1,000, after the two smaller first ones (8 and 16 KB)
		assertThat(output).contains("RESULT success=10000000 size=10000000 chunks=10002");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
		assertThat(server.call("GET", "key:99999")).isEqualTo("value-9999999");
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aMillionRedisTemplateCallsInABoundBatchRunInA96MegabyteHeap(RedisProcess server)
			throws IOException, InterruptedException {
		String output = runInSmallHeap(MillionTemplateCommandsMain.class, "96m", server);

		// chunks of 1,000, after the two smaller first ones (8 and 16 KB)
		assertThat(output).contains("RESULT success=1000000 size=1000000 chunks=1002");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aTenMillionCommandBatchStoppedEarlyKeepsASmallHeapAndListsEveryCommand(RedisProcess server)
			throws IOException, InterruptedException {
		String output = runInSmallHeap(StoppedEarlyMain.class, "64m", server);

		assertThat(output).contains("RESULT size=10000000 ").contains(" lastIndex=9999999 ");
		long notSent = number(output, "notSent");
		// everything but the window in flight when the batch stopped
		assertThat(notSent).isGreaterThanOrEqualTo(10_000_000 - BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS - 1000);
		assertThat(number(output, "listed")).isEqualTo(10_000_000 - number(output, "success"));
		assertThat(number(output, "liveHeapMb")).isLessThan(32);
	}

	@Test
	@Timeout(value = 8, unit = TimeUnit.MINUTES)
	void withRetryABatchCarriesOnThroughAServerKilledAndRestartedAndRunsNothingTwice()
			throws IOException, InterruptedException {
		int commands = 10_000_000;
		try (RedisProcess server = RedisProcess.start("--appendonly", "yes", "--appendfsync", "always")) {
			Process process = startInSmallHeap(RetryThroughRestartMain.class, "128m", String.valueOf(server.port()),
					String.valueOf(commands));
			await().atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> counter(server) >= 2_000_000);
			server.restart();
			String output = finish(process);

			long size = number(output, "size");
			long success = number(output, "success");
			long unknown = number(output, "unknown");
			assertThat(size).isEqualTo(commands);
			assertThat(success + number(output, "failed") + unknown + number(output, "notSent")).isEqualTo(size);
			// the stream went on after the restart: nothing was left unsent
			assertThat(number(output, "notSent")).isZero();
			assertThat(number(output, "failed")).isZero();
			// at most the window that was in flight when the server died
			assertThat(unknown).isPositive().isLessThanOrEqualTo(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS);
			// nothing ran twice: every reply came after the write reached the append-only
			// file, so the counter holds every success and at most the unknown ones
			assertThat(counter(server)).isBetween(success, success + unknown);
		}
	}

	private static long counter(RedisProcess server) {
		Object value = server.call("GET", "counter");
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	static long number(String output, String name) {
		int at = output.indexOf(name + "=");
		if (at < 0) {
			throw new AssertionError("no " + name + " in " + output);
		}
		int start = at + name.length() + 1;
		int end = start;
		while (end < output.length() && Character.isDigit(output.charAt(end))) {
			end++;
		}
		return Long.parseLong(output.substring(start, end));
	}

	private static String runInSmallHeap(Class<?> main, String heap, RedisProcess server)
			throws IOException, InterruptedException {
		return finish(startInSmallHeap(main, heap, String.valueOf(server.port())));
	}

	static Process startInSmallHeap(Class<?> main, String heap, String... args) throws IOException {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError",
				"-cp", System.getProperty("java.class.path"), main.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		process.getOutputStream().close();
		return process;
	}

	static String finish(Process process) throws IOException, InterruptedException {
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
