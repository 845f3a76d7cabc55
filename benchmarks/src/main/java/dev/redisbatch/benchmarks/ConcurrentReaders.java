package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The strategies of the concurrent scenario, by id: many threads, each repeating a batch
 * of GETs, as the request threads of a web service do. Each side that pools connections
 * gets {@value #CONNECTIONS}, one per thread.
 */
final class ConcurrentReaders {

	static final String BATCH_TEMPLATE = "batchTemplatePool32";

	static final String JEDIS = "jedisPool32";

	static final String LETTUCE = "lettuceShared";

	static final String MGET = "lettuceSharedMget";

	/**
	 * The connections of each pool: one per thread of the scenario.
	 */
	static final int CONNECTIONS = SuitePlan.CONCURRENT_THREADS;

	private static final List<Descriptor> ALL = List
		.of(new Descriptor(BATCH_TEMPLATE, "BatchTemplate, pool of " + CONNECTIONS + ", getAll",
				"the auto-configured stringBatchTemplate with redis.batch.pool.max-active=" + CONNECTIONS
						+ " (max-idle defaults to it) and otherwise the default options: getAll of the batch's keys",
				(endpoint) -> BatchReader
					.of(BatchTemplateStrategy.autoConfigured(endpoint, "redis.batch.pool.max-active=" + CONNECTIONS))),
				new Descriptor(JEDIS, "Jedis pool of " + CONNECTIONS + ", one Pipeline per batch",
						"Jedis RedisClient with a pool of maxTotal = maxIdle = "
								+ CONNECTIONS + ": pipelined(), a GET per key, sync()",
						(endpoint) -> BatchReader.of(new JedisPipelineStrategy(endpoint, CONNECTIONS))),
				new Descriptor(LETTUCE, "Lettuce async, one shared connection",
						"raw Lettuce, one connection shared by every thread, auto-flush on: a GET per key with async(), "
								+ "then await all",
						(endpoint) -> new LettuceSharedReader(endpoint, false)),
				new Descriptor(MGET, "MGET on Lettuce's shared connection",
						"raw Lettuce, one connection shared by every thread: sync().mget(keys) of the batch's keys "
								+ "(one command; its CPU per command is per key read)",
						(endpoint) -> new LettuceSharedReader(endpoint, true)));

	private ConcurrentReaders() {
	}

	/**
	 * Every strategy of the scenario, in report order.
	 * @return the descriptors
	 */
	static List<Descriptor> all() {
		return ALL;
	}

	/**
	 * The ids, in report order.
	 * @return the ids
	 */
	static List<String> ids() {
		return ALL.stream().map(Descriptor::id).toList();
	}

	/**
	 * Look a strategy of the scenario up.
	 * @param id the id
	 * @return the descriptor, if the id is one of the scenario's
	 */
	static Optional<Descriptor> find(String id) {
		return ALL.stream().filter((d) -> d.id().equals(id)).findFirst();
	}

	/**
	 * Create a reader: its clients, pools and connections.
	 * @param id the id
	 * @param endpoint where it connects
	 * @return the reader
	 */
	static BatchReader create(String id, Endpoint endpoint) {
		return find(id)
			.orElseThrow(() -> new IllegalArgumentException(
					"Unknown strategy '" + id + "' of the concurrent scenario; " + "known: " + ids()))
			.factory()
			.apply(endpoint);
	}

	/**
	 * A strategy of the concurrent scenario.
	 *
	 * @param id the id (the JMH parameter value)
	 * @param label the name in tables
	 * @param description how it is configured
	 * @param factory creates it
	 */
	record Descriptor(String id, String label, String description, Function<Endpoint, BatchReader> factory) {

	}

}
