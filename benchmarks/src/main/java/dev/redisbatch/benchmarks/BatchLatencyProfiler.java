package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that gives the percentiles of the batch times of each client of the
 * concurrent scenario in pairs ({@link PairedConcurrentBenchmark}), per iteration: every
 * thread keeps the wall time of each of its batches in a {@link Samples} of its own, and
 * after the iteration, when every thread has stopped, the samples of all threads are put
 * together per client. The results are {@code <client>P50Millis} and
 * {@code <client>P99Millis}, for the clients {@link #CLIENTS}.
 *
 * @since 0.1.0
 */
public final class BatchLatencyProfiler implements InternalProfiler {

	/**
	 * The clients, in the order of the index given to {@link Samples#add(int, long)}.
	 */
	static final List<String> CLIENTS = List.of("batchTemplate", "jedis");

	private static final ConcurrentLinkedQueue<Samples> THREADS = new ConcurrentLinkedQueue<>();

	/**
	 * Created by JMH in the benchmark's JVM.
	 */
	public BatchLatencyProfiler() {
	}

	/**
	 * The name of a client's percentile result.
	 * @param client the client, one of {@link #CLIENTS}
	 * @param percentile {@code 50} or {@code 99}
	 * @return the name of its result
	 */
	static String result(String client, int percentile) {
		return client + "P" + percentile + "Millis";
	}

	@Override
	public String getDescription() {
		return "Percentiles of each client's batch times, over all threads";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		// nothing to do: the samples of each iteration were drained after it
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		List<Result> percentiles = new ArrayList<>();
		for (int client = 0; client < CLIENTS.size(); client++) {
			long[] all = drain(client);
			if (all.length == 0) {
				continue;
			}
			Arrays.sort(all);
			for (int percentile : new int[] { 50, 99 }) {
				percentiles.add(new ScalarResult(result(CLIENTS.get(client), percentile),
						percentile(all, percentile) / 1e6, "ms", AggregationPolicy.AVG));
			}
		}
		// a thread's last samples come after its trial's teardown
		THREADS.removeIf((samples) -> samples.retired);
		return percentiles;
	}

	/**
	 * Every thread's samples of one client, taken away from them.
	 */
	private static long[] drain(int client) {
		int total = 0;
		for (Samples samples : THREADS) {
			total += samples.counts[client];
		}
		long[] all = new long[total];
		int at = 0;
		for (Samples samples : THREADS) {
			System.arraycopy(samples.nanos[client], 0, all, at, samples.counts[client]);
			at += samples.counts[client];
			samples.counts[client] = 0;
		}
		return all;
	}

	/**
	 * The nearest-rank percentile of sorted values.
	 */
	static long percentile(long[] sorted, int percentile) {
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
		return sorted[Math.max(0, rank - 1)];
	}

	/**
	 * One thread's batch times, per client: only that thread adds to them, and only while
	 * the iteration runs; the profiler reads them after it.
	 */
	static final class Samples {

		final long[][] nanos = new long[CLIENTS.size()][4096];

		final int[] counts = new int[CLIENTS.size()];

		private volatile boolean retired;

		/**
		 * Samples of a new thread, read after every iteration from now on.
		 * @return the samples
		 */
		static Samples register() {
			Samples samples = new Samples();
			THREADS.add(samples);
			return samples;
		}

		/**
		 * Stop reading these samples after the iteration that ends now (their thread's
		 * trial ended).
		 */
		void retire() {
			this.retired = true;
		}

		void add(int client, long nanos) {
			int count = this.counts[client];
			if (count == this.nanos[client].length) {
				this.nanos[client] = Arrays.copyOf(this.nanos[client], count * 2);
			}
			this.nanos[client][count] = nanos;
			this.counts[client] = count + 1;
		}

	}

}
