package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The concurrent scenario in pairs: {@value SuitePlan#CONCURRENT_THREADS} threads, each
 * repeating a batch of {@value SuitePlan#CONCURRENT_BATCH} GETs of keys of its own, one
 * batch through {@code BatchTemplate} (pool of 32) and one through the Jedis pool of 32,
 * in alternating order. Both clients see the same load and the same moments of the
 * machine, so a change of the VM's speed during the run moves both; the scenario of
 * {@link ConcurrentBenchmark} measures them one after the other instead.
 * <p>
 * Every thread adds each client's wall and CPU nanoseconds to counters of its own, which
 * JMH sums over the threads per iteration; {@link PairedRun} ({@code --concurrent}) makes
 * the ratio of the sums per iteration. With as many batches of each, Jedis's time ÷
 * {@code BatchTemplate}'s is the ratio of their throughputs at this concurrency. With
 * {@link BatchLatencyProfiler} (as {@code PairedRun} adds it), each iteration also gives
 * the p50 and p99 of each client's batch times over all threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(SuitePlan.CONCURRENT_THREADS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 4, time = 5)
@Fork(value = 3, jvmArgsAppend = { BenchmarkEnvironment.HEAP_MIN, BenchmarkEnvironment.HEAP_MAX,
		BenchmarkEnvironment.PRE_TOUCH })
public class PairedConcurrentBenchmark {

	/**
	 * {@code BatchTemplate}'s reader, then the Jedis pool's: the order of
	 * {@link PairTimes#tallies}.
	 */
	private BatchReader[] readers;

	/**
	 * Load the keys of every thread, open both clients and pre-warm each with one thread.
	 * @param params the benchmark's parameters, for the number of threads
	 */
	@Setup(Level.Trial)
	public void setUp(BenchmarkParams params) {
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			server.flushAll();
			for (int thread = 0; thread < params.getThreads(); thread++) {
				server.load(ConcurrentBenchmark.keysOf(thread, SuitePlan.CONCURRENT_BATCH));
			}
		}
		Endpoint endpoint = BenchmarkEnvironment.direct();
		this.readers = new BatchReader[] { ConcurrentReaders.create(ConcurrentReaders.BATCH_TEMPLATE, endpoint),
				ConcurrentReaders.create(ConcurrentReaders.JEDIS, endpoint) };
		Workload first = ConcurrentBenchmark.keysOf(0, SuitePlan.CONCURRENT_BATCH);
		for (BatchReader reader : this.readers) {
			Prewarm.run(() -> check(reader.read(first), first));
		}
	}

	/**
	 * One batch with each client, the first one swapped every time.
	 * @param keys this thread's keys
	 * @param times this thread's counters
	 */
	@Benchmark
	public void pair(Keys keys, PairTimes times) {
		times.first ^= 1;
		for (int i = 0; i < 2; i++) {
			int client = times.first ^ i;
			BatchReader reader = this.readers[client];
			long[] tally = times.tallies[client];
			long before = tally[0];
			long read = PairedBenchmark.timed(times.threads, () -> reader.read(keys.workload), tally);
			times.samples.add(client, tally[0] - before);
			check(read, keys.workload);
		}
		times.pairs++;
	}

	private static void check(long read, Workload keys) {
		if (read != keys.size()) {
			throw new IllegalStateException(read + " of " + keys.size() + " values read as written");
		}
	}

	/**
	 * Close both clients.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.readers != null) {
			for (BatchReader reader : this.readers) {
				reader.close();
			}
		}
	}

	/**
	 * The keys of one thread, as in the concurrent scenario.
	 */
	@State(Scope.Thread)
	public static class Keys {

		Workload workload;

		/**
		 * Generate this thread's keys (the benchmark's setup loaded them).
		 * @param thread this thread's index
		 */
		@Setup(Level.Trial)
		public void setUp(ThreadParams thread) {
			this.workload = ConcurrentBenchmark.keysOf(thread.getThreadIndex(), SuitePlan.CONCURRENT_BATCH);
		}

	}

	/**
	 * One thread's wall and CPU nanoseconds per client over an iteration, reported as JMH
	 * event counters (summed over the threads).
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class PairTimes {

		final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

		/**
		 * {@code BatchTemplate}'s and Jedis's: wall, then CPU nanoseconds.
		 */
		final long[][] tallies = { new long[2], new long[2] };

		int first;

		long pairs;

		/**
		 * Each batch's wall time, for {@link BatchLatencyProfiler}.
		 */
		BatchLatencyProfiler.Samples samples;

		/**
		 * Keep this thread's batch times where the profiler reads them.
		 */
		@Setup(Level.Trial)
		public void register() {
			this.samples = BatchLatencyProfiler.Samples.register();
		}

		/**
		 * This thread is done: the profiler reads its last iteration's samples and no
		 * more.
		 */
		@TearDown(Level.Trial)
		public void retire() {
			this.samples.retire();
		}

		/**
		 * Start the iteration's counts from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			for (long[] tally : this.tallies) {
				tally[0] = 0;
				tally[1] = 0;
			}
			this.pairs = 0;
		}

		public long batchTemplateNanos() {
			return this.tallies[0][0];
		}

		public long jedisNanos() {
			return this.tallies[1][0];
		}

		public long batchTemplateCpuNanos() {
			return this.tallies[0][1];
		}

		public long jedisCpuNanos() {
			return this.tallies[1][1];
		}

		public long pairs() {
			return this.pairs;
		}

	}

}
