package dev.redisbatch.benchmarks;

import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that counts the TCP connections a client opens per batch: the server's
 * {@code total_connections_received} before and after each iteration, per 1,000 of the
 * iteration's operations ({@value #PER_1000_BATCHES}). A client that reuses pooled
 * connections opens none once warm.
 *
 * @since 0.1.0
 */
public final class ConnectionsProfiler implements InternalProfiler {

	static final String PER_1000_BATCHES = "connections/1000 batches";

	private long start;

	/**
	 * Created by JMH in the benchmark's JVM.
	 */
	public ConnectionsProfiler() {
	}

	@Override
	public String getDescription() {
		return "New TCP connections per 1,000 batches, counted by the Redis server";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.start = BenchmarkEnvironment.server().connectionsReceived();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long opened = BenchmarkEnvironment.server().connectionsReceived() - this.start;
		long operations = result.getMetadata().getAllOps();
		if (operations <= 0) {
			return List.of();
		}
		return List
			.of(new ScalarResult(PER_1000_BATCHES, opened * 1000.0 / operations, "connections", AggregationPolicy.AVG));
	}

}
