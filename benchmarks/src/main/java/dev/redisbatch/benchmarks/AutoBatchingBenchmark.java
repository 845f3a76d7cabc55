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

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The auto-batching scenario (issue 23): every JMH thread calls the application's
 * {@code StringRedisTemplate} with one command at a time, a GET, then a SET of the same
 * small value, then a GET again, of a key of its own, as request threads do. Each
 * operation is one command, and each is timed.
 * <p>
 * The suite's {@link Main} runs it with 1 to 256 platform threads and 256 and 1,024
 * virtual threads ({@code -Djmh.executor=VIRTUAL}, JDK 21 and later), with
 * {@link CpuCostProfiler} and {@link CommandsPerWriteProfiler}. Each trial flushes the
 * server and writes the key of every thread; every GET checks its value.
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
	 * Only {@code GETSET}, GET and SET in turn: a parameter so that the suite names the
	 * cells of every group alike.
	 */
	@Param({ "GETSET" })
	public String workload = "GETSET";

	/**
	 * The commands of one operation: one.
	 */
	@Param({ "1" })
	public int n = 1;

	/**
	 * {@code direct}, or through the latency-adding proxy.
	 */
	@Param({ "direct" })
	public String network = "direct";

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
		if (!"GETSET".equals(this.workload) || this.n != 1) {
			throw new IllegalArgumentException("The auto-batching scenario sends one GET or SET per operation, "
					+ "not " + this.workload + " × " + this.n);
		}
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			server.flushAll();
		}
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
			CpuCostProfiler.iterationEnded(this.network);
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
