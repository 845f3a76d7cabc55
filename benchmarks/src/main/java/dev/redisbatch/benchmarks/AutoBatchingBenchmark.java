package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Concurrent single commands, as request threads send them: every JMH thread calls the
 * application's {@code StringRedisTemplate} with one command at a time, a SET and a GET
 * of a small value in turn, of a key of its own. Each operation is one command, and each
 * is timed.
 * <p>
 * The runner ({@link Main}) runs it with 1 to 256 platform threads, and 256 and 1,024
 * virtual threads ({@code -Djmh.executor=VIRTUAL}) when the forks' JDK has them (21 and
 * later), with {@link CpuCostProfiler} and {@link CommandsPerWriteProfiler}. Each trial
 * empties the server and writes the key of every thread; every GET checks its value.
 *
 * @since 0.1.0
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(16)
@Fork(1)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 2)
public class AutoBatchingBenchmark {

	/**
	 * The value every thread writes and reads: small, as a cache entry's flag or id.
	 */
	static final String VALUE = "value-0123456789";

	/**
	 * Whether JMH runs the benchmark's threads as virtual threads.
	 */
	static final boolean VIRTUAL_THREADS = "VIRTUAL".equals(System.getProperty("jmh.executor"));

	/**
	 * The strategy id (see {@code SingleCommandClients}).
	 */
	@Param({ SingleCommandClients.AUTO_BATCHING })
	public String strategy = SingleCommandClients.AUTO_BATCHING;

	/**
	 * {@code direct}, or through the latency-adding proxy.
	 */
	@Param({ BenchmarkEnvironment.DIRECT })
	public String network = BenchmarkEnvironment.DIRECT;

	private ConfigurableApplicationContext context;

	private StringRedisTemplate template;

	/**
	 * Write the key of every thread and start the strategy's application context.
	 * @param params the benchmark's parameters, for the number of threads
	 */
	@Setup(Level.Trial)
	public void setUp(BenchmarkParams params) {
		prepare(params.getThreads());
	}

	/**
	 * Write the key of this many threads and start the strategy's application context.
	 * @param threads the number of threads
	 */
	void prepare(int threads) {
		BenchmarkEnvironment.server().reset(null);
		this.context = SingleCommandClients.start(this.strategy, BenchmarkEnvironment.endpoint(this.network), threads);
		this.template = SingleCommandClients.template(this.context);
		for (int thread = 0; thread < threads; thread++) {
			this.template.opsForValue().set(keyOf(thread), VALUE);
		}
	}

	/**
	 * The key of one thread.
	 * @param thread the thread's index
	 * @return the key
	 */
	static String keyOf(int thread) {
		return "auto-batching:" + thread;
	}

	/**
	 * One command: a GET of the thread's key, checked, or a SET of it, in turn.
	 * @param caller the thread's key and turn
	 * @return the value read, or {@code null} after a SET
	 */
	@Benchmark
	public String batch(Caller caller) {
		caller.set = !caller.set;
		if (caller.set) {
			this.template.opsForValue().set(caller.key, VALUE);
			return null;
		}
		String value = this.template.opsForValue().get(caller.key);
		if (!VALUE.equals(value)) {
			throw new IllegalStateException(this.strategy + ": read " + value + " from " + caller.key);
		}
		return value;
	}

	/**
	 * Mark the end of the iteration for the profilers, before the trial's teardown closes
	 * the clients and their event loops.
	 */
	@TearDown(Level.Iteration)
	public void iterationEnded() {
		CommandsPerWriteProfiler.iterationEnded();
		if (!VIRTUAL_THREADS) {
			// It reads the server's CPU over a blocking socket: on a virtual thread that
			// read can wait for a carrier that JMH's other threads keep busy. Without the
			// mark the profiler reads at the end of the iteration, on JMH's own thread.
			CpuCostProfiler.iterationEnded();
		}
	}

	/**
	 * Close the strategy's application context.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.context != null) {
			this.context.close();
		}
	}

	/**
	 * The numbers of a cell: commands per second (every thread's, per second of wall
	 * time), p50, p99 and p99.9 per command, client and server CPU per command, and
	 * auto-batching's commands per write.
	 * @param cell the cell
	 * @param run its result
	 * @return the rows
	 */
	static List<Row> rows(Cell cell, RunResult run) {
		Statistics latency = run.getPrimaryResult().getStatistics();
		List<Row> rows = new ArrayList<>();
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.COMMANDS_PER_S, Row.samples(run, CpuCostProfiler.BATCHES)));
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.P50_MS, latency.getPercentile(50)));
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.P99_MS, latency.getPercentile(99)));
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.P999_MS, latency.getPercentile(99.9)));
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.CPU_NS_PER_COMMAND, Row.samples(run, CpuCostProfiler.CLIENT)));
		rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.SERVER_CPU_NS_PER_COMMAND,
				Row.samples(run, CpuCostProfiler.SERVER)));
		List<Double> perWrite = Row.samples(run, CommandsPerWriteProfiler.COMMANDS_PER_WRITE);
		if (!perWrite.isEmpty()) {
			rows.add(Row.of(Suite.CONCURRENCY, cell, Metric.COMMANDS_PER_WRITE, perWrite));
		}
		return rows;
	}

	/**
	 * The key of one thread and whether its next command is a SET.
	 *
	 * @since 0.1.0
	 */
	@State(Scope.Thread)
	public static class Caller {

		String key;

		boolean set = true;

		/**
		 * Take the key of this thread.
		 * @param thread this thread's index
		 */
		@Setup(Level.Trial)
		public void setUp(ThreadParams thread) {
			this.key = keyOf(thread.getThreadIndex());
		}

	}

}
