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
	 * @param msError the 99.9% confidence half-interval (NaN with too few samples)
	 * @param samples the number of measurement iterations
	 */
	record Timing(String group, String strategy, String workload, int n, int commands, String network, int rttMillis,
			double msPerBatch, double msError, long samples) {

		double commandsPerSecond() {
			return this.commands / (this.msPerBatch / 1000.0);
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
