package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;

/**
 * {@code BatchTemplate} (or a variant of it) and a Jedis {@code Pipeline} measured in
 * pairs, in one JVM: each invocation sends one batch with each client, the order swapped
 * every time, and times each batch and the calling thread's CPU for it. The ratio of a
 * cell then compares two clients that ran through the same moments of the machine.
 * <p>
 * Two cores shared with {@code redis-server} do not run at one speed: a cell's time per
 * batch moves by a quarter between phases of a few seconds, for either client alone, and
 * two clients measured one after the other compare two phases as much as two clients. A
 * small batch, whose round trip is most of its time, suffers most. Here both clients see
 * every phase, batch by batch.
 * <p>
 * Each iteration gives Jedis's time ÷ the subject's (above 1, the subject is faster),
 * each client's mean time per batch, and each client's CPU per command: the calling
 * thread's, plus for the subject the event loops' from {@link CpuCostProfiler} (Jedis has
 * no event loop). The CPU reads sit outside the timed batches.
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(2)
public class PairedBenchmark extends BatchBenchmark {

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private Strategy subject;

	private Strategy jedis;

	private boolean jedisFirst;

	/**
	 * Prepare the server, pre-warm both clients on loopback when asked, and open the two
	 * clients of the cell.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		List<Strategy> clients = open(this.strategy, Strategies.JEDIS);
		this.subject = clients.get(0);
		this.jedis = clients.get(1);
	}

	/**
	 * One batch with each client, the first one swapped every time.
	 * @param times where the clients' times go
	 */
	@Benchmark
	public void pair(PairTimes times) {
		this.jedisFirst = !this.jedisFirst;
		if (this.jedisFirst) {
			measure(Strategies.JEDIS, this.jedis, times.jedis);
		}
		measure(this.strategy, this.subject, times.subject);
		if (!this.jedisFirst) {
			measure(Strategies.JEDIS, this.jedis, times.jedis);
		}
		times.pairs++;
	}

	/**
	 * Run one batch, add its wall nanoseconds to {@code tally[0]} and its CPU nanoseconds
	 * on this thread to {@code tally[1]}, and check its replies.
	 */
	private void measure(String id, Strategy client, long[] tally) {
		long cpu = this.threads.getCurrentThreadCpuTime();
		long start = System.nanoTime();
		long answered = send(client);
		tally[0] += System.nanoTime() - start;
		tally[1] += this.threads.getCurrentThreadCpuTime() - cpu;
		checked(id, answered, this.n);
	}

	/**
	 * The numbers of a cell: the ratio, each client's time per batch and CPU per command.
	 * @param cell the cell
	 * @param run its result
	 * @return the rows
	 */
	static List<Row> rows(Cell cell, RunResult run) {
		List<Double> loops = Row.samples(run, CpuCostProfiler.LOOP);
		List<Double> subjectCpu = new ArrayList<>();
		List<Double> iterations = Row.samples(run, "subjectCpuMicros");
		for (int i = 0; i < iterations.size(); i++) {
			subjectCpu.add(iterations.get(i) * 1000 / cell.n() + ((i < loops.size()) ? loops.get(i) : 0));
		}
		List<Double> jedisCpu = Row.samples(run, "jedisCpuMicros")
			.stream()
			.map((micros) -> micros * 1000 / cell.n())
			.toList();
		return List.of(Row.of(Suite.PAIRED, cell, Metric.RATIO, Row.samples(run, "ratio")),
				Row.of(Suite.PAIRED, cell, Metric.US_PER_BATCH, Row.samples(run, "subjectMicros")),
				Row.of(Suite.PAIRED, cell, Metric.JEDIS_US_PER_BATCH, Row.samples(run, "jedisMicros")),
				Row.of(Suite.PAIRED, cell, Metric.CPU_NS_PER_COMMAND, subjectCpu),
				Row.of(Suite.PAIRED, cell, Metric.JEDIS_CPU_NS_PER_COMMAND, jedisCpu));
	}

	/**
	 * The times of one iteration's pairs, reported as JMH auxiliary counters.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class PairTimes {

		/**
		 * The subject's wall and CPU nanoseconds.
		 */
		final long[] subject = new long[2];

		/**
		 * Jedis's wall and CPU nanoseconds.
		 */
		final long[] jedis = new long[2];

		long pairs;

		/**
		 * Start the iteration's counts from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			this.subject[0] = 0;
			this.subject[1] = 0;
			this.jedis[0] = 0;
			this.jedis[1] = 0;
			this.pairs = 0;
		}

		/**
		 * Jedis's time ÷ the subject's, over the iteration.
		 * @return the ratio
		 */
		public double ratio() {
			return (this.subject[0] > 0) ? (double) this.jedis[0] / this.subject[0] : 0;
		}

		public double subjectMicros() {
			return perBatch(this.subject[0]);
		}

		public double jedisMicros() {
			return perBatch(this.jedis[0]);
		}

		public double subjectCpuMicros() {
			return perBatch(this.subject[1]);
		}

		public double jedisCpuMicros() {
			return perBatch(this.jedis[1]);
		}

		private double perBatch(long nanos) {
			return (this.pairs > 0) ? nanos / 1_000.0 / this.pairs : 0;
		}

	}

}
