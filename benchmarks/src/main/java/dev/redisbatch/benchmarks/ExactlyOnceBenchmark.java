package dev.redisbatch.benchmarks;

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
 * {@code BatchTemplate}'s exactly-once batch against its plain pipelined batch, in pairs,
 * in one JVM and on one template: each invocation sends the same batch once each way (the
 * options differ only in {@code exactlyOnce}, so the chunks are the same), the order
 * swapped every time, and times each batch, as {@link PairedBenchmark} does against
 * Jedis.
 * <p>
 * Around each batch, outside its time, it reads the server's CPU ({@code INFO cpu}, as
 * {@link CpuCostProfiler} does), so that each mode has its own server CPU per command:
 * the cost of the script, its {@code redis.pcall}s, the reply text it builds and the
 * marker it writes falls on the server.
 * <p>
 * Each iteration gives the plain batch's time ÷ the exactly-once batch's (the throughput
 * of exactly-once ÷ plain: below 1, exactly-once is slower), each mode's mean time per
 * batch, and each mode's server CPU per command.
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 2)
@Fork(2)
public class ExactlyOnceBenchmark extends BatchBenchmark {

	private Strategy exactlyOnce;

	private Strategy plain;

	private boolean plainFirst;

	/**
	 * Prepare the server and open the exactly-once strategy; the plain batches run on its
	 * template.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		if (!Strategies.BATCH_TEMPLATE_EXACTLY_ONCE.equals(this.strategy)) {
			throw new IllegalArgumentException(
					"exactly-once pairs measure " + Strategies.BATCH_TEMPLATE_EXACTLY_ONCE + ", not " + this.strategy);
		}
		this.exactlyOnce = open(this.strategy).get(0);
		this.plain = ((BatchTemplateStrategy) this.exactlyOnce).plain();
	}

	/**
	 * One batch each way, the first one swapped every time.
	 * @param times where the modes' times go
	 */
	@Benchmark
	public void pair(ModeTimes times) {
		this.plainFirst = !this.plainFirst;
		if (this.plainFirst) {
			measure(Strategies.BATCH_TEMPLATE, this.plain, times.plain);
		}
		measure(this.strategy, this.exactlyOnce, times.exactlyOnce);
		if (!this.plainFirst) {
			measure(Strategies.BATCH_TEMPLATE, this.plain, times.plain);
		}
		times.pairs++;
	}

	/**
	 * Run one batch, add its wall nanoseconds to {@code tally[0]} and the server's CPU
	 * nanoseconds during it to {@code tally[1]}, and check its replies.
	 */
	private void measure(String id, Strategy client, long[] tally) {
		Server server = BenchmarkEnvironment.server();
		double cpu = server.cpuSeconds();
		long start = System.nanoTime();
		long answered = send(client);
		tally[0] += System.nanoTime() - start;
		tally[1] += Math.round((server.cpuSeconds() - cpu) * 1e9);
		checked(id, answered, this.n);
	}

	/**
	 * The numbers of a cell: the ratio, each mode's time per batch and server CPU per
	 * command.
	 * @param cell the cell
	 * @param run its result
	 * @return the rows
	 */
	static List<Row> rows(Cell cell, RunResult run) {
		return List.of(Row.of(Suite.EXACTLY_ONCE, cell, Metric.THROUGHPUT_RATIO, Row.samples(run, "ratio")),
				Row.of(Suite.EXACTLY_ONCE, cell, Metric.US_PER_BATCH, Row.samples(run, "exactlyOnceMicros")),
				Row.of(Suite.EXACTLY_ONCE, cell, Metric.PLAIN_US_PER_BATCH, Row.samples(run, "plainMicros")),
				Row.of(Suite.EXACTLY_ONCE, cell, Metric.SERVER_CPU_NS_PER_COMMAND,
						perCommand(Row.samples(run, "exactlyOnceServerMicros"), cell.n())),
				Row.of(Suite.EXACTLY_ONCE, cell, Metric.PLAIN_SERVER_CPU_NS_PER_COMMAND,
						perCommand(Row.samples(run, "plainServerMicros"), cell.n())));
	}

	private static List<Double> perCommand(List<Double> microsPerBatch, int n) {
		return microsPerBatch.stream().map((micros) -> micros * 1000 / n).toList();
	}

	/**
	 * The times of one iteration's pairs, reported as JMH auxiliary counters.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class ModeTimes {

		/**
		 * The exactly-once batches' wall nanoseconds and the server's CPU nanoseconds.
		 */
		final long[] exactlyOnce = new long[2];

		/**
		 * The plain batches' wall nanoseconds and the server's CPU nanoseconds.
		 */
		final long[] plain = new long[2];

		long pairs;

		/**
		 * Start the iteration's counts from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			this.exactlyOnce[0] = 0;
			this.exactlyOnce[1] = 0;
			this.plain[0] = 0;
			this.plain[1] = 0;
			this.pairs = 0;
		}

		/**
		 * The plain batches' time ÷ the exactly-once batches', over the iteration: the
		 * throughput of exactly-once ÷ plain.
		 * @return the ratio
		 */
		public double ratio() {
			return (this.exactlyOnce[0] > 0) ? (double) this.plain[0] / this.exactlyOnce[0] : 0;
		}

		public double exactlyOnceMicros() {
			return perBatch(this.exactlyOnce[0]);
		}

		public double plainMicros() {
			return perBatch(this.plain[0]);
		}

		public double exactlyOnceServerMicros() {
			return perBatch(this.exactlyOnce[1]);
		}

		public double plainServerMicros() {
			return perBatch(this.plain[1]);
		}

		private double perBatch(long nanos) {
			return (this.pairs > 0) ? nanos / 1_000.0 / this.pairs : 0;
		}

	}

}
