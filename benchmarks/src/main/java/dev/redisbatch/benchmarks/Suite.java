package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.RunResult;

/**
 * The suites of the benchmarks: for each, the JMH benchmark, the profilers and JVM
 * options its forks run with, and how a result becomes {@link Row}s.
 */
enum Suite {

	/**
	 * {@code BatchTemplate} and its variants against Jedis, in pairs in one JVM.
	 */
	PAIRED("paired", "BatchTemplate against Jedis, in pairs", PairedBenchmark.class, List.of(CpuCostProfiler.class),
			BenchmarkEnvironment.HEAP, PairedBenchmark::rows),

	/**
	 * Every peer alone, by batch size and round trip, with its CPU and connections.
	 */
	PEERS("peers", "The peers side by side", PeersBenchmark.class,
			List.of(CpuCostProfiler.class, ConnectionsProfiler.class), BenchmarkEnvironment.HEAP, PeersBenchmark::rows),

	/**
	 * Spring Batch item writers, Spring Batch's own and redis-batch's, a chunk of items
	 * per write, with their CPU per item.
	 */
	SPRING_BATCH("spring-batch", "Spring Batch item writers: write(Chunk) of SET key value items", PeersBenchmark.class,
			List.of(CpuCostProfiler.class), BenchmarkEnvironment.HEAP, PeersBenchmark::writerRows),

	/**
	 * The application's template called by 1 to 256 threads, one command each.
	 */
	CONCURRENCY("concurrency", "Concurrent single commands", AutoBatchingBenchmark.class,
			List.of(CpuCostProfiler.class, CommandsPerWriteProfiler.class), BenchmarkEnvironment.HEAP,
			AutoBatchingBenchmark::rows),

	/**
	 * One batch of ten million SETs in a heap of 128 MB.
	 */
	MEMORY("memory", "One batch of SETs in a heap of 128 MB", MemoryBenchmark.class, List.of(HeapProfiler.class),
			List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError"), MemoryBenchmark::rows),

	/**
	 * {@code BatchTemplate}'s exactly-once batch against its plain batch, in pairs in one
	 * JVM, with the server's CPU per command each way.
	 */
	EXACTLY_ONCE("exactly-once", "Exactly-once against the plain batch, in pairs", ExactlyOnceBenchmark.class,
			List.of(), BenchmarkEnvironment.HEAP, ExactlyOnceBenchmark::rows),

	/**
	 * What the exactly-once markers hold in the server: not JMH, it runs in the runner's
	 * JVM ({@link ExactlyOnceMarkers}).
	 */
	MARKERS("markers", "Exactly-once markers in the server", null, List.of(), List.of(), (cell, run) -> List.of()),

	/**
	 * Online GET latency during a backfill, uncapped and capped: not JMH, it runs in the
	 * runner's JVM ({@link PoliteModeBenchmark}).
	 */
	POLITE("polite", "GET latency during a backfill", null, List.of(), List.of(), (cell, run) -> List.of());

	private final String id;

	private final String title;

	private final @Nullable Class<?> benchmark;

	private final List<Class<? extends InternalProfiler>> profilers;

	private final List<String> jvmArgs;

	private final BiFunction<Cell, RunResult, List<Row>> rows;

	Suite(String id, String title, @Nullable Class<?> benchmark, List<Class<? extends InternalProfiler>> profilers,
			List<String> jvmArgs, BiFunction<Cell, RunResult, List<Row>> rows) {
		this.id = id;
		this.title = title;
		this.benchmark = benchmark;
		this.profilers = profilers;
		this.jvmArgs = jvmArgs;
		this.rows = rows;
	}

	String id() {
		return this.id;
	}

	String title() {
		return this.title;
	}

	@Nullable Class<?> benchmark() {
		return this.benchmark;
	}

	List<Class<? extends InternalProfiler>> profilers() {
		return this.profilers;
	}

	List<String> jvmArgs() {
		return this.jvmArgs;
	}

	/**
	 * The numbers of a cell.
	 * @param cell the cell
	 * @param run its JMH result, or {@code null} when it has none
	 * @return the rows: none for a cell without a result, except in the memory suite,
	 * where a batch that failed or ran out of memory did not complete
	 */
	List<Row> rows(Cell cell, @Nullable RunResult run) {
		if (run != null) {
			return this.rows.apply(cell, run);
		}
		return (this == MEMORY) ? List.of(Row.of(this, cell, Metric.COMPLETED, 0)) : List.of();
	}

}
