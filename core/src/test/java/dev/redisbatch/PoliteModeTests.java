package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.redisbatch.observation.BatchMetricsObservationHandler;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.VersionIndependent;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Polite mode on a standalone server: the rate cap holds over several seconds, measured
 * from the server's own counters and clock ({@code INFO commandstats}, {@code INFO stats}
 * and {@code server_time_usec}), never from the test's timing; the cap's waiting is not
 * part of any chunk's deadline, ends at an interrupt and reaches the observation; and a
 * server that is loading its data pauses a batch with retry instead of failing it.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@VersionIndependent
class PoliteModeTests {

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void theCommandRateCapHoldsOverSeveralSeconds(RedisProcess server) {
		long cap = 20_000;
		int commands = 100_000;
		StringBatchTemplate template = template(server.port(),
				BatchOptions.builder().chunkSize(500).maxCommandsPerSecond(cap).build());
		template.execute((batch) -> batch.get("warm-up"));

		List<long[]> samples = sampleWhile(server, "cmdstat_set",
				CompletableFuture.supplyAsync(() -> template.execute((batch) -> {
					for (int i = 0; i < commands; i++) {
						batch.set("key:" + i, "v");
					}
				})));

		assertRate(samples, cap, commands);
		assertThat(server.call("DBSIZE")).isEqualTo((long) commands);
	}

	@Test
	void theByteRateCapHoldsOverSeveralSeconds(RedisProcess server) {
		long cap = 1024 * 1024;
		String value = "v".repeat(1000);
		int commands = 4_000;
		StringBatchTemplate template = template(server.port(),
				BatchOptions.builder().chunkSize(50).maxBytesPerSecond(cap).build());
		template.execute((batch) -> batch.get("warm-up"));

		List<long[]> samples = sampleWhile(server, "total_net_input_bytes",
				CompletableFuture.supplyAsync(() -> template.execute((batch) -> {
					for (int i = 0; i < commands; i++) {
						batch.set("key:" + i, value);
					}
				})));

		// about 1,030 bytes a command: the run takes about 4 s at the cap
		assertRate(samples, cap, commands * 1_000L);
	}

	@Test
	void waitingForTheCapIsNotPartOfAnyChunksDeadline(RedisProcess server) {
		// each chunk of 100 waits about 200 ms for the cap, twice its deadline
		StringBatchTemplate template = template(server.port(),
				BatchOptions.builder()
					.chunkSize(100)
					.maxCommandsPerSecond(500)
					.timeout(Duration.ofMillis(100))
					.build());

		BatchResults results = template.execute((batch) -> {
			for (int i = 0; i < 1_000; i++) {
				batch.incr("counter");
			}
		});

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(1_000);
		assertThat(server.call("GET", "counter")).isEqualTo("1000");
	}

	@Test
	void anInterruptWhileWaitingForTheCapStopsTheBatchAndKeepsTheFlag(RedisProcess server) throws Exception {
		StringBatchTemplate template = template(server.port(),
				BatchOptions.builder().chunkSize(10).maxCommandsPerSecond(100).build());
		AtomicReference<BatchException> failure = new AtomicReference<>();
		AtomicBoolean flagKept = new AtomicBoolean();
		Thread runner = new Thread(() -> {
			try {
				template.execute((batch) -> {
					for (int i = 0; i < 10_000; i++) {
						batch.incr("counter");
					}
				});
			}
			catch (BatchException ex) {
				failure.set(ex);
			}
			flagKept.set(Thread.currentThread().isInterrupted());
		});
		runner.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> calls(server, "cmdstat_incr") >= 30);

		runner.interrupt();
		runner.join(Duration.ofSeconds(10).toMillis());

		assertThat(runner.isAlive()).isFalse();
		assertThat(flagKept).isTrue();
		BatchResults results = failure.get().getResults();
		assertThat(results.size()).isEqualTo(10_000);
		assertThat(results.count(Outcome.NOT_SENT)).isGreaterThan(9_000);
		assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN) + results.count(Outcome.NOT_SENT))
			.isEqualTo(10_000);
		assertThat(Long.parseLong(String.valueOf(server.call("GET", "counter"))))
			.isBetween(results.count(Outcome.SUCCESS), results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN));
	}

	@Test
	void theObservationShowsTheTimeSpentWaitingOnTheCap(RedisProcess server) {
		TestObservationRegistry registry = TestObservationRegistry.create();
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		registry.observationConfig().observationHandler(new BatchMetricsObservationHandler(meters));
		StringBatchTemplate template = template(server.port(), BatchOptions.defaults());
		template.setObservationRegistry(registry);

		template.execute(BatchOptions.builder().name("backfill").chunkSize(100).maxCommandsPerSecond(500).build(),
				(batch) -> {
					for (int i = 0; i < 300; i++) {
						batch.set("key:" + i, "v");
					}
				});
		template.execute(BatchOptions.builder().name("online").build(), (batch) -> batch.set("key", "v"));

		// at 500 a second the bucket holds 50: each chunk of 100 waits for at least 50
		// more
		// (0.1 s), however fast or slow the machine records, so the three chunks waited
		// 0.3 s at least (a slower machine only adds to it)
		Timer throttled = meters.get("redis.batch.throttle.wait").tag("name", "backfill").timer();
		assertThat(throttled.count()).isOne();
		assertThat(throttled.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(300);
		assertThat(meters.find("redis.batch.throttle.wait").tag("name", "online").timer()).isNull();
		TestObservationRegistryAssert.assertThat(registry)
			.hasAnObservation((observation) -> observation.hasLowCardinalityKeyValue("name", "backfill")
				.hasHighCardinalityKeyValueWithKey("redis.batch.throttle.wait.ms"))
			.hasAnObservation((observation) -> observation.hasLowCardinalityKeyValue("name", "online")
				.doesNotHaveHighCardinalityKeyValueWithKey("redis.batch.throttle.wait.ms"));
	}

	@Test
	void aServerLoadingItsDataPausesABatchWithRetryInsteadOfFailingIt() {
		// DEBUG is allowed from local clients only after this flag on Redis 7; 6.2 has no
		// such flag and always allows it
		RedisProcess server = track((RedisServerBinary.locate().majorVersion() >= 7)
				? RedisProcess.start("--enable-debug-command", "local") : RedisProcess.start());
		// about 100 MB on disk: a couple of seconds of LOADING after a restart
		server.call("DEBUG", "POPULATE", "1500000", "filler", "64");
		server.call("SAVE");
		server.restartWhileLoading();
		assertThat(server.info("persistence").get("loading")).isEqualTo("1");
		StringBatchTemplate template = template(server.port(), BatchOptions.builder().chunkSize(100).build());

		BatchException refused = catchThrowableOfType(BatchException.class,
				() -> template.execute((batch) -> write(batch, "refused:")));
		BatchResults paused = template.execute(BatchOptions.builder().retry(10, Duration.ofSeconds(1)).build(),
				(batch) -> write(batch, "key:"));

		// without retry, LOADING fails the commands; with it, the batch waits for the
		// server and completes
		assertThat(refused.getResults().failures()).isNotEmpty()
			.allSatisfy((failure) -> assertThat(failure.message()).startsWith("LOADING"));
		assertThat(paused.count(Outcome.SUCCESS)).isEqualTo(1_000);
		assertThat(server.call("GET", "key:999")).isEqualTo("v");
		assertThat(server.call("GET", "refused:0")).isNull();
		String setStats = server.info("commandstats").get("cmdstat_set");
		assertThat(setStats).contains("calls=1000,");
		assertThat(Long.parseLong(setStats.replaceAll(".*rejected_calls=(\\d+).*", "$1"))).isPositive();
		assertThat(server.info("persistence").get("loading")).isEqualTo("0");
	}

	@Test
	void withoutBucket4jACapIsAClearErrorAndBatchesWithoutOneRun(RedisProcess server) throws Exception {
		String classPath = java.util.Arrays
			.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
			.filter((entry) -> !entry.contains("bucket4j"))
			.collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
		Process process = new ProcessBuilder(
				java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
				WithoutBucket4jMain.class.getName(), String.valueOf(server.port()))
			.redirectErrorStream(true)
			.start();

		String output = BoundedMemoryTests.finish(process);

		assertThat(output).contains("RESULT bucket4j=false plain=true message=maxCommandsPerSecond caps the batch's "
				+ "rate with Bucket4j, which is not on the classpath: add the dependency com.bucket4j:bucket4j_jdk17-core");
		assertThat(server.call("GET", "plain")).isEqualTo("ran");
	}

	private static void write(Batch<String, String> batch, String prefix) {
		for (int i = 0; i < 1_000; i++) {
			batch.set(prefix + i, "v");
		}
	}

	/**
	 * Sample a server counter with the server's clock while the batch runs, then once
	 * more after it ended.
	 * @return (server time in microseconds, counter) pairs
	 */
	private static List<long[]> sampleWhile(RedisProcess server, String counter,
			CompletableFuture<BatchResults> running) {
		List<long[]> samples = new ArrayList<>();
		await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
			samples.add(sample(server, counter));
			return running.isDone();
		});
		assertThat(running.join().isSuccess()).isTrue();
		samples.add(sample(server, counter));
		return samples;
	}

	private static long[] sample(RedisProcess server, String counter) {
		Map<String, String> info = info(server);
		String value = info.get(counter);
		long count = (value == null) ? 0 : value.startsWith("calls=") ? calls(value) : Long.parseLong(value);
		return new long[] { Long.parseLong(info.get("server_time_usec")), count };
	}

	/**
	 * The cap holds: the run lasts several seconds, as it must at the cap, and over the
	 * whole run and over any second or more of it, the server counted no more than the
	 * cap allows (a tenth of a second's worth at once, plus the chunk that goes after its
	 * wait). A busy machine can only make the run slower, never fail these bounds; how
	 * close to the cap a batch gets is measured by the polite-mode benchmark
	 * ({@code PoliteModeBenchmark}), not asserted here.
	 */
	private static void assertRate(List<long[]> samples, long cap, long total) {
		int first = 0;
		while (first < samples.size() && samples.get(first)[1] < total / 50) {
			first++;
		}
		int last = samples.size() - 1;
		while (last > first && samples.get(last - 1)[1] >= total) {
			last--;
		}
		long[] from = samples.get(first);
		long[] to = samples.get(last - 1);
		double seconds = (to[0] - from[0]) / 1e6;
		assertThat(seconds).as("a run of several seconds").isGreaterThan(2.0);
		double rate = (to[1] - from[1]) / seconds;
		assertThat(rate).as("rate over the run").isLessThanOrEqualTo(cap * 1.05);
		for (int i = 0; i < samples.size(); i++) {
			for (int j = i + 1; j < samples.size(); j++) {
				double window = (samples.get(j)[0] - samples.get(i)[0]) / 1e6;
				if (window >= 1.0) {
					long counted = samples.get(j)[1] - samples.get(i)[1];
					assertThat((double) counted).as("over %.2f s", window)
						.isLessThanOrEqualTo(cap * window * 1.05 + cap * 0.15);
				}
			}
		}
	}

	private static Map<String, String> info(RedisProcess server) {
		// one section per call: Redis 6.2 answers the first section only when asked for
		// several
		StringBuilder reply = new StringBuilder();
		for (String section : List.of("server", "stats", "commandstats")) {
			reply.append(server.call("INFO", section)).append("\r\n");
		}
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : reply.toString().split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return fields;
	}

	private static long calls(RedisProcess server, String command) {
		String stats = info(server).get(command);
		return (stats != null) ? calls(stats) : 0;
	}

	private static long calls(String stats) {
		return Long.parseLong(stats.substring(stats.indexOf("calls=") + 6, stats.indexOf(',')));
	}

	private StringBatchTemplate template(int port, BatchOptions defaults) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port)).build());
		return new StringBatchTemplate(pool, defaults);
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
