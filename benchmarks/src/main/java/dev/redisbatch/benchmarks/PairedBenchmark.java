package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.openjdk.jmh.annotations.AuxCounters;
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

/**
 * {@code BatchTemplate} and a Jedis {@code Pipeline} measured in pairs, in one JVM: each
 * invocation sends one batch with each client, the order swapped every time, and times
 * each batch and the calling thread's CPU for it. The ratio of a cell then compares two
 * clients that ran through the same moments of the machine.
 * <p>
 * Two cores shared with {@code redis-server} do not run at one speed: a cell's time per
 * batch moves by a quarter between phases of a few seconds, for either client alone, and
 * a cell whose two clients run one after the other (as in {@link StrategyBenchmark})
 * compares two phases as much as two clients. A small batch, whose round trip is most of
 * its time, suffers most. Here both clients see every phase, batch by batch.
 * <p>
 * The results are auxiliary counters per iteration: {@code batchTemplateMicros} and
 * {@code jedisMicros} (mean time of one batch), {@code batchTemplateCpuMicros} and
 * {@code jedisCpuMicros} (the calling thread's CPU for one batch: the only thread either
 * client works on here, as {@link CpuCostProfiler} shows), and {@code ratio}, Jedis's
 * time ÷ BatchTemplate's over the iteration (above 1, BatchTemplate is faster). The CPU
 * reads sit outside the timed batches.
 * <p>
 * With {@code floor=true} ({@code run.sh --floor}) two {@link FloorClient}s join the
 * invocations, with and without the check on borrow: {@code floorCheckMicros},
 * {@code floorMicros}, their CPU, and {@code floorCheckRatio} and {@code floorRatio},
 * Jedis's time ÷ each floor's.
 * <p>
 * It needs a Redis server ({@code -Dredisbatch.bench.port}); with
 * {@code -Dredisbatch.bench.proxy.rtt1=PORT} (a latency proxy, as {@code run.sh} starts)
 * the cells at a distance run too. See docs/performance.md for the command.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 3, jvmArgsAppend = { BenchmarkEnvironment.HEAP_MIN, BenchmarkEnvironment.HEAP_MAX,
		BenchmarkEnvironment.PRE_TOUCH })
public class PairedBenchmark {

	private static final long SEED = 20261126L;

	/**
	 * Commands per batch.
	 */
	@Param({ "1", "10", "100", "1000" })
	public int n;

	/**
	 * {@code GET} or {@code SET}.
	 */
	@Param({ "GET", "SET" })
	public String workload;

	/**
	 * {@code direct}, or a latency proxy: {@code rtt1}, {@code rtt10}.
	 */
	@Param({ "direct" })
	public String network;

	/**
	 * Whether the two floors (a plain NIO socket, with and without the check on borrow)
	 * are measured too.
	 */
	@Param({ "false" })
	public boolean floor;

	/**
	 * The clients in the order of {@link PairTimes#tallies}: BatchTemplate, Jedis, and
	 * with floors the floor with the check and the floor without.
	 */
	private Strategy[] clients;

	/**
	 * The order of this invocation's batches, as indexes into {@link #clients}.
	 */
	private int[] order;

	private final SplittableRandom shuffle = new SplittableRandom(SEED);

	private Workload data;

	private boolean get;

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	/**
	 * Load the keys (for GET), pre-warm both clients (on loopback, with clients of their
	 * own, when a pre-warm is set) and open the two clients of the cell.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		Endpoint endpoint = BenchmarkEnvironment.endpoint(this.network);
		this.get = "GET".equals(this.workload);
		if (!this.get && !"SET".equals(this.workload)) {
			throw new IllegalArgumentException("workload must be GET or SET: " + this.workload);
		}
		this.data = Workload.create(this.n, SEED);
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			server.flushAll();
			if (this.get) {
				server.load(this.data);
			}
		}
		Prewarm.onLoopback(Strategies.BATCH_TEMPLATE, this::send, this.n);
		Prewarm.onLoopback(Strategies.JEDIS, this::send, this.n);
		Strategy batchTemplate = Strategies.create(Strategies.BATCH_TEMPLATE, endpoint);
		Strategy jedis = Strategies.create(Strategies.JEDIS, endpoint);
		this.clients = this.floor ? new Strategy[] { batchTemplate, jedis, new FloorClient(endpoint, true),
				new FloorClient(endpoint, false) } : new Strategy[] { batchTemplate, jedis };
		this.order = new int[this.clients.length];
		for (int i = 0; i < this.order.length; i++) {
			this.order[i] = i;
		}
	}

	/**
	 * One batch with each client. Two clients swap their order every time. More clients
	 * (the floors) go in a new random order every time: in a fixed rotation each client
	 * would always follow the same one, and a client that follows its own twin (the floor
	 * without the check after the floor with it) finds the code and data of its batch
	 * still in the caches, which made it look up to a microsecond faster per batch of
	 * one.
	 * @param times where the clients' times go
	 */
	@Benchmark
	public void pair(PairTimes times) {
		int[] order = this.order;
		if (order.length == 2) {
			int first = order[0];
			order[0] = order[1];
			order[1] = first;
		}
		else {
			for (int i = order.length - 1; i > 0; i--) {
				int other = this.shuffle.nextInt(i + 1);
				int kept = order[i];
				order[i] = order[other];
				order[other] = kept;
			}
		}
		for (int client : order) {
			measure(this.clients[client], times.tallies[client]);
		}
		times.pairs++;
	}

	private void measure(Strategy strategy, long[] into) {
		long answered = timed(this.threads, () -> send(strategy), into);
		if (answered != this.n) {
			throw new IllegalStateException(this.workload + " " + this.n + ": " + answered + " of " + this.n
					+ " commands answered as expected");
		}
	}

	/**
	 * Run one batch on the calling thread and add its wall nanoseconds to
	 * {@code into[0]}, its CPU nanoseconds to {@code into[1]}: how every paired benchmark
	 * times a client.
	 * @param threads the JVM's thread bean
	 * @param batch sends the batch
	 * @param into a client's tally
	 * @return what the batch returned
	 */
	static long timed(ThreadMXBean threads, LongSupplier batch, long[] into) {
		long cpu = threads.getCurrentThreadCpuTime();
		long start = System.nanoTime();
		long answered = batch.getAsLong();
		into[0] += System.nanoTime() - start;
		into[1] += threads.getCurrentThreadCpuTime() - cpu;
		return answered;
	}

	private long send(Strategy strategy) {
		return this.get ? strategy.get(this.data) : strategy.set(this.data);
	}

	/**
	 * Close the clients.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		for (Strategy client : this.clients) {
			client.close();
		}
	}

	/**
	 * The times of one iteration's pairs, reported as JMH auxiliary counters.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class PairTimes {

		/**
		 * BatchTemplate's wall and CPU nanoseconds.
		 */
		final long[] batchTemplate = new long[2];

		/**
		 * Jedis's wall and CPU nanoseconds.
		 */
		final long[] jedis = new long[2];

		/**
		 * The floor's with the check on borrow, and without.
		 */
		final long[] floorCheck = new long[2];

		final long[] floor = new long[2];

		/**
		 * Each client's, in the order of the benchmark's clients.
		 */
		final long[][] tallies = { this.batchTemplate, this.jedis, this.floorCheck, this.floor };

		long pairs;

		/**
		 * Start the iteration's counts from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			for (long[] tally : this.tallies) {
				Arrays.fill(tally, 0);
			}
			this.pairs = 0;
		}

		public double batchTemplateMicros() {
			return perBatch(this.batchTemplate[0]);
		}

		public double jedisMicros() {
			return perBatch(this.jedis[0]);
		}

		public double batchTemplateCpuMicros() {
			return perBatch(this.batchTemplate[1]);
		}

		public double jedisCpuMicros() {
			return perBatch(this.jedis[1]);
		}

		public double floorCheckMicros() {
			return perBatch(this.floorCheck[0]);
		}

		public double floorMicros() {
			return perBatch(this.floor[0]);
		}

		public double floorCheckCpuMicros() {
			return perBatch(this.floorCheck[1]);
		}

		public double floorCpuMicros() {
			return perBatch(this.floor[1]);
		}

		/**
		 * Jedis's time ÷ the floor's with the check on borrow (0 without floors).
		 */
		public double floorCheckRatio() {
			return jedisOver(this.floorCheck);
		}

		/**
		 * Jedis's time ÷ the floor's without the check (0 without floors).
		 */
		public double floorRatio() {
			return jedisOver(this.floor);
		}

		/**
		 * Jedis's time ÷ BatchTemplate's, over the iteration.
		 */
		public double ratio() {
			return jedisOver(this.batchTemplate);
		}

		private double jedisOver(long[] other) {
			return (other[0] > 0) ? (double) this.jedis[0] / other[0] : 0;
		}

		private double perBatch(long nanos) {
			return (this.pairs > 0) ? nanos / 1_000.0 / this.pairs : 0;
		}

	}

}
