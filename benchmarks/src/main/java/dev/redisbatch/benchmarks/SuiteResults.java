package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Everything one run of the suite measured, for the report.
 */
final class SuiteResults {

	final Map<String, String> environment = new LinkedHashMap<>();

	final Map<String, String> versions = new LinkedHashMap<>();

	final List<String> settings = new ArrayList<>();

	final List<Timing> timings = new ArrayList<>();

	final List<Missing> missing = new ArrayList<>();

	final List<RedisBenchmarkTool.Result> physical = new ArrayList<>();

	final List<Memory> memory = new ArrayList<>();

	final List<Connections> connections = new ArrayList<>();

	final Map<String, String> strategyConfigurations = new LinkedHashMap<>();

	@Nullable String physicalNote;

	PoliteModeBenchmark.@Nullable Result polite;

	String profile = "standard";

	String command = "";

	Duration duration = Duration.ZERO;

	/**
	 * A timing of the spring-batch group.
	 */
	Optional<Timing> springBatchTiming(String strategy, String workload, int rttMillis) {
		return this.timings.stream()
			.filter((t) -> t.group().equals("spring-batch") && t.strategy().equals(strategy)
					&& t.workload().equals(workload) && t.rttMillis() == rttMillis)
			.findFirst();
	}

	Optional<Timing> timing(String strategy, String workload, int n, String network) {
		return this.timings.stream()
			.filter((t) -> t.strategy().equals(strategy) && t.workload().equals(workload) && t.n() == n
					&& t.network().equals(network))
			.findFirst();
	}

	Optional<RedisBenchmarkTool.Result> physical(String test) {
		return this.physical.stream().filter((r) -> r.test().equals(test)).findFirst();
	}

	/**
	 * One JMH result: the time per batch and the rate it gives.
	 *
	 * @param group the suite's group
	 * @param strategy the strategy id
	 * @param workload SET, GET or MIXED
	 * @param n the workload size asked for
	 * @param commands the commands per batch actually sent (smaller than {@code n} only
	 * for the loop with one command per round trip)
	 * @param network direct or through the proxy
	 * @param rttMillis the round trip the proxy adds
	 * @param msPerBatch the mean time per batch
	 * @param msError the confidence half-interval: 99.9% (JMH's), or that of the
	 * {@code detail} when there is one (NaN with too few samples)
	 * @param samples the number of measurement iterations
	 * @param detail the interval, latency and costs of a benchmark measured with them
	 * ({@link SuitePlan.Measure#costs()}), or {@code null}
	 */
	record Timing(String group, String strategy, String workload, int n, int commands, String network, int rttMillis,
			double msPerBatch, double msError, long samples, @Nullable Detail detail) {

		Timing(String group, String strategy, String workload, int n, int commands, String network, int rttMillis,
				double msPerBatch, double msError, long samples) {
			this(group, strategy, workload, n, commands, network, rttMillis, msPerBatch, msError, samples, null);
		}

		/**
		 * The commands per second: one batch after another, or with several threads the
		 * batches of every thread per second of wall time.
		 * @return the rate
		 */
		double commandsPerSecond() {
			if (this.detail != null && this.detail.threads() > 1) {
				return this.commands * this.detail.batchesPerSecond().mean();
			}
			return this.commands / (this.msPerBatch / 1000.0);
		}

	}

	/**
	 * What a benchmark measured with costs adds to its timing.
	 *
	 * @param threads the threads that sent batches at the same time
	 * @param forks the forks (JVMs)
	 * @param msPerBatch the time per batch over every measurement iteration of every
	 * fork: the mean of the iterations' means, with its confidence interval
	 * @param forkMeansMs the mean time per batch of each fork
	 * @param p50Ms the median time per batch over every batch sampled
	 * @param p99Ms the 99th percentile
	 * @param batchesPerSecond the batches per second of wall time, every thread's, with
	 * its confidence interval over the iterations
	 * @param cost the CPU and allocation per command
	 * @param p999Ms the 99.9th percentile (NaN when not sampled)
	 * @param commandsPerWrite the commands per write of auto-batching (NaN without it)
	 */
	record Detail(int threads, int forks, Interval msPerBatch, List<Double> forkMeansMs, double p50Ms, double p99Ms,
			Interval batchesPerSecond, Cost cost, double p999Ms, double commandsPerWrite) {

		Detail(int threads, int forks, Interval msPerBatch, List<Double> forkMeansMs, double p50Ms, double p99Ms,
				Interval batchesPerSecond, Cost cost) {
			this(threads, forks, msPerBatch, forkMeansMs, p50Ms, p99Ms, batchesPerSecond, cost, Double.NaN, Double.NaN);
		}

	}

	/**
	 * A mean with its confidence interval ({@link #CONFIDENCE}), from independent samples
	 * of a quantity that cannot be negative (a time, a rate): the lower bound is at least
	 * 0.
	 *
	 * @param mean the mean
	 * @param lower the lower bound (NaN with fewer than 3 samples)
	 * @param upper the upper bound (NaN with fewer than 3 samples)
	 * @param samples the number of samples
	 */
	record Interval(double mean, double lower, double upper, long samples) {

		/**
		 * The confidence of every {@link Interval}.
		 */
		static final double CONFIDENCE = 0.95;

		/**
		 * The confidence of JMH's own error, the {@code msError} of a timing without
		 * detail.
		 */
		static final double CONFIDENCE_JMH = 0.999;

		static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN, 0);

		/**
		 * The mean and Student's t interval of some samples (JMH's statistics).
		 * @param samples the samples
		 * @return the interval
		 */
		static Interval of(List<Double> samples) {
			if (samples.isEmpty()) {
				return NONE;
			}
			org.openjdk.jmh.util.ListStatistics statistics = new org.openjdk.jmh.util.ListStatistics();
			samples.forEach(statistics::addValue);
			double[] bounds = statistics.getConfidenceIntervalAt(CONFIDENCE);
			return new Interval(statistics.getMean(), Math.max(0, bounds[0]), bounds[1], statistics.getN());
		}

		double halfWidth() {
			return (this.upper - this.lower) / 2;
		}

	}

	/**
	 * The CPU time and allocation per command of a benchmark ({@link CpuCostProfiler},
	 * JMH's {@code gc} profiler), the means over every measurement iteration. NaN when
	 * not measured.
	 *
	 * @param callerNs on the calling threads
	 * @param loopNs on the client's event loops
	 * @param otherNs in the rest of the client's JVM (GC, JIT, other threads)
	 * @param clientNs in the client's whole process
	 * @param serverNs in the Redis server
	 * @param serverPercent the server's CPU during the iterations, in percent of one core
	 * @param clientPercent the client's CPU, in percent of one core
	 * @param allocBytes bytes allocated by the client
	 */
	record Cost(double callerNs, double loopNs, double otherNs, double clientNs, double serverNs, double serverPercent,
			double clientPercent, double allocBytes) {

		/**
		 * The event loops' share of the client's CPU time.
		 * @return a fraction
		 */
		double loopShare() {
			return this.loopNs / this.clientNs;
		}

	}

	/**
	 * A benchmark that produced no result.
	 *
	 * @param group the group
	 * @param benchmark the parameters
	 * @param reason why, as far as known
	 */
	record Missing(String group, String benchmark, String reason) {

	}

	/**
	 * A memory run.
	 *
	 * @param strategy the strategy id
	 * @param heapMb the JVM's {@code -Xmx} in MB
	 * @param status OK, OOM, TIMEOUT, FAILED, INCOMPLETE or SKIPPED
	 * @param commands the batch size
	 * @param recorded how many commands the strategy had taken when it ended
	 * @param elapsedMillis the time the batch took (OK only)
	 * @param peakHeapMb the peak heap used
	 * @param peakLiveMb the peak heap live after a collection
	 * @param peakOmemMb the peak client output buffer memory on the server, summed over
	 * the strategy's connections
	 * @param note details
	 */
	record Memory(String strategy, int heapMb, String status, long commands, long recorded, long elapsedMillis,
			double peakHeapMb, double peakLiveMb, double peakOmemMb, String note) {

	}

	/**
	 * A connection count.
	 *
	 * @param strategy the strategy id
	 * @param status OK or FAILED
	 * @param batches the number of batches counted
	 * @param batchSize the commands per batch
	 * @param newConnections the connections the server accepted meanwhile
	 * @param note details
	 */
	record Connections(String strategy, String status, int batches, int batchSize, long newConnections, String note) {

	}

}
