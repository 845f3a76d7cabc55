package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every suite runs end to end against a real redis-server, through JMH in this JVM with
 * the runner's options and profilers, and gives its numbers. Nothing is timed or
 * compared: the numbers have to exist, and what can be counted is checked.
 */
class SuitesSmokeTests {

	private static final Profiles.Iterations BRIEF = new Profiles.Iterations(0, 1, 100, 3, 100, 0);

	private static RedisProcess redis;

	private static TcpProxy proxy;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
		proxy = TcpProxy.start(redis.port()).trackOutstandingRequests(false).roundTrip(Duration.ofMillis(1));
		System.setProperty(BenchmarkEnvironment.PORT, String.valueOf(redis.port()));
		System.setProperty(BenchmarkEnvironment.PROXY_PREFIX + "rtt1", String.valueOf(proxy.port()));
	}

	@AfterAll
	static void stopRedis() {
		System.clearProperty(BenchmarkEnvironment.PORT);
		System.clearProperty(BenchmarkEnvironment.PROXY_PREFIX + "rtt1");
		proxy.close();
		redis.close();
	}

	@Test
	void aPeersCellGivesItsTimeRateCpuAndConnectionsPerBatch() throws Exception {
		List<Row> rows = run(Suite.PEERS, Cell.batch(Strategies.BATCH_TEMPLATE, "GET", 10, "direct"));

		assertThat(row(rows, Metric.MS_PER_BATCH).hasInterval()).isTrue();
		assertThat(row(rows, Metric.COMMANDS_PER_S).mean()).isPositive();
		assertThat(row(rows, Metric.CPU_NS_PER_COMMAND).mean()).isPositive();
		assertThat(row(rows, Metric.CONNECTIONS_PER_1000).mean()).isZero();
	}

	@Test
	void executePipelinedWithoutAPoolOpensAConnectionPerBatch() throws Exception {
		List<Row> rows = run(Suite.PEERS, Cell.batch(Strategies.PIPELINED_NO_POOL, "SET", 10, "direct"));

		assertThat(row(rows, Metric.CONNECTIONS_PER_1000).mean()).isEqualTo(1000);
	}

	@Test
	void aSpringBatchCellAtADistanceGivesItsTimePerChunkRateAndCpuPerItem() throws Exception {
		long accepted = proxy.connectionsAccepted();
		List<Row> rows = run(Suite.SPRING_BATCH,
				Cell.batch(Strategies.REDIS_BATCH_ITEM_WRITER_EXACTLY_ONCE, "SET", 100, "rtt1"));

		assertThat(rows).extracting(Row::metric)
			.containsExactly(Metric.MS_PER_CHUNK, Metric.ITEMS_PER_S, Metric.CPU_NS_PER_COMMAND,
					Metric.SERVER_CPU_NS_PER_COMMAND);
		assertThat(rows).allSatisfy((row) -> assertThat(row.mean()).isPositive());
		assertThat(row(rows, Metric.MS_PER_CHUNK).mean()).isGreaterThanOrEqualTo(1);
		assertThat(proxy.connectionsAccepted() - accepted).isPositive();
		// every item was written; the exactly-once writer keeps its chunks' markers for
		// its
		// window, so that a chunk written again after a restart finds them
		List<?> keys = (List<?>) redis.call("KEYS", "*");
		assertThat(keys).map(String::valueOf).filteredOn((key) -> !key.startsWith("redis-batch:eo:")).hasSize(100);
		assertThat(keys).hasSizeGreaterThan(100);
	}

	@Test
	void aPairedCellAtADistanceGivesTheRatioAndBothClientsTimesAndCpu() throws Exception {
		long accepted = proxy.connectionsAccepted();
		List<Row> rows = run(Suite.PAIRED, Cell.batch(Strategies.BATCH_TEMPLATE, "SET", 10, "rtt1"));

		assertThat(rows).extracting(Row::metric)
			.containsExactly(Metric.RATIO, Metric.US_PER_BATCH, Metric.JEDIS_US_PER_BATCH, Metric.CPU_NS_PER_COMMAND,
					Metric.JEDIS_CPU_NS_PER_COMMAND);
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row.mean()).isPositive();
			assertThat(row.hasInterval()).isTrue();
		});
		// both clients went through the proxy, and every SET reached the server
		assertThat(proxy.connectionsAccepted() - accepted).isGreaterThanOrEqualTo(2);
		assertThat(redis.call("DBSIZE")).isEqualTo(10L);
	}

	@Test
	void theEventLoopVariantIsMeasuredInPairsToo() throws Exception {
		List<Row> rows = run(Suite.PAIRED, Cell.batch(Strategies.BATCH_TEMPLATE_EVENT_LOOP, "GET", 10, "direct"));

		assertThat(row(rows, Metric.RATIO).mean()).isPositive();
		assertThat(row(rows, Metric.CPU_NS_PER_COMMAND).mean()).isPositive();
	}

	@Test
	void autoBatchingCountsItsCommandsPerWriteAndTheServersCpu() throws Exception {
		List<Row> rows = run(Suite.CONCURRENCY,
				new Cell(SingleCommandClients.AUTO_BATCHING, "", 1, "direct", 4, false));

		assertThat(row(rows, Metric.COMMANDS_PER_S).mean()).isPositive();
		assertThat(row(rows, Metric.P99_MS).mean()).isGreaterThanOrEqualTo(row(rows, Metric.P50_MS).mean());
		assertThat(row(rows, Metric.SERVER_CPU_NS_PER_COMMAND).mean()).isPositive();
		assertThat(row(rows, Metric.COMMANDS_PER_WRITE).mean()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void bootsDefaultsHaveNoCommandsPerWrite() throws Exception {
		List<Row> rows = run(Suite.CONCURRENCY, new Cell(SingleCommandClients.BOOT, "", 1, "direct", 2, false));

		assertThat(rows).extracting(Row::metric).doesNotContain(Metric.COMMANDS_PER_WRITE);
		assertThat(row(rows, Metric.CPU_NS_PER_COMMAND).mean()).isPositive();
	}

	@Test
	void aMemoryRunCompletesAndGivesItsPeakHeapAndTheServersBuffers() throws Exception {
		List<Row> rows = run(Suite.MEMORY, new Cell(Strategies.BATCH_TEMPLATE, "SET", 20_000, "direct", 1, false));

		assertThat(row(rows, Metric.COMPLETED).mean()).isEqualTo(1);
		assertThat(row(rows, Metric.SECONDS).mean()).isPositive();
		assertThat(row(rows, Metric.PEAK_HEAP_MB).mean()).isPositive();
		assertThat(row(rows, Metric.SERVER_OMEM_MB).mean()).isGreaterThanOrEqualTo(0);
		// the benchmark leaves the server empty
		assertThat(redis.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void anExactlyOnceCellGivesTheRatioToThePlainBatchAndTheServersCpuBothWays() throws Exception {
		List<Row> rows = run(Suite.EXACTLY_ONCE,
				Cell.batch(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE, "SET", 10, "direct"));

		assertThat(row(rows, Metric.THROUGHPUT_RATIO).hasInterval()).isTrue();
		assertThat(row(rows, Metric.US_PER_BATCH).mean()).isPositive();
		assertThat(row(rows, Metric.PLAIN_US_PER_BATCH).mean()).isPositive();
		assertThat(row(rows, Metric.SERVER_CPU_NS_PER_COMMAND).mean()).isPositive();
		assertThat(row(rows, Metric.PLAIN_SERVER_CPU_NS_PER_COMMAND).mean()).isPositive();
	}

	@Test
	void theMarkersOfAChunkAreMeasuredAndTheServerIsLeftEmpty() throws Exception {
		List<Row> rows = ExactlyOnceMarkers.run(redis.port(),
				Cell.batch(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE, "INCR", 10, "direct"));

		// ten ":1\r\n" after "*10\r\n"
		assertThat(row(rows, Metric.MARKER_TEXT_BYTES).mean()).isEqualTo(45);
		assertThat(row(rows, Metric.MARKER_BYTES).mean()).isGreaterThan(45);
		assertThat(row(rows, Metric.PEAK_MARKERS).mean()).isPositive();
		assertThat(redis.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void politeModeMeasuresTheBaselineAndBothBackfillsWithTheCapAtHalfTheFullRate() throws Exception {
		List<Row> rows = PoliteModeBenchmark.run(redis.port(),
				new Cell(Strategies.BATCH_TEMPLATE, "", 5_000, "direct", 2, false));

		assertThat(rows.stream().map(Row::workload).distinct()).containsExactly("no backfill", "backfill at full speed",
				"backfill capped at 50%");
		assertThat(rows).filteredOn((row) -> row.metric() == Metric.GETS)
			.allSatisfy((row) -> assertThat(row.mean()).isPositive());
		double full = rows.stream()
			.filter((row) -> row.metric() == Metric.BACKFILL_PER_S && row.workload().equals("backfill at full speed"))
			.findFirst()
			.orElseThrow()
			.mean();
		assertThat(row(rows, Metric.CAP_PER_S).mean()).isEqualTo(Math.round(full / 2));
		assertThat(redis.call("DBSIZE")).isEqualTo(0L);
	}

	private static Row row(List<Row> rows, Metric metric) {
		return rows.stream().filter((row) -> row.metric() == metric).findFirst().orElseThrow();
	}

	/**
	 * One cell in this JVM: one short warmup and three short measured iterations; a batch
	 * answered other than expected fails the run.
	 */
	private static List<Row> run(Suite suite, Cell cell) throws Exception {
		Collection<RunResult> runs = new Runner(
				Main.options(suite, cell, BRIEF).verbosity(VerboseMode.SILENT).shouldFailOnError(true).build())
			.run();
		assertThat(runs).hasSize(1);
		return suite.rows(cell, runs.iterator().next());
	}

}
