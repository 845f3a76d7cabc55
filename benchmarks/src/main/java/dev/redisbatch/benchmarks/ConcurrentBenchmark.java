package dev.redisbatch.benchmarks;

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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The concurrent scenario, as a web service runs it: every JMH thread repeats a batch of
 * {@code n} GETs of keys of its own (they exist), through one client shared by all
 * threads, and each batch is timed.
 * <p>
 * The suite's {@link Main} runs it with {@value SuitePlan#CONCURRENT_THREADS} threads and
 * {@link CpuCostProfiler}, which gives the throughput ({@code batches/s}). Each trial
 * flushes the server and loads the keys of every thread; when the profile asks for it,
 * one thread first repeats the batch of the first ({@link Prewarm}). Every batch checks
 * its values.
 *
 * @since 0.1.0
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(SuitePlan.CONCURRENT_THREADS)
@Fork(1)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 2, time = 10)
public class ConcurrentBenchmark {

	/**
	 * The strategy id (see {@code ConcurrentReaders}).
	 */
	@Param({ ConcurrentReaders.BATCH_TEMPLATE })
	public String strategy = ConcurrentReaders.BATCH_TEMPLATE;

	/**
	 * Only {@code GET}: a parameter so that the suite names the cells of every group
	 * alike.
	 */
	@Param({ "GET" })
	public String workload = "GET";

	/**
	 * The GETs of one batch.
	 */
	@Param({ "100" })
	public int n = SuitePlan.CONCURRENT_BATCH;

	/**
	 * {@code direct}, or through the latency-adding proxy.
	 */
	@Param({ "direct" })
	public String network = "direct";

	private BatchReader reader;

	/**
	 * Load the keys of every thread and create the strategy's clients.
	 * @param params the benchmark's parameters, for the number of threads
	 */
	@Setup(Level.Trial)
	public void setUp(BenchmarkParams params) {
		prepare(params.getThreads());
	}

	/**
	 * Load the keys of this many threads and create the strategy's clients.
	 * @param threads the number of threads
	 */
	void prepare(int threads) {
		if (!"GET".equals(this.workload)) {
			throw new IllegalArgumentException("The concurrent scenario reads: GET, not " + this.workload);
		}
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			server.flushAll();
			for (int thread = 0; thread < threads; thread++) {
				server.load(keysOf(thread, this.n));
			}
		}
		this.reader = ConcurrentReaders.create(this.strategy, BenchmarkEnvironment.endpoint(this.network));
		// one thread first: 32 threads on two cores leave the JIT compiler little time
		Workload first = keysOf(0, this.n);
		Prewarm.run(() -> batch(first));
	}

	/**
	 * The keys of one thread.
	 * @param thread the thread's index
	 * @param n the keys of a batch
	 * @return the keys and their values
	 */
	static Workload keysOf(int thread, int n) {
		return Workload.create(n, StrategyBenchmark.SEED + 1 + thread);
	}

	/**
	 * Read every key of the thread's batch once, and check the values.
	 * @param keys the thread's keys
	 * @return the number of values read as written
	 */
	@Benchmark
	public long batch(Keys keys) {
		return batch(keys.workload);
	}

	private long batch(Workload workload) {
		long read = this.reader.read(workload);
		if (read != workload.size()) {
			throw new IllegalStateException(
					this.strategy + ": " + read + " of " + workload.size() + " values read as written");
		}
		return read;
	}

	/**
	 * Mark the end of the iteration for {@link CpuCostProfiler}, before the trial's
	 * teardown closes the clients and their event loops.
	 */
	@TearDown(Level.Iteration)
	public void iterationEnded() {
		CpuCostProfiler.iterationEnded(this.network);
	}

	/**
	 * Close the strategy's clients.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.reader != null) {
			this.reader.close();
		}
	}

	/**
	 * The keys of one thread.
	 *
	 * @since 0.1.0
	 */
	@State(Scope.Thread)
	public static class Keys {

		Workload workload;

		/**
		 * Generate the keys of this thread (the benchmark's setup loaded them).
		 * @param benchmark the benchmark's parameters
		 * @param thread this thread's index
		 */
		@Setup(Level.Trial)
		public void setUp(BenchmarkParams benchmark, ThreadParams thread) {
			this.workload = keysOf(thread.getThreadIndex(), Integer.parseInt(benchmark.getParam("n")));
		}

	}

}
