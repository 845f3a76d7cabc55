package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one run of the suite measures, by profile.
 * <ul>
 * <li>{@code standard} (the default): everything the report needs, in about 16 minutes on
 * two quiet cores.</li>
 * <li>{@code full}: the same benchmarks with two forks and longer iterations, for tighter
 * error bars (about three times as long).</li>
 * <li>{@code smoke}: tiny sizes and iterations, to prove the whole chain works in a few
 * minutes. Its numbers mean nothing.</li>
 * </ul>
 *
 * @param profile the profile name
 * @param headlineSize the N of the side-by-side comparison and of the targets
 * @param groups the JMH groups, in run order
 * @param memoryCommands the size of the memory runs' batch
 * @param memoryTimeout how long one memory run may take
 * @param connectionBatches the number of batches of a connection count
 * @param connectionBatchSize the commands per batch of a connection count
 * @param redisBenchmarkRequests {@code redis-benchmark -n}
 * @param redisBenchmarkKeySpace {@code redis-benchmark -r}
 */
record SuitePlan(String profile, int headlineSize, List<Group> groups, int memoryCommands, Duration memoryTimeout,
		int connectionBatches, int connectionBatchSize, int redisBenchmarkRequests, int redisBenchmarkKeySpace) {

	/**
	 * The strategies of the size series.
	 */
	static final List<String> SIZE_SERIES = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS, Strategies.LETTUCE,
			Strategies.PIPELINED_BOOT);

	/**
	 * The strategies of the size series at one million commands (executePipelined with
	 * Boot's defaults takes several seconds per batch there; the memory runs cover it).
	 */
	static final List<String> SIZE_SERIES_1M = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS, Strategies.LETTUCE);

	/**
	 * The chunk sizes of the defaults sweep.
	 */
	static final List<Integer> SWEEP_CHUNK_SIZES = List.of(100, 500, 1000, 2000, 5000, 10000);

	/**
	 * The parallelism values of the defaults sweep.
	 */
	static final List<Integer> SWEEP_PARALLELISM = List.of(1, 2, 4);

	static SuitePlan of(String profile) {
		return switch (profile.toLowerCase(Locale.ROOT)) {
			case "standard" ->
				standard(new Iterations(2, 500, 3, 500, 1), new Iterations(1, 500, 2, 500, 1), "standard");
			case "full" -> standard(new Iterations(3, 2000, 5, 2000, 2), new Iterations(2, 1000, 3, 1000, 2), "full");
			case "smoke" -> smoke();
			default -> throw new IllegalArgumentException("Unknown profile '" + profile + "': standard, full or smoke");
		};
	}

	private static SuitePlan standard(Iterations main, Iterations light, String name) {
		List<String> all = Strategies.ids();
		List<Group> groups = new ArrayList<>();
		groups.add(new Group("peers", "SET and GET, side by side", all, List.of("SET", "GET"), List.of(100_000),
				List.of("direct"), main));
		groups
			.add(new Group("sweep", "Defaults sweep: BatchTemplate.setAll", sweep(SWEEP_CHUNK_SIZES, SWEEP_PARALLELISM),
					List.of("SET"), List.of(100_000), List.of("direct"), main));
		groups
			.add(new Group("mixed", "Mixed batch", all, List.of("MIXED"), List.of(100_000), List.of("direct"), light));
		groups.add(new Group("sizes", "Batch sizes", SIZE_SERIES, List.of("SET", "GET"), List.of(1_000, 10_000),
				List.of("direct"), light));
		groups.add(new Group("sizes-1m", "Batch sizes (1M)", SIZE_SERIES_1M, List.of("SET", "GET"), List.of(1_000_000),
				List.of("direct"), new Iterations(1, 100, 2, 100, light.forks())));
		groups.add(new Group("rtt", "Network distance", all, List.of("SET"), List.of(10_000),
				BenchmarkEnvironment.PROXIED, light));
		groups.add(new Group("cluster", "Redis Cluster (3 masters)", Strategies.clusterIds(), List.of("SET", "GET"),
				List.of(100_000), List.of(BenchmarkEnvironment.CLUSTER_NETWORK), main));
		groups.add(new Group("spring-batch", "Spring Batch item writer and reader", Strategies.springBatchIds(),
				List.of("SET", "GET"), List.of(100_000), List.of("rtt0", "rtt1"), light));
		return new SuitePlan(name, 100_000, groups, 10_000_000, Duration.ofSeconds(120), 1000, 100, 1_000_000, 100_000);
	}

	private static SuitePlan smoke() {
		Iterations tiny = new Iterations(1, 200, 1, 200, 1);
		List<String> all = Strategies.ids();
		List<Group> groups = new ArrayList<>();
		groups.add(new Group("peers", "SET and GET, side by side", all, List.of("SET", "GET"), List.of(2_000),
				List.of("direct"), tiny));
		groups.add(new Group("sweep", "Defaults sweep: BatchTemplate.setAll", sweep(List.of(100, 1000), List.of(1, 2)),
				List.of("SET"), List.of(2_000), List.of("direct"), tiny));
		groups.add(new Group("mixed", "Mixed batch", List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS),
				List.of("MIXED"), List.of(2_000), List.of("direct"), tiny));
		groups.add(new Group("sizes", "Batch sizes", List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS),
				List.of("SET"), List.of(1_000, 10_000), List.of("direct"), tiny));
		groups.add(new Group("rtt", "Network distance",
				List.of(Strategies.ROUND_TRIP, Strategies.BATCH_TEMPLATE, Strategies.JEDIS), List.of("SET"),
				List.of(1_000), BenchmarkEnvironment.PROXIED, tiny));
		groups.add(new Group("cluster", "Redis Cluster (3 masters)", Strategies.clusterIds(), List.of("SET", "GET"),
				List.of(2_000), List.of(BenchmarkEnvironment.CLUSTER_NETWORK), tiny));
		groups.add(new Group("spring-batch", "Spring Batch item writer and reader", Strategies.springBatchIds(),
				List.of("SET", "GET"), List.of(2_000), List.of("rtt0", "rtt1"), tiny));
		return new SuitePlan("smoke", 2_000, groups, 200_000, Duration.ofSeconds(60), 20, 100, 100_000, 10_000);
	}

	private static List<String> sweep(List<Integer> chunkSizes, List<Integer> parallelism) {
		List<String> ids = new ArrayList<>();
		for (int p : parallelism) {
			for (int chunkSize : chunkSizes) {
				ids.add(Strategies.sweepId(chunkSize, p));
			}
		}
		return ids;
	}

	/**
	 * A set of JMH benchmarks run together: the cross product of its parameters.
	 *
	 * @param name the name ({@code --groups} selects by it)
	 * @param title the title in the report
	 * @param strategies strategy ids
	 * @param workloads SET, GET, MIXED
	 * @param sizes the values of N
	 * @param networks direct, rtt0, rtt1, rtt10
	 * @param iterations the JMH settings
	 */
	record Group(String name, String title, List<String> strategies, List<String> workloads, List<Integer> sizes,
			List<String> networks, Iterations iterations) {

		int size() {
			return this.strategies.size() * this.workloads.size() * this.sizes.size() * this.networks.size();
		}

	}

	/**
	 * JMH iteration settings.
	 *
	 * @param warmups warmup iterations
	 * @param warmupMillis time per warmup iteration
	 * @param measurements measurement iterations
	 * @param measurementMillis time per measurement iteration
	 * @param forks forks per benchmark
	 */
	record Iterations(int warmups, int warmupMillis, int measurements, int measurementMillis, int forks) {

		@Override
		public String toString() {
			return this.forks + " fork(s), " + this.warmups + " warmup × " + this.warmupMillis + " ms, "
					+ this.measurements + " measurement × " + this.measurementMillis + " ms";
		}

	}

}
