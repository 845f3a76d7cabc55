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
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-batching scenario runs end to end against a real redis-server: every strategy
 * from several threads, one cell through JMH in this JVM with the suite's options and
 * profilers, the plan of its profiles and its report. Nothing is timed or compared: the
 * numbers only have to exist.
 */
class AutoBatchingBenchmarkSmokeTests {

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

	static List<String> strategies() {
		return SingleCommandClients.ids();
	}

	@ParameterizedTest
	@MethodSource("strategies")
	void everyStrategyReadsAndWritesTheKeyOfEveryThread(String id) throws Exception {
		int threads = 4;
		AutoBatchingBenchmark benchmark = new AutoBatchingBenchmark();
		benchmark.strategy = id;
		benchmark.prepare(threads);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Integer>> calls = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				AutoBatchingBenchmark.Caller caller = new AutoBatchingBenchmark.Caller();
				caller.key = AutoBatchingBenchmark.keyOf(thread);
				calls.add(executor.submit(() -> {
					int reads = 0;
					for (int i = 0; i < 50; i++) {
						if (benchmark.batch(caller) != null) {
							reads++;
						}
					}
					return reads;
				}));
			}
			for (Future<Integer> call : calls) {
				assertThat(call.get()).isEqualTo(25);
			}
			assertThat(redis.call("GET", AutoBatchingBenchmark.keyOf(threads - 1)))
				.isEqualTo(AutoBatchingBenchmark.VALUE);
		}
		finally {
			executor.shutdownNow();
			benchmark.tearDown();
		}
	}

	@Test
	void anAutoBatchingCellGivesItsPercentilesCostsAndCommandsPerWrite() throws Exception {
		SuitePlan.Cell cell = new SuitePlan.Cell(SingleCommandClients.AUTO_BATCHING, "GETSET", 1, "direct");
		SuiteResults.Timing timing = run(cell, SuitePlan.Measure.singleCommands(4, false));
		SuiteResults.Detail detail = timing.detail();
		assertThat(detail).isNotNull();
		assertThat(detail.threads()).isEqualTo(4);
		assertThat(detail.p50Ms()).isPositive();
		assertThat(detail.p999Ms()).isGreaterThanOrEqualTo(detail.p99Ms()).isGreaterThanOrEqualTo(detail.p50Ms());
		assertThat(detail.commandsPerWrite()).isGreaterThanOrEqualTo(1.0);
		assertThat(detail.cost().callerNs()).isPositive();
		assertThat(detail.cost().loopNs()).isPositive();
		assertThat(detail.cost().serverNs()).isPositive();
		assertThat(timing.commandsPerSecond()).isPositive();
	}

	@Test
	void withoutAutoBatchingThereIsNoCommandsPerWrite() throws Exception {
		SuitePlan.Cell cell = new SuitePlan.Cell(SingleCommandClients.BOOT, "GETSET", 1, "direct");
		SuiteResults.Detail detail = run(cell, SuitePlan.Measure.singleCommands(2, false)).detail();
		assertThat(detail.commandsPerWrite()).isNaN();
		assertThat(detail.cost().serverNs()).isPositive();
	}

	@Test
	void theProfilesHaveAGroupPerNumberOfThreadsWithEveryStrategyOnBothNetworks() {
		SuitePlan plan = SuitePlan.of("auto-batching");
		assertThat(plan.groups()).extracting(SuitePlan.Group::name)
			.containsExactly("auto-batching-1", "auto-batching-16", "auto-batching-64", "auto-batching-256",
					"auto-batching-v256", "auto-batching-v1024");
		assertThat(plan.groups()).allSatisfy((group) -> {
			assertThat(group.iterations().forks()).isGreaterThanOrEqualTo(3);
			assertThat(group.measure().benchmark()).isEqualTo(AutoBatchingBenchmark.class);
			assertThat(group.cells()).hasSize(SingleCommandClients.ids().size() * 2);
		});
		assertThat(plan.group("auto-batching-v1024").orElseThrow().measure().virtualThreads()).isTrue();
		assertThat(plan.steps()).isEmpty();
		assertThat(plan.publishDirectory(java.nio.file.Path.of("docs")))
			.isEqualTo(java.nio.file.Path.of("docs", "auto-batching"));
		assertThat(SuitePlan.of("auto-batching-smoke").isSmoke()).isTrue();
	}

	@Test
	void theReportJudgesTheTargetsAgainstBootsDefaultsOnLoopback() {
		SuiteResults results = new SuiteResults();
		// Boot's defaults and auto-batching at 64 and at 1 thread
		results.timings.add(timing("auto-batching-64", SingleCommandClients.BOOT, 64, 40_000, 3.6, 10_000));
		results.timings.add(timing("auto-batching-64", SingleCommandClients.AUTO_BATCHING, 64, 90_000, 2.0, 2_000));
		results.timings.add(timing("auto-batching-1", SingleCommandClients.BOOT, 1, 10_000, 0.20, 20_000));
		results.timings.add(timing("auto-batching-1", SingleCommandClients.AUTO_BATCHING, 1, 10_000, 0.25, 20_000));
		StringBuilder md = new StringBuilder();

		new AutoBatchingReport(results, md).write();

		assertThat(md.toString()).contains("## Auto-batching: concurrent single commands")
			.contains("| throughput ≥ 2.00× Boot's defaults', 64 threads | 2.25× | met |")
			.contains("| server CPU per command ≤ 0.30× Boot's defaults', 64 threads | 0.20× | met |")
			.contains("| p99 ≤ 1.10× Boot's defaults', 1 thread | 1.25× | **missed** |")
			.contains("| 64 | redis-batch auto-batching | 90,000 |");
	}

	private static SuiteResults.Timing timing(String group, String strategy, int threads, double commandsPerSecond,
			double p99, double serverNs) {
		double msPerCommand = threads * 1000.0 / commandsPerSecond;
		SuiteResults.Interval time = new SuiteResults.Interval(msPerCommand, msPerCommand, msPerCommand, 3);
		SuiteResults.Interval rate = new SuiteResults.Interval(commandsPerSecond, commandsPerSecond, commandsPerSecond,
				3);
		SuiteResults.Cost cost = new SuiteResults.Cost(1000, 2000, 100, 3100, serverNs, 50, 150, 200);
		SuiteResults.Detail detail = new SuiteResults.Detail(threads, 3, time, List.of(msPerCommand), p99 / 2, p99,
				rate, cost, p99 * 2, strategy.equals(SingleCommandClients.AUTO_BATCHING) ? 20 : Double.NaN);
		return new SuiteResults.Timing(group, strategy, "GETSET", 1, 1, "direct", 0, msPerCommand, 0, 3, detail);
	}

	private static SuiteResults.Timing run(SuitePlan.Cell cell, SuitePlan.Measure measure) throws Exception {
		SuitePlan.Group group = new SuitePlan.Group(
				"auto-batching-test", "test", List.of(new SuitePlan.Block(List.of(cell.strategy()),
						List.of(cell.workload()), List.of(cell.n()), List.of(cell.network()))),
				new SuitePlan.Iterations(0, 100, 3, 200, 0), measure);
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
