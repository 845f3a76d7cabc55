package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The reply-path benchmarks run end to end at a tiny size against a real redis-server:
 * JMH in this JVM (no fork) with the suite's options, {@link CpuCostProfiler} and the
 * {@code gc} profiler, turned into the report's detail; and every strategy of the
 * concurrent scenario from several threads; and {@link PairedBenchmark}, whose
 * per-iteration counters {@link PairedRun} turns into its table. Nothing is timed or
 * compared: the numbers only have to exist.
 */
class ReplyPathBenchmarksSmokeTests {

	private static RedisProcess redis;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
		System.setProperty(BenchmarkEnvironment.PORT, String.valueOf(redis.port()));
	}

	@AfterAll
	static void stopRedis() {
		System.clearProperty(BenchmarkEnvironment.PORT);
		redis.close();
	}

	@Test
	void aReplyPathCellGivesItsIntervalPercentilesAndCostsPerCommand() throws Exception {
		SuitePlan.Cell cell = new SuitePlan.Cell(Strategies.BATCH_TEMPLATE, "GET", 10, "direct");
		SuiteResults.Timing timing = run(group(cell, SuitePlan.Measure.REPLY_PATH), cell);
		SuiteResults.Detail detail = timing.detail();
		assertThat(detail).isNotNull();
		assertThat(detail.threads()).isEqualTo(1);
		assertThat(detail.msPerBatch().samples()).isEqualTo(3);
		assertThat(detail.msPerBatch().lower()).isLessThanOrEqualTo(detail.msPerBatch().mean());
		assertThat(detail.msPerBatch().upper()).isGreaterThanOrEqualTo(detail.msPerBatch().mean());
		assertThat(detail.p50Ms()).isPositive();
		assertThat(detail.p99Ms()).isGreaterThanOrEqualTo(detail.p50Ms());
		assertThat(detail.batchesPerSecond().mean()).isPositive();
		SuiteResults.Cost cost = detail.cost();
		assertThat(cost.callerNs()).isPositive();
		// BatchTemplate's replies arrive on its connection's event loop
		assertThat(cost.loopNs()).isPositive();
		assertThat(cost.clientNs()).isPositive();
		assertThat(cost.serverNs()).isPositive();
		assertThat(cost.serverPercent()).isPositive();
		assertThat(cost.allocBytes()).isPositive();
		assertThat(timing.commandsPerSecond()).isPositive();
	}

	@Test
	void theLastIterationKeepsTheTimeOfTheEventLoopsTheTrialTeardownEnds() throws Exception {
		// JMH closes the clients (and ends their event loops) before the profiler reads
		// the
		// last iteration: the benchmark marks the iteration's end first
		SuitePlan.Cell cell = new SuitePlan.Cell(Strategies.BATCH_TEMPLATE, "SET", 10, "direct");
		SuitePlan.Group group = new SuitePlan.Group("test", "test",
				List.of(new SuitePlan.Block(List.of(cell.strategy()), List.of(cell.workload()), List.of(cell.n()),
						List.of(cell.network()))),
				new SuitePlan.Iterations(0, 100, 1, 200, 0), SuitePlan.Measure.REPLY_PATH);
		assertThat(run(group, cell).detail().cost().loopNs()).isPositive();
	}

	@Test
	void aBatchOfOneCommandIsMeasuredLikeAnyOther() throws Exception {
		SuitePlan.Cell cell = new SuitePlan.Cell(Strategies.JEDIS, "SET", 1, "direct");
		SuiteResults.Detail detail = run(group(cell, SuitePlan.Measure.REPLY_PATH), cell).detail();
		assertThat(detail).isNotNull();
		assertThat(detail.cost().callerNs()).isPositive();
		assertThat(detail.cost().serverNs()).isPositive();
	}

	@Test
	void theConcurrentScenarioGivesTheThroughputOfEveryThread() throws Exception {
		SuitePlan.Cell cell = new SuitePlan.Cell(ConcurrentReaders.JEDIS, "GET", 20, "direct");
		SuiteResults.Timing timing = run(group(cell, SuitePlan.Measure.concurrent(4)), cell);
		SuiteResults.Detail detail = timing.detail();
		assertThat(detail).isNotNull();
		assertThat(detail.threads()).isEqualTo(4);
		assertThat(detail.batchesPerSecond().mean()).isPositive();
		assertThat(timing.commandsPerSecond()).isEqualTo(20 * detail.batchesPerSecond().mean());
		assertThat(detail.p99Ms()).isPositive();
		assertThat(detail.cost().callerNs()).isPositive();
	}

	static List<String> concurrentStrategies() {
		return ConcurrentReaders.ids();
	}

	@ParameterizedTest
	@MethodSource("concurrentStrategies")
	void everyConcurrentStrategyReadsEveryThreadsKeysAndChecksThem(String id) throws Exception {
		int threads = 4;
		ConcurrentBenchmark benchmark = new ConcurrentBenchmark();
		benchmark.strategy = id;
		benchmark.n = 30;
		benchmark.prepare(threads);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Long>> reads = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				ConcurrentBenchmark.Keys keys = new ConcurrentBenchmark.Keys();
				keys.workload = ConcurrentBenchmark.keysOf(thread, 30);
				for (int batch = 0; batch < 5; batch++) {
					reads.add(executor.submit(() -> benchmark.batch(keys)));
				}
			}
			for (Future<Long> read : reads) {
				assertThat(read.get()).isEqualTo(30);
			}
			ConcurrentBenchmark.Keys missing = new ConcurrentBenchmark.Keys();
			missing.workload = ConcurrentBenchmark.keysOf(threads, 30);
			assertThatIllegalStateException().isThrownBy(() -> benchmark.batch(missing))
				.withMessageContaining("0 of 30");
		}
		finally {
			executor.shutdownNow();
			benchmark.tearDown();
		}
	}

	@Test
	void theJedisPoolOfTheConcurrentScenarioHasAConnectionPerThread() {
		try (JedisPipelineStrategy jedis = new JedisPipelineStrategy(BenchmarkEnvironment.direct(),
				ConcurrentReaders.CONNECTIONS)) {
			assertThat(jedis.maxConnections()).isEqualTo(SuitePlan.CONCURRENT_THREADS);
		}
	}

	@Test
	void aPrewarmReadsItsBatchesOnLoopbackWithAClientOfItsOwnAndChecksThem() {
		Workload keys = Workload.create(10, StrategyBenchmark.SEED);
		try (ServerControl server = new ServerControl(redis.port())) {
			server.flushAll();
			// nothing without the property
			String misses = server.info("stats").get("keyspace_misses");
			Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size());
			assertThat(server.info("stats")).containsEntry("keyspace_misses", misses);
			System.setProperty(Prewarm.SECONDS, "1");
			try {
				assertThatIllegalStateException()
					.isThrownBy(() -> Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size()))
					.withMessageContaining("(pre-warm): 0 of 10");
				server.load(keys);
				long hits = Long.parseLong(server.info("stats").get("keyspace_hits"));
				Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size());
				long read = Long.parseLong(server.info("stats").get("keyspace_hits")) - hits;
				// every batch read all its keys; at most BATCHES batches
				assertThat(read).isPositive().isLessThanOrEqualTo(10L * Prewarm.BATCHES);
				assertThat(read % 10).isZero();
			}
			finally {
				System.clearProperty(Prewarm.SECONDS);
			}
		}
	}

	@Test
	void thePairedBenchmarkGivesBothClientsTimesAndTheirRatioForEveryMeasuredIteration() throws Exception {
		Collection<RunResult> runs = runPaired("10", "false");

		assertCountersInEveryIteration(runs, 2, "ratio", "batchTemplateMicros", "jedisMicros", "batchTemplateCpuMicros",
				"jedisCpuMicros");
		// the SET cell's keys (the GET cell's were loaded): the benchmark checked every
		// reply, the server has the keys
		assertThat(redis.call("DBSIZE")).isEqualTo(10L);
		assertThat(PairedRun.table(runs)).contains("| GET 10, direct | ").contains("| SET 10, direct | ").contains("×");
	}

	@Test
	void withFloorsThePairedBenchmarkAlsoTimesAPlainSocketWithAndWithoutTheCheckOnBorrow() throws Exception {
		Collection<RunResult> runs = runPaired("1", "true");

		// every client's batch was checked: one reply as expected, or the run failed
		assertCountersInEveryIteration(runs, 2, "ratio", "floorCheckRatio", "floorRatio", "floorCheckMicros",
				"floorMicros", "floorCheckCpuMicros", "floorCpuMicros");
		assertThat(PairedRun.floorTable(runs)).contains("| GET 1, direct | ").contains("| SET 1, direct | ");
	}

	@Test
	void theConcurrentScenarioInPairsTimesBothClientsInEveryIteration() throws Exception {
		Collection<RunResult> runs = runBriefly(
				new OptionsBuilder().include(PairedConcurrentBenchmark.class.getName() + ".pair")
					.threads(4)
					.addProfiler(BatchLatencyProfiler.class));

		// every batch of each client was checked: 100 values as written, or the run
		// failed; the percentiles are those of every thread's batches
		assertCountersInEveryIteration(runs, 1, "pairs", "batchTemplateNanos", "jedisNanos", "batchTemplateCpuNanos",
				"jedisCpuNanos", "batchTemplateP50Millis", "batchTemplateP99Millis", "jedisP50Millis",
				"jedisP99Millis");
		for (RunResult run : runs) {
			List<Double> p50 = PairedRun.perIteration(run, "jedisP50Millis");
			assertThat(PairedRun.perIteration(run, "jedisP99Millis")).zipSatisfy(p50,
					(p99, median) -> assertThat(p99).isGreaterThanOrEqualTo(median));
		}
		// the keys of the 4 threads, 100 each
		assertThat(redis.call("DBSIZE")).isEqualTo(400L);
		assertThat(PairedRun.concurrentTable(runs)).contains("| BatchTemplate, pool of 32 | ")
			.contains("| Jedis pool of 32 | ")
			.containsPattern("\\| BatchTemplate, pool of 32 \\| [0-9.]+× \\[[^]]+] \\| [0-9.]+× \\[");
	}

	/**
	 * The paired benchmark's GET and SET cells of one size, in this JVM: three short
	 * measured iterations.
	 */
	private static Collection<RunResult> runPaired(String n, String floor) throws Exception {
		return runBriefly(new OptionsBuilder().include(PairedBenchmark.class.getName() + ".pair")
			.param("n", n)
			.param("workload", "GET", "SET")
			.param("floor", floor));
	}

	/**
	 * A benchmark in this JVM: no warmup, three short measured iterations; a batch
	 * answered other than expected fails the run.
	 */
	private static Collection<RunResult> runBriefly(ChainedOptionsBuilder options) throws Exception {
		return new Runner(options.forks(0)
			.warmupIterations(0)
			.measurementIterations(3)
			.measurementTime(TimeValue.milliseconds(100))
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true)
			.build()).run();
	}

	private static void assertCountersInEveryIteration(Collection<RunResult> runs, int cells, String... counters) {
		assertThat(runs).hasSize(cells);
		for (RunResult run : runs) {
			for (String counter : counters) {
				assertThat(PairedRun.perIteration(run, counter)).as(counter).hasSize(3).allSatisfy((value) -> {
					assertThat(value).isPositive();
				});
			}
		}
	}

	@Test
	void aPercentileIsTheValueAtItsNearestRank() {
		long[] sorted = new long[200];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = i + 1;
		}
		assertThat(BatchLatencyProfiler.percentile(sorted, 50)).isEqualTo(100);
		assertThat(BatchLatencyProfiler.percentile(sorted, 99)).isEqualTo(198);
		assertThat(BatchLatencyProfiler.percentile(new long[] { 7 }, 99)).isEqualTo(7);
	}

	@Test
	void theServerCpuIsReadFromInfo() {
		assertThat(ServerCpu.seconds("# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\n"
				+ "used_cpu_sys_children:9.000000\r\nused_cpu_user_children:9.000000\r\n"))
			.isEqualTo(3.75);
		try (ServerCpu server = new ServerCpu(redis.port())) {
			assertThat(server.seconds()).isPositive();
		}
	}

	private static SuitePlan.Group group(SuitePlan.Cell cell, SuitePlan.Measure measure) {
		return new SuitePlan.Group(
				"test", "test", List.of(new SuitePlan.Block(List.of(cell.strategy()), List.of(cell.workload()),
						List.of(cell.n()), List.of(cell.network()))),
				new SuitePlan.Iterations(0, 100, 3, 100, 0), measure);
	}

	private static SuiteResults.Timing run(SuitePlan.Group group, SuitePlan.Cell cell) throws Exception {
		String java = System.getProperty("java.home") + "/bin/java";
		Collection<RunResult> runs = new Runner(Main.options(group, cell, List.of(), java, null)
			.forks(0)
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true)
			.build()).run();
		assertThat(runs).hasSize(1);
		return MeasuredRuns.timing(group, cell, runs.iterator().next());
	}

}
