package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;

/**
 * One batch of {@code n} SETs with a TTL in a small heap (the runner forks it with
 * {@code -Xmx128m -XX:+ExitOnOutOfMemoryError}), keys generated on the fly because an
 * input map of ten million entries would not fit. The batch fails unless every SET ran on
 * the server ({@code INFO commandstats}); a client that runs out of memory ends its JVM,
 * and the run has no result. {@link HeapProfiler} watches the heap and the server's
 * output buffers meanwhile.
 *
 * @since 0.1.0
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = { "-Xmx128m", "-XX:+ExitOnOutOfMemoryError" })
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class MemoryBenchmark {

	private static final int KEY_SPACE = 1_000_000;

	private static final String VALUE = "v".repeat(Workload.VALUE_SIZE);

	/**
	 * The strategy id (see {@code Strategies}).
	 */
	@Param({ Strategies.BATCH_TEMPLATE })
	public String strategy = Strategies.BATCH_TEMPLATE;

	/**
	 * The SETs of the batch.
	 */
	@Param({ "10000000" })
	public int n = 10_000_000;

	private Strategy subject;

	/**
	 * Empty the server and create the strategy.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		BenchmarkEnvironment.server().reset(null);
		this.subject = Strategies.create(this.strategy, BenchmarkEnvironment.direct());
	}

	/**
	 * Send the batch, watching the heap and the server, and check that every SET ran.
	 */
	@Benchmark
	public void batch() {
		Server server = BenchmarkEnvironment.server();
		long before = server.stringWrites();
		HeapProfiler.Watch watch = HeapProfiler.watch();
		try {
			this.subject.setGenerated(this.n, (i) -> Workload.key(ThreadLocalRandom.current().nextInt(KEY_SPACE)),
					VALUE);
		}
		finally {
			watch.stop();
		}
		BatchBenchmark.checked(this.strategy, server.stringWrites() - before, this.n);
	}

	/**
	 * Close the strategy's clients and empty the server.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.subject != null) {
			this.subject.close();
		}
		BenchmarkEnvironment.server().reset(null);
	}

	/**
	 * The numbers of a run: whether the batch completed, its time, the peak heap, the
	 * peak live heap and the server's peak output buffer.
	 * @param cell the cell
	 * @param run its result, {@code null} when the batch failed or its JVM ran out of
	 * memory
	 * @return the rows
	 */
	static List<Row> rows(Cell cell, RunResult run) {
		return List.of(Row.of(Suite.MEMORY, cell, Metric.COMPLETED, 1),
				Row.of(Suite.MEMORY, cell, Metric.SECONDS, Row.samples(run, null)),
				Row.of(Suite.MEMORY, cell, Metric.PEAK_HEAP_MB, Row.samples(run, HeapProfiler.PEAK_HEAP)),
				Row.of(Suite.MEMORY, cell, Metric.PEAK_LIVE_MB, Row.samples(run, HeapProfiler.PEAK_LIVE)),
				Row.of(Suite.MEMORY, cell, Metric.SERVER_OMEM_MB, Row.samples(run, HeapProfiler.OMEM)));
	}

}
