package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Every strategy of the benchmarks, by id: the values of the JMH parameter
 * {@code strategy}. Every strategy reuses long-lived clients and connections, as an
 * application would.
 */
final class Strategies {

	static final String BATCH_TEMPLATE = "batchTemplate";

	static final String BATCH_TEMPLATE_EVENT_LOOP = "batchTemplateEventLoop";

	static final String BATCH_TEMPLATE_PORTABLE = "batchTemplatePortable";

	static final String BATCH_TEMPLATE_EXACTLY_ONCE = "batchTemplateExactlyOnce";

	static final String JEDIS = "jedisPipeline";

	static final String PIPELINED = "pipelinedBoot";

	static final String PIPELINED_NO_POOL = "pipelinedBootNoPool";

	static final String REDISSON = "redissonBatch";

	static final String LETTUCE = "lettuceManualFlush";

	static final String SPRING_BATCH_WRITER = "springBatchRedisItemWriter";

	static final String REDIS_BATCH_ITEM_WRITER = "redisBatchItemWriter";

	static final String REDIS_BATCH_ITEM_WRITER_EXACTLY_ONCE = "redisBatchItemWriterExactlyOnce";

	/**
	 * {@code BatchTemplate} and its variants. The first is the one every suite measures;
	 * the profile {@code paired} also measures each of the others against Jedis, at N =
	 * 100 and 10,000 on loopback.
	 */
	private static final List<Descriptor> BATCH_TEMPLATES = List.of(
			new Descriptor(BATCH_TEMPLATE, "BatchTemplate",
					"the auto-configured stringBatchTemplate with no redis.batch property: setAll / getAll",
					BatchTemplateStrategy::autoConfigured),
			new Descriptor(BATCH_TEMPLATE_EVENT_LOOP, "BatchTemplate, event loop's I/O",
					"the same with -Ddev.redisbatch.caller-io=false: the event loop writes the chunks and reads the "
							+ "replies (as under TLS), the batch's thread decodes them",
					BatchTemplateStrategy::eventLoop),
			new Descriptor(BATCH_TEMPLATE_PORTABLE, "BatchTemplate, portable path",
					"the same with redis.batch.fast-path.enabled=false: Lettuce's own pipelining, as when a check "
							+ "of the fast path fails",
					BatchTemplateStrategy::portable));

	/**
	 * {@code BatchTemplate}'s exactly-once mode: measured against the plain batch of the
	 * same template (the profile {@code exactly-once}), never against Jedis.
	 */
	private static final Descriptor EXACTLY_ONCE = new Descriptor(BATCH_TEMPLATE_EXACTLY_ONCE,
			"BatchTemplate, exactly-once",
			"the auto-configured stringBatchTemplate, each batch with BatchOptions.builder().exactlyOnce(true): "
					+ "every chunk one EVAL of the marker script",
			BatchTemplateStrategy::exactlyOnce);

	/**
	 * The other ways to batch from a Spring application, as their documentation shows.
	 */
	private static final List<Descriptor> PEERS = List.of(
			new Descriptor(JEDIS, "Jedis Pipeline", "Jedis RedisClient (pooled), pipelined(), sync()",
					JedisPipelineStrategy::new),
			new Descriptor(PIPELINED, "executePipelined, Boot's defaults",
					"Boot's auto-configured StringRedisTemplate with commons-pool2 on the classpath: "
							+ "LettucePoolingClientConfiguration, flush policy flushEachCommand",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, true)),
			new Descriptor(PIPELINED_NO_POOL, "executePipelined, no commons-pool2",
					"spring.data.redis.lettuce.pool.enabled=false (Boot's default without commons-pool2): a new "
							+ "connection per executePipelined",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, false)),
			new Descriptor(REDISSON, "Redisson RBatch",
					"RBatch with StringCodec, execute(); batch response timeout 60 s", RedissonBatchStrategy::new),
			new Descriptor(LETTUCE, "Lettuce, manual flush",
					"a dedicated connection, setAutoFlushCommands(false), every command, flushCommands(), await all",
					LettuceManualFlushStrategy::new));

	/**
	 * The Spring Batch item writers, each called as a chunk-oriented step calls it (see
	 * {@link SpringBatchWriterStrategy}): they write items only, with no TTL (the profile
	 * {@code spring-batch}).
	 */
	private static final List<Descriptor> SPRING_BATCH_WRITERS = List.of(
			new Descriptor(SPRING_BATCH_WRITER, "Spring Batch RedisItemWriter",
					"Spring Batch 6's own writer (RedisItemWriterBuilder) on a RedisTemplate over Boot's "
							+ "auto-configured connection factory: opsForValue().set(key, item) per item, each waiting "
							+ "for its reply; chunks of "
							+ String.format(Locale.ROOT, "%,d", SpringBatchWriterStrategy.CHUNK) + " items",
					SpringBatchWriterStrategy::springBatch),
			new Descriptor(REDIS_BATCH_ITEM_WRITER, "RedisBatchItemWriter",
					"redis-batch's writer on the auto-configured stringBatchTemplate, RedisItemMappers.value with no "
							+ "TTL, opened as an ItemStream and updated before each commit: each chunk of "
							+ String.format(Locale.ROOT, "%,d", SpringBatchWriterStrategy.CHUNK)
							+ " items one pipelined batch",
					SpringBatchWriterStrategy::redisBatch),
			new Descriptor(REDIS_BATCH_ITEM_WRITER_EXACTLY_ONCE, "RedisBatchItemWriter, exactly-once",
					"the same writer with options(BatchOptions.builder().exactlyOnce(true).build()): each "
							+ "chunk of items one batch, each of whose chunks is one EVAL of the marker script",
					SpringBatchWriterStrategy::redisBatchExactlyOnce));

	private Strategies() {
	}

	/**
	 * {@code BatchTemplate} and its variants, {@value #BATCH_TEMPLATE} first.
	 * @return the ids
	 */
	static List<String> batchTemplates() {
		return BATCH_TEMPLATES.stream().map(Descriptor::id).toList();
	}

	/**
	 * {@code BatchTemplate} and every peer, in report order.
	 * @return the ids
	 */
	static List<String> peers() {
		List<String> ids = new ArrayList<>(List.of(BATCH_TEMPLATE));
		PEERS.forEach((peer) -> ids.add(peer.id()));
		return ids;
	}

	/**
	 * The Spring Batch item writers, Spring Batch's own first.
	 * @return the ids
	 */
	static List<String> springBatchWriters() {
		return SPRING_BATCH_WRITERS.stream().map(Descriptor::id).toList();
	}

	/**
	 * Every strategy that sends batches of commands: every one but the Spring Batch item
	 * writers.
	 * @return the descriptors
	 */
	static List<Descriptor> batches() {
		List<Descriptor> all = new ArrayList<>(BATCH_TEMPLATES);
		all.add(EXACTLY_ONCE);
		all.addAll(PEERS);
		return all;
	}

	/**
	 * Every strategy.
	 * @return the descriptors
	 */
	static List<Descriptor> all() {
		List<Descriptor> all = new ArrayList<>(batches());
		all.addAll(SPRING_BATCH_WRITERS);
		return all;
	}

	/**
	 * Look a strategy up.
	 * @param id the id
	 * @return the descriptor
	 */
	static Descriptor describe(String id) {
		return all().stream()
			.filter((descriptor) -> descriptor.id().equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown strategy '" + id + "'"));
	}

	/**
	 * Create a strategy: its clients, pools and connections.
	 * @param id the id
	 * @param endpoint where it connects
	 * @return the strategy
	 */
	static Strategy create(String id, Endpoint endpoint) {
		return describe(id).factory().apply(endpoint);
	}

	/**
	 * A strategy.
	 *
	 * @param id the id (the JMH parameter value)
	 * @param label the name in tables
	 * @param description how it is configured
	 * @param factory creates it
	 */
	record Descriptor(String id, String label, String description, Function<Endpoint, Strategy> factory) {

	}

}
