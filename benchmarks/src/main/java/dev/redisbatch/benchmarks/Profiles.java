package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * What each profile of the runner measures: steps of a suite, each with its cells and its
 * JMH settings.
 * <ul>
 * <li>{@code paired}: {@code BatchTemplate} against Jedis in pairs, N = 1 to 100,000 on
 * loopback and 100 to 100,000 at 1, 5 and 10 ms; every other {@code BatchTemplate}
 * variant at N = 100 and 10,000 on loopback;</li>
 * <li>{@code peers}: every peer at N = 1 to 100,000 on loopback;</li>
 * <li>{@code distance}: every peer at N = 10,000 on loopback and at 1, 5 and 10 ms;</li>
 * <li>{@code concurrency}: the application's template called by 1 to 256 threads (and 256
 * and 1,024 virtual threads where the forks' JDK has them), on loopback and at 1 ms;</li>
 * <li>{@code memory}: one batch of ten million SETs in 128 MB, and the new connections
 * per batch;</li>
 * <li>{@code polite}: GET latency during a backfill of a million SETs;</li>
 * <li>{@code exactly-once}: {@code BatchTemplate}'s exactly-once batch against its plain
 * batch in pairs, N = 10,000 and 100,000 SETs on loopback and at 1 ms, with the server's
 * CPU per command; then the markers' memory for chunks of 100 and 1,000 INCRs and
 * SETs;</li>
 * <li>{@code spring-batch}: Spring Batch's own {@code RedisItemWriter}, redis-batch's
 * {@code RedisBatchItemWriter} and the same in exactly-once mode, each writing chunks of
 * 1,000 items ({@code SET key value}) as a chunk-oriented step calls it, on loopback and
 * at 1 ms;</li>
 * <li>{@code smoke}: every suite at tiny sizes and iterations, to prove the chain
 * works.</li>
 * </ul>
 */
final class Profiles {

	static final List<String> NAMES = List.of("paired", "peers", "distance", "concurrency", "memory", "polite",
			"exactly-once", "spring-batch", "smoke");

	private static final List<String> WORKLOADS = List.of("GET", "SET");

	private static final List<String> FAR = List.of("rtt1", "rtt5", "rtt10");

	private static final String DIRECT = BenchmarkEnvironment.DIRECT;

	private Profiles() {
	}

	/**
	 * The steps of a profile.
	 * @param profile its name, one of {@link #NAMES}
	 * @param virtualThreads whether the forks' JDK has virtual threads
	 * @return the steps, in run order
	 */
	static List<Step> of(String profile, boolean virtualThreads) {
		Iterations peers = new Iterations(1, 2, 1000, 5, 1000, 0);
		Iterations tiny = new Iterations(1, 1, 200, 3, 200, 0);
		Iterations once = new Iterations(1, 0, 0, 1, 0, 0);
		return switch (profile) {
			case "paired" -> List.of(new Step(Suite.PAIRED, new Iterations(2, 8, 1000, 8, 1000, 10), paired()));
			case "peers" -> List.of(new Step(Suite.PEERS, peers,
					batches(Strategies.peers(), WORKLOADS, List.of(1, 100, 10_000, 100_000), List.of(DIRECT))));
			case "distance" -> List.of(new Step(Suite.PEERS, new Iterations(1, 2, 1000, 5, 1000, 5),
					batches(Strategies.peers(), WORKLOADS, List.of(10_000), List.of(DIRECT, "rtt1", "rtt5", "rtt10"))));
			case "concurrency" -> List
				.of(new Step(Suite.CONCURRENCY, new Iterations(2, 1, 2000, 4, 1000, 0), threads(List.of(1, 16, 64, 256),
						virtualThreads ? List.of(256, 1024) : List.of(), List.of(DIRECT, "rtt1"))));
			case "memory" -> List.of(new Step(Suite.MEMORY, once, memory(10_000_000)), new Step(Suite.PEERS, peers,
					batches(Strategies.peers(), List.of("SET"), List.of(100), List.of(DIRECT))));
			case "polite" -> List.of(new Step(Suite.POLITE, once, List.of(polite(1_000_000, 8))));
			case "exactly-once" -> List.of(
					new Step(Suite.EXACTLY_ONCE, new Iterations(2, 3, 1000, 8, 2000, 5),
							batches(List.of(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE), List.of("SET"),
									List.of(10_000, 100_000), List.of(DIRECT, "rtt1"))),
					new Step(Suite.MARKERS, once, markers(List.of(100, 1_000))));
			case "spring-batch" -> List.of(new Step(Suite.SPRING_BATCH, new Iterations(1, 2, 1000, 5, 1000, 5),
					batches(Strategies.springBatchWriters(), List.of("SET"), List.of(SpringBatchWriterStrategy.CHUNK),
							List.of(DIRECT, "rtt1"))));
			case "smoke" ->
				List.of(new Step(Suite.PAIRED, tiny, List.of(Cell.batch(Strategies.BATCH_TEMPLATE, "GET", 10, "rtt1"))),
						new Step(Suite.PAIRED, tiny,
								batches(Strategies.batchTemplates(), WORKLOADS, List.of(10), List.of(DIRECT))),
						new Step(Suite.PEERS, tiny,
								batches(Strategies.peers(), WORKLOADS, List.of(100), List.of(DIRECT, "rtt1"))),
						new Step(Suite.CONCURRENCY, tiny,
								threads(List.of(4), virtualThreads ? List.of(4) : List.of(), List.of(DIRECT))),
						new Step(Suite.EXACTLY_ONCE, tiny,
								List.of(Cell.batch(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE, "SET", 100, DIRECT))),
						new Step(Suite.MARKERS, once, markers(List.of(10))),
						new Step(Suite.SPRING_BATCH, tiny,
								batches(Strategies.springBatchWriters(), List.of("SET"), List.of(100),
										List.of(DIRECT))),
						new Step(Suite.MEMORY, once, memory(200_000)),
						new Step(Suite.POLITE, once, List.of(polite(20_000, 2))));
			default -> throw new IllegalArgumentException(
					"Unknown profile '" + profile + "': one of " + String.join(", ", NAMES));
		};
	}

	private static List<Cell> paired() {
		List<Cell> cells = new ArrayList<>(batches(List.of(Strategies.BATCH_TEMPLATE), WORKLOADS,
				List.of(1, 10, 100, 1_000, 10_000, 100_000), List.of(DIRECT)));
		cells.addAll(batches(List.of(Strategies.BATCH_TEMPLATE), WORKLOADS, List.of(100, 1_000, 10_000, 100_000), FAR));
		List<String> variants = Strategies.batchTemplates().subList(1, Strategies.batchTemplates().size());
		cells.addAll(batches(variants, WORKLOADS, List.of(100, 10_000), List.of(DIRECT)));
		return cells;
	}

	/**
	 * Every combination of strategies, workloads, sizes and networks, one thread; the
	 * strategies of a cell next to each other, so that a machine whose speed drifts
	 * during the run moves them alike.
	 */
	private static List<Cell> batches(List<String> strategies, List<String> workloads, List<Integer> sizes,
			List<String> networks) {
		List<Cell> cells = new ArrayList<>();
		for (String network : networks) {
			for (int n : sizes) {
				for (String workload : workloads) {
					for (String strategy : strategies) {
						cells.add(Cell.batch(strategy, workload, n, network));
					}
				}
			}
		}
		return cells;
	}

	private static List<Cell> threads(List<Integer> platform, List<Integer> virtual, List<String> networks) {
		List<Cell> cells = new ArrayList<>();
		for (String network : networks) {
			for (int threads : platform) {
				SingleCommandClients.ids().forEach((id) -> cells.add(new Cell(id, "", 1, network, threads, false)));
			}
			for (int threads : virtual) {
				SingleCommandClients.ids().forEach((id) -> cells.add(new Cell(id, "", 1, network, threads, true)));
			}
		}
		return cells;
	}

	private static List<Cell> memory(int commands) {
		return Strategies.peers()
			.stream()
			.filter((id) -> !id.equals(Strategies.PIPELINED_NO_POOL))
			.map((id) -> new Cell(id, "SET", commands, DIRECT, 1, false))
			.toList();
	}

	/**
	 * The markers of chunks of each size, of INCRs and of SETs.
	 */
	private static List<Cell> markers(List<Integer> chunkSizes) {
		List<Cell> cells = new ArrayList<>();
		for (int n : chunkSizes) {
			for (String workload : List.of("INCR", "SET")) {
				cells.add(Cell.batch(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE, workload, n, DIRECT));
			}
		}
		return cells;
	}

	private static Cell polite(int backfill, int readers) {
		return new Cell(Strategies.BATCH_TEMPLATE, "", backfill, DIRECT, readers, false);
	}

	/**
	 * The cells of a suite, run with the same settings.
	 *
	 * @param suite the suite
	 * @param iterations the JMH settings
	 * @param cells the cells, in run order
	 */
	record Step(Suite suite, Iterations iterations, List<Cell> cells) {

	}

	/**
	 * JMH settings.
	 *
	 * @param forks forks per cell
	 * @param warmups warmup iterations
	 * @param warmupMillis time per warmup iteration
	 * @param measurements measured iterations
	 * @param measurementMillis time per measured iteration
	 * @param prewarmSeconds the longest pre-warm on loopback of each trial, 0 for none
	 * (see {@link Prewarm})
	 */
	record Iterations(int forks, int warmups, int warmupMillis, int measurements, int measurementMillis,
			int prewarmSeconds) {

	}

}
