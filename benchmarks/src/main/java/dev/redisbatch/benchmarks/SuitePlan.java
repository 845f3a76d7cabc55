package dev.redisbatch.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.redisbatch.BatchTemplate;
import org.openjdk.jmh.annotations.Mode;

/**
 * What one run of the suite measures, by profile.
 * <ul>
 * <li>{@code standard} (the default): everything the report needs, in about 16 minutes on
 * two quiet cores.</li>
 * <li>{@code full}: the same benchmarks with two forks and longer iterations, for tighter
 * error bars (about three times as long).</li>
 * <li>{@code smoke}: tiny sizes and iterations, to prove the whole chain works in a few
 * minutes. Its numbers mean nothing.</li>
 * <li>{@code reply-path}: the cells of the reply-path targets (issue 22) with three
 * forks, the client's and the server's CPU per command and the allocation per command:
 * RTT 0, 1, 5 and 10 ms × SET, GET × N = 100 to 100,000, the latency of batches of 1 and
 * 10 on loopback, the concurrent scenario (32 threads), and the memory and connection
 * runs of {@code BatchTemplate}.</li>
 * <li>{@code reply-path-smoke}: the same chain at tiny sizes and iterations.</li>
 * <li>{@code auto-batching}: the auto-batching scenario (issue 23) with three forks: 1,
 * 16, 64 and 256 platform threads and 256 and 1,024 virtual threads calling the
 * application's {@code StringRedisTemplate} one command at a time, on loopback and at RTT
 * 1 ms, with Boot's defaults, Boot with Jedis, Lettuce with Netty's
 * {@code FlushConsolidationHandler} and auto-batching.</li>
 * <li>{@code auto-batching-smoke}: the same chain at a few thread counts and tiny
 * iterations.</li>
 * </ul>
 * A benchmark (strategy, workload, N, network) that an earlier group of the run already
 * measured is not measured again: the {@code rtt} group's RTT 0 column is loopback, the
 * cells of {@code peers} and {@code sizes}, and it runs them itself only when those
 * groups are not selected.
 *
 * @param profile the profile name
 * @param headlineSize the N of the side-by-side comparison and of the targets
 * @param groups the JMH groups, in run order
 * @param memoryCommands the size of the memory runs' batch
 * @param memoryRuns the memory runs, in order
 * @param memoryTimeout how long one memory run may take
 * @param connectionStrategies the strategies whose connections are counted
 * @param connectionBatches the number of batches of a connection count
 * @param connectionBatchSize the commands per batch of a connection count
 * @param redisBenchmarkRequests {@code redis-benchmark -n}
 * @param redisBenchmarkKeySpace {@code redis-benchmark -r}
 * @param steps the runs besides the JMH groups, of {@link #STEPS}
 */
record SuitePlan(String profile, int headlineSize, List<Group> groups, int memoryCommands, List<MemoryRun> memoryRuns,
		Duration memoryTimeout, List<String> connectionStrategies, int connectionBatches, int connectionBatchSize,
		int redisBenchmarkRequests, int redisBenchmarkKeySpace, List<String> steps) {

	/**
	 * The runs besides the JMH groups: {@code redis-benchmark}, the memory runs, the
	 * connection counts and the polite-mode run.
	 */
	static final List<String> STEPS = List.of("physical", "memory", "connections", "polite");

	/**
	 * The strategies of the size series (1,000 and 10,000 commands; 100,000 is the peers
	 * group).
	 */
	static final List<String> SIZE_SERIES = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS);

	/**
	 * The strategies of the size series at one million commands, where the default
	 * command window binds (executePipelined and Lettuce take several seconds per batch
	 * there; the memory runs cover them).
	 */
	static final List<String> SIZE_SERIES_1M = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS);

	/**
	 * The strategies of the mixed batch.
	 */
	static final List<String> MIXED_SERIES = List.of(Strategies.PIPELINED_BOOT, Strategies.LETTUCE, Strategies.REDISSON,
			Strategies.JEDIS, Strategies.BATCH_TEMPLATE, Strategies.REDIS_BATCH_METHOD);

	/**
	 * The chunk sizes of the defaults sweep.
	 */
	static final List<Integer> SWEEP_CHUNK_SIZES = List.of(100, 300, 1000, 3000, 10000);

	/**
	 * The byte windows of the defaults sweep.
	 */
	static final List<Long> SWEEP_WINDOWS = List.of(mb(1), mb(4), mb(16));

	/**
	 * The networks of the rtt group: loopback (RTT 0) and the proxy at 1, 5 and 10 ms.
	 */
	static final List<String> RTT_NETWORKS = List.of("direct", "rtt1", "rtt5", "rtt10");

	/**
	 * The batch sizes of the rtt group.
	 */
	static final List<Integer> RTT_SIZES = List.of(10_000, 100_000);

	/**
	 * The strategies of the rtt group's targets, measured in every cell.
	 */
	static final List<String> RTT_TARGETS = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS);

	/**
	 * The other strategies of the rtt group, at the headline size.
	 */
	static final List<String> RTT_PEERS = List.of(Strategies.PIPELINED_BOOT, Strategies.LETTUCE, Strategies.REDISSON,
			Strategies.REDIS_BATCH_METHOD, Strategies.BATCH_TEMPLATE_TWO_CHUNKS);

	/**
	 * The byte windows of the window sweep at a distance, besides the defaults
	 * ({@link BatchTemplate#DEFAULT_MAX_IN_FLIGHT_BYTES}, 4 MB): one smaller, and one
	 * that holds a whole batch of 100,000 SETs (12.2 MB), as Jedis sends it.
	 */
	static final List<Long> RTT_WINDOWS = List.of(mb(1), mb(16));

	/**
	 * The round trips of the reply-path cells: loopback (RTT 0) and the proxy at 1, 5 and
	 * 10 ms.
	 */
	static final List<String> REPLY_PATH_NETWORKS = RTT_NETWORKS;

	/**
	 * The batch sizes of the reply-path cells at every round trip.
	 */
	static final List<Integer> REPLY_PATH_SIZES = List.of(100, 1_000, 10_000, 100_000);

	/**
	 * The small batches of the reply-path cells, on loopback only: the latency of one
	 * small batch.
	 */
	static final List<Integer> REPLY_PATH_SMALL_SIZES = List.of(1, 10);

	/**
	 * The strategies of every reply-path cell.
	 */
	static final List<String> REPLY_PATH_STRATEGIES = List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS);

	/**
	 * The threads of the concurrent scenario.
	 */
	static final int CONCURRENT_THREADS = 32;

	/**
	 * The GETs of one batch of the concurrent scenario.
	 */
	static final int CONCURRENT_BATCH = 100;

	/**
	 * The forks of every reply-path benchmark: the least the issue accepts for a
	 * confidence interval.
	 */
	static final int REPLY_PATH_FORKS = 3;

	/**
	 * The platform threads of the auto-batching scenario.
	 */
	static final List<Integer> AUTO_BATCHING_THREADS = List.of(1, 16, 64, 256);

	/**
	 * The virtual threads of the auto-batching scenario (reported, not judged).
	 */
	static final List<Integer> AUTO_BATCHING_VIRTUAL_THREADS = List.of(256, 1024);

	/**
	 * The networks of the auto-batching scenario: loopback and the proxy at 1 ms.
	 */
	static final List<String> AUTO_BATCHING_NETWORKS = List.of("direct", "rtt1");

	/**
	 * The byte windows of the memory runs besides the defaults.
	 */
	static final List<Long> MEMORY_WINDOWS = List.of(mb(16), mb(64));

	/**
	 * The heap of the memory runs, in MB.
	 */
	static final int MEMORY_HEAP_MB = 128;

	/**
	 * The heap of the memory run kept from before, in MB.
	 */
	static final int MEMORY_HEAP_MB_BEFORE = 256;

	static SuitePlan of(String profile) {
		return switch (profile.toLowerCase(Locale.ROOT)) {
			case "standard" -> standard(new Iterations(2, 500, 3, 500, 1), new Iterations(1, 500, 2, 500, 1),
					new Iterations(1, 300, 2, 300, 1), "standard");
			case "full" -> standard(new Iterations(3, 2000, 5, 2000, 2), new Iterations(2, 1000, 3, 1000, 2),
					new Iterations(2, 1000, 3, 1000, 2), "full");
			case "smoke" -> smoke();
			case "reply-path" -> replyPath("reply-path", REPLY_PATH_SIZES, REPLY_PATH_NETWORKS, REPLY_PATH_SMALL_SIZES,
					List.of("SET", "GET"), CONCURRENT_THREADS, new Iterations(2, 500, 5, 500, REPLY_PATH_FORKS),
					new Iterations(2, 1000, 5, 1000, REPLY_PATH_FORKS),
					new Iterations(1, 5000, 2, 10_000, REPLY_PATH_FORKS), 10_000_000, Duration.ofSeconds(120), 1000);
			case "reply-path-smoke" -> replyPath("reply-path-smoke", List.of(1_000), List.of("direct", "rtt1"),
					List.of(10), List.of("SET", "GET"), CONCURRENT_THREADS,
					new Iterations(1, 200, 1, 200, REPLY_PATH_FORKS), new Iterations(1, 200, 1, 200, REPLY_PATH_FORKS),
					new Iterations(1, 500, 1, 1000, REPLY_PATH_FORKS), 200_000, Duration.ofSeconds(60), 20);
			case "reply-path-loopback" -> ShortReplyPathPlans.loopback();
			case "reply-path-small" -> ShortReplyPathPlans.small();
			case "reply-path-steady" -> ShortReplyPathPlans.steady();
			case "auto-batching" -> autoBatching("auto-batching", AUTO_BATCHING_THREADS, AUTO_BATCHING_VIRTUAL_THREADS,
					new Iterations(1, 2000, 4, 1000, REPLY_PATH_FORKS));
			case "auto-batching-smoke" ->
				autoBatching("auto-batching-smoke", List.of(1, 16), List.of(16), new Iterations(1, 300, 1, 300, 1));
			default -> throw new IllegalArgumentException("Unknown profile '" + profile
					+ "': standard, full, smoke, reply-path, reply-path-smoke, reply-path-loopback, reply-path-small,"
					+ " reply-path-steady, auto-batching or auto-batching-smoke");
		};
	}

	/**
	 * The reply-path cells of issue 22, each with {@link Measure#REPLY_PATH} (three
	 * forks, time per batch sampled, CPU and allocation per command): BatchTemplate
	 * (defaults) and Jedis Pipeline at every round trip and size, small batches on
	 * loopback, and the concurrent scenario; then the memory run and the connection count
	 * of BatchTemplate, whose targets still hold.
	 */
	private static SuitePlan replyPath(String name, List<Integer> sizes, List<String> networks, List<Integer> small,
			List<String> workloads, int threads, Iterations cells, Iterations smallCells, Iterations concurrent,
			int memoryCommands, Duration memoryTimeout, int connectionBatches) {
		List<Group> groups = new ArrayList<>();
		groups.add(new Group("reply-path", "Reply path: BatchTemplate and Jedis at every round trip and size",
				List.of(new Block(REPLY_PATH_STRATEGIES, workloads, sizes, networks)), cells, Measure.REPLY_PATH));
		groups.add(new Group("reply-path-small", "Reply path: small batches on loopback",
				List.of(new Block(REPLY_PATH_STRATEGIES, workloads, small, List.of("direct"))), smallCells,
				Measure.REPLY_PATH));
		groups.add(new Group("concurrent",
				"Concurrent scenario: " + threads + " threads, batches of " + CONCURRENT_BATCH + " GETs",
				List.of(new Block(ConcurrentReaders.ids(), List.of("GET"), List.of(CONCURRENT_BATCH),
						List.of("direct"))),
				concurrent, Measure.concurrent(threads)));
		return new SuitePlan(name, 100_000, groups, memoryCommands,
				List.of(new MemoryRun(Strategies.BATCH_TEMPLATE, MEMORY_HEAP_MB)), memoryTimeout,
				List.of(Strategies.BATCH_TEMPLATE), connectionBatches, 100, 0, 0, List.of("memory", "connections"));
	}

	/**
	 * The auto-batching scenario (issue 23): a group per number of threads, every
	 * strategy of {@link SingleCommandClients} on loopback and at RTT 1 ms, each measured
	 * with {@link Measure#singleCommands}; no other step.
	 */
	private static SuitePlan autoBatching(String name, List<Integer> platformThreads, List<Integer> virtualThreads,
			Iterations iterations) {
		List<Group> groups = new ArrayList<>();
		List<Block> blocks = List
			.of(new Block(SingleCommandClients.ids(), List.of("GETSET"), List.of(1), AUTO_BATCHING_NETWORKS));
		for (int threads : platformThreads) {
			groups.add(new Group("auto-batching-" + threads,
					"Auto-batching: " + threads + " platform thread" + ((threads > 1) ? "s" : "")
							+ ", one GET or SET each at a time",
					blocks, iterations, Measure.singleCommands(threads, false)));
		}
		for (int threads : virtualThreads) {
			groups.add(new Group("auto-batching-v" + threads,
					"Auto-batching: " + threads + " virtual threads, one GET or SET each at a time", blocks, iterations,
					Measure.singleCommands(threads, true)));
		}
		return new SuitePlan(name, 1, groups, 0, List.of(), Duration.ofSeconds(60), List.of(), 0, 0, 0, 0, List.of());
	}

	/**
	 * Where {@code --publish} copies this plan's report: the reply-path profiles into a
	 * folder of their own, so that they never overwrite the standard run's report.
	 * @param docs the folder of the standard report
	 * @return the folder
	 */
	Path publishDirectory(Path docs) {
		if (this.profile.startsWith("auto-batching")) {
			return docs.resolve("auto-batching");
		}
		return this.profile.startsWith("reply-path") ? docs.resolve("reply-path") : docs;
	}

	/**
	 * Whether this plan's numbers mean nothing.
	 * @return whether it is a smoke profile
	 */
	boolean isSmoke() {
		return this.profile.contains("smoke");
	}

	private static SuitePlan standard(Iterations main, Iterations light, Iterations rtt, String name) {
		int n = 100_000;
		List<Group> groups = new ArrayList<>();
		groups.add(Group.of("peers", "SET and GET, side by side", Strategies.ids(), List.of("SET", "GET"), List.of(n),
				List.of("direct"), main));
		groups.add(Group.of("sweep", "Defaults sweep: BatchTemplate.setAll, chunk size × byte window",
				sweep(SWEEP_CHUNK_SIZES, SWEEP_WINDOWS), List.of("SET"), List.of(n), List.of("direct"), main));
		groups.add(
				Group.of("mixed", "Mixed batch", MIXED_SERIES, List.of("MIXED"), List.of(n), List.of("direct"), light));
		groups.add(Group.of("sizes", "Batch sizes", SIZE_SERIES, List.of("SET", "GET"), List.of(1_000, 10_000),
				List.of("direct"), light));
		groups.add(Group.of("sizes-1m", "Batch sizes (1M)", SIZE_SERIES_1M, List.of("SET", "GET"), List.of(1_000_000),
				List.of("direct"), new Iterations(1, 100, 2, 100, light.forks())));
		groups.add(rtt(RTT_SIZES, n, RTT_NETWORKS, RTT_PEERS, windows(RTT_WINDOWS), rtt));
		groups.add(Group.of("cluster", "Redis Cluster (3 masters)", Strategies.clusterIds(), List.of("SET", "GET"),
				List.of(n), List.of(BenchmarkEnvironment.CLUSTER_NETWORK), main));
		groups.add(Group.of("spring-batch", "Spring Batch item writer and reader", Strategies.springBatchIds(),
				List.of("SET", "GET"), List.of(n), List.of("rtt0", "rtt1"), light));
		return new SuitePlan(name, n, groups, 10_000_000, standardMemoryRuns(), Duration.ofSeconds(120),
				standardConnectionStrategies(), 1000, 100, 1_000_000, 100_000, STEPS);
	}

	private static SuitePlan smoke() {
		Iterations tiny = new Iterations(1, 200, 1, 200, 1);
		int n = 2_000;
		List<Group> groups = new ArrayList<>();
		groups.add(Group.of("peers", "SET and GET, side by side", Strategies.ids(), List.of("SET", "GET"), List.of(n),
				List.of("direct"), tiny));
		groups.add(Group.of("sweep", "Defaults sweep: BatchTemplate.setAll, chunk size × byte window",
				sweep(List.of(100, 1000), List.of(64 * 1024L, mb(1))), List.of("SET"), List.of(n), List.of("direct"),
				tiny));
		groups.add(Group.of("mixed", "Mixed batch", List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS),
				List.of("MIXED"), List.of(n), List.of("direct"), tiny));
		groups.add(
				Group.of("sizes", "Batch sizes", SIZE_SERIES, List.of("SET"), List.of(1_000), List.of("direct"), tiny));
		groups.add(rtt(List.of(n), n, List.of("direct", "rtt10"), List.of(Strategies.BATCH_TEMPLATE_TWO_CHUNKS),
				windows(List.of(64 * 1024L)), tiny));
		groups.add(Group.of("cluster", "Redis Cluster (3 masters)", Strategies.clusterIds(), List.of("SET", "GET"),
				List.of(n), List.of(BenchmarkEnvironment.CLUSTER_NETWORK), tiny));
		groups.add(Group.of("spring-batch", "Spring Batch item writer and reader", Strategies.springBatchIds(),
				List.of("SET", "GET"), List.of(n), List.of("rtt0", "rtt1"), tiny));
		return new SuitePlan("smoke", n, groups, 200_000, standardMemoryRuns(), Duration.ofSeconds(60),
				standardConnectionStrategies(), 20, 100, 100_000, 10_000, STEPS);
	}

	/**
	 * The rtt group: the targets' strategies in every cell, the other strategies and the
	 * window variants at the headline size, and the loop with one command per round trip
	 * (capped, so its N does not matter) at the headline size.
	 */
	private static Group rtt(List<Integer> sizes, int n, List<String> networks, List<String> peers,
			List<String> windows, Iterations iterations) {
		List<String> atHeadline = new ArrayList<>(peers);
		atHeadline.addAll(windows);
		atHeadline.add(Strategies.ROUND_TRIP);
		return new Group("rtt", "Network distance",
				List.of(new Block(RTT_TARGETS, List.of("SET", "GET"), sizes, networks),
						new Block(atHeadline, List.of("SET", "GET"), List.of(n), networks)),
				iterations);
	}

	private static List<MemoryRun> standardMemoryRuns() {
		List<MemoryRun> runs = new ArrayList<>();
		for (String id : Strategies.ids()) {
			runs.add(new MemoryRun(id, MEMORY_HEAP_MB));
		}
		for (long window : MEMORY_WINDOWS) {
			runs.add(new MemoryRun(Strategies.windowId(window), MEMORY_HEAP_MB));
		}
		runs.add(new MemoryRun(Strategies.BATCH_TEMPLATE, MEMORY_HEAP_MB_BEFORE));
		return runs;
	}

	private static List<String> standardConnectionStrategies() {
		// executePipelined's other flush policies use the same pooled factory as Boot's
		// defaults, and the loop with one command per round trip its shared connection
		return List.of(Strategies.PIPELINED_BOOT, Strategies.PIPELINED_BOOT_NO_POOL, Strategies.LETTUCE,
				Strategies.REDISSON, Strategies.JEDIS, Strategies.BATCH_TEMPLATE, Strategies.REDIS_BATCH_METHOD,
				// a batch of four chunks, all in flight at once
				Strategies.sweepId(25, BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES));
	}

	private static List<String> sweep(List<Integer> chunkSizes, List<Long> windows) {
		List<String> ids = new ArrayList<>();
		for (long window : windows) {
			for (int chunkSize : chunkSizes) {
				ids.add(Strategies.sweepId(chunkSize, window));
			}
		}
		return ids;
	}

	private static List<String> windows(List<Long> windows) {
		return windows.stream().map(Strategies::windowId).toList();
	}

	private static long mb(int mb) {
		return mb * 1024L * 1024L;
	}

	/**
	 * The group of the given name.
	 * @param name the name
	 * @return the group, if this plan has it
	 */
	java.util.Optional<Group> group(String name) {
		return this.groups.stream().filter((group) -> group.name().equals(name)).findFirst();
	}

	/**
	 * A set of JMH benchmarks run together: the cross products of its blocks.
	 *
	 * @param name the name ({@code --groups} selects by it)
	 * @param title the title in the report
	 * @param blocks the cross products of parameters
	 * @param iterations the JMH settings
	 * @param measure how each benchmark is measured
	 */
	record Group(String name, String title, List<Block> blocks, Iterations iterations, Measure measure) {

		Group(String name, String title, List<Block> blocks, Iterations iterations) {
			this(name, title, blocks, iterations, Measure.STANDARD);
		}

		static Group of(String name, String title, List<String> strategies, List<String> workloads, List<Integer> sizes,
				List<String> networks, Iterations iterations) {
			return new Group(name, title, List.of(new Block(strategies, workloads, sizes, networks)), iterations);
		}

		/**
		 * Every benchmark of the group, once, in run order.
		 * @return the cells
		 */
		List<Cell> cells() {
			// the strategies of one cell run one after the other, so that a machine whose
			// speed drifts during the run (a shared VM) moves both sides of a ratio alike
			Set<Cell> cells = new LinkedHashSet<>();
			for (Block block : this.blocks) {
				for (String workload : block.workloads()) {
					for (int n : block.sizes()) {
						for (String network : block.networks()) {
							for (String strategy : block.strategies()) {
								cells.add(new Cell(strategy, workload, n, network));
							}
						}
					}
				}
			}
			return new ArrayList<>(cells);
		}

		int size() {
			return cells().size();
		}

		List<String> strategies() {
			return cells().stream().map(Cell::strategy).distinct().toList();
		}

		List<String> workloads() {
			return cells().stream().map(Cell::workload).distinct().toList();
		}

		List<Integer> sizes() {
			return cells().stream().map(Cell::n).distinct().toList();
		}

		List<String> networks() {
			return cells().stream().map(Cell::network).distinct().toList();
		}

	}

	/**
	 * Every combination of some strategies, workloads, sizes and networks.
	 *
	 * @param strategies strategy ids
	 * @param workloads SET, GET, MIXED
	 * @param sizes the values of N
	 * @param networks direct, cluster, rtt0, rtt1, rtt5, rtt10
	 */
	record Block(List<String> strategies, List<String> workloads, List<Integer> sizes, List<String> networks) {

	}

	/**
	 * One benchmark: the values of the JMH parameters.
	 *
	 * @param strategy the strategy id
	 * @param workload SET, GET or MIXED
	 * @param n the workload size
	 * @param network the network
	 */
	record Cell(String strategy, String workload, int n, String network) {

		@Override
		public String toString() {
			return this.strategy + " " + this.workload + " n=" + this.n + " " + this.network;
		}

	}

	/**
	 * One memory run: one batch of {@link SuitePlan#memoryCommands()} SETs in a JVM of
	 * its own.
	 *
	 * @param strategy the strategy id
	 * @param heapMb the JVM's {@code -Xmx}, in MB
	 */
	record MemoryRun(String strategy, int heapMb) {

	}

	/**
	 * How the benchmarks of a group are measured.
	 *
	 * @param benchmark the JMH benchmark class (its method {@code batch})
	 * @param mode the JMH mode
	 * @param threads the JMH threads
	 * @param costs whether {@link CpuCostProfiler} and JMH's {@code gc} profiler run, for
	 * the CPU and the allocation per command, and the report gives a confidence interval
	 * per benchmark
	 * @param virtualThreads whether JMH's threads are virtual threads
	 * ({@code -Djmh.executor=VIRTUAL}, JDK 21 and later)
	 */
	record Measure(Class<?> benchmark, Mode mode, int threads, boolean costs, boolean virtualThreads) {

		Measure(Class<?> benchmark, Mode mode, int threads, boolean costs) {
			this(benchmark, mode, threads, costs, false);
		}

		/**
		 * The standard groups: average time per batch, one thread.
		 */
		static final Measure STANDARD = new Measure(StrategyBenchmark.class, Mode.AverageTime, 1, false);

		/**
		 * The reply-path cells: every batch timed (p50 and p99), one thread, with the
		 * costs.
		 */
		static final Measure REPLY_PATH = new Measure(StrategyBenchmark.class, Mode.SampleTime, 1, true);

		/**
		 * The concurrent scenario.
		 * @param threads the threads that send batches at the same time
		 * @return the measure
		 */
		static Measure concurrent(int threads) {
			return new Measure(ConcurrentBenchmark.class, Mode.SampleTime, threads, true);
		}

		/**
		 * The auto-batching scenario: every command timed, with the costs.
		 * @param threads the threads that call the template at the same time
		 * @param virtualThreads whether they are virtual threads
		 * @return the measure
		 */
		static Measure singleCommands(int threads, boolean virtualThreads) {
			return new Measure(AutoBatchingBenchmark.class, Mode.SampleTime, threads, true, virtualThreads);
		}

		boolean concurrent() {
			return this.benchmark == ConcurrentBenchmark.class;
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
	 * @param prewarmSeconds the longest pre-warm on loopback of each trial, 0 for none
	 * (see {@link Prewarm})
	 */
	record Iterations(int warmups, int warmupMillis, int measurements, int measurementMillis, int forks,
			int prewarmSeconds) {

		Iterations(int warmups, int warmupMillis, int measurements, int measurementMillis, int forks) {
			this(warmups, warmupMillis, measurements, measurementMillis, forks, 0);
		}

		@Override
		public String toString() {
			String prewarm = (this.prewarmSeconds > 0) ? "a pre-warm of up to " + Prewarm.BATCHES + " batches (at most "
					+ this.prewarmSeconds + " s) on loopback and one thread, then " : "";
			return this.forks + " fork(s), " + prewarm + this.warmups + " warmup × " + this.warmupMillis + " ms, "
					+ this.measurements + " measurement × " + this.measurementMillis + " ms";
		}

	}

}
