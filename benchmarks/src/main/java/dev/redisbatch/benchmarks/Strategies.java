package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;

import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;

/**
 * Every strategy of the suite, by id. The ids are the values of the JMH parameter
 * {@code strategy}.
 * <p>
 * Besides the named strategies, two families vary the in-flight window of
 * {@code BatchTemplate} (sizes are written {@code 256k}, {@code 4m}: KB and MB of 1024):
 * <ul>
 * <li>{@code batchTemplate-w<size>}: the auto-configured template with
 * {@code redis.batch.max-in-flight-bytes=<size>} and a command window too large to bind,
 * so that only the byte window limits it (the window sweep at a distance, and the memory
 * runs);</li>
 * <li>{@code batchTemplate-c<chunkSize>-w<size>}: a template built without Spring with
 * that chunk size and byte window, the command window again too large to bind (the
 * defaults sweep).</li>
 * </ul>
 */
final class Strategies {

	static final String ROUND_TRIP = "roundTrip";

	static final String PIPELINED_BOOT = "pipelinedBoot";

	static final String PIPELINED_BOOT_NO_POOL = "pipelinedBootNoPool";

	static final String PIPELINED_FLUSH_ON_CLOSE = "pipelinedFlushOnClose";

	static final String PIPELINED_BUFFERED = "pipelinedBuffered1000";

	static final String LETTUCE = "lettuceManualFlush";

	static final String REDISSON = "redissonBatch";

	static final String JEDIS = "jedisPipeline";

	static final String BATCH_TEMPLATE = "batchTemplate";

	static final String BATCH_TEMPLATE_TWO_CHUNKS = "batchTemplateTwoChunks";

	static final String BATCH_TEMPLATE_EVENT_LOOP = "batchTemplateEventLoop";

	static final String REDIS_BATCH_METHOD = "redisBatchMethod";

	static final String REACTIVE_BATCH_TEMPLATE = "reactiveBatchTemplate";

	static final String BATCH_TEMPLATE_CLUSTER = "batchTemplateCluster";

	static final String LETTUCE_CLUSTER = "lettuceCluster";

	static final String REDISSON_CLUSTER = "redissonCluster";

	static final String SPRING_BATCH_ITEMS = "springBatchRedisItem";

	static final String REDIS_BATCH_ITEMS = "redisBatchItem";

	/**
	 * The command window of the window variants: the most accepted, so that only the byte
	 * window binds.
	 */
	static final int UNBOUNDED_COMMANDS = BatchOptions.MAX_IN_FLIGHT_COMMANDS;

	/**
	 * The command window of the pre-window variant: two default chunks.
	 */
	static final int TWO_CHUNKS = 2 * BatchTemplate.DEFAULT_CHUNK_SIZE;

	private static final String SIZE = "(\\d+)([km])";

	private static final Pattern WINDOW = Pattern.compile("batchTemplate-w" + SIZE);

	private static final Pattern SWEEP = Pattern.compile("batchTemplate-c(\\d+)-w" + SIZE);

	private static final long KB = 1024;

	private static final long MB = 1024 * KB;

	private static final List<Descriptor> ALL = List.of(
			new Descriptor(ROUND_TRIP, "StringRedisTemplate, one command per round trip",
					"Boot's auto-configured StringRedisTemplate (pooled factory, shared native connection); "
							+ "opsForValue().set(k, v, ttl) / get(k) one after the other",
					RoundTripStrategy::new),
			new Descriptor(PIPELINED_BOOT, "executePipelined, Boot defaults (pooled, flushEachCommand)",
					"Boot's auto-configured StringRedisTemplate with commons-pool2 on the classpath: "
							+ "LettucePoolingClientConfiguration, flush policy flushEachCommand (the default)",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, true, null)),
			new Descriptor(PIPELINED_BOOT_NO_POOL, "executePipelined, Boot defaults without commons-pool2",
					"spring.data.redis.lettuce.pool.enabled=false (Boot's default when commons-pool2 is absent): "
							+ "a new connection per executePipelined, flushEachCommand",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, false, null)),
			new Descriptor(PIPELINED_FLUSH_ON_CLOSE, "executePipelined, pooled, flushOnClose",
					"Boot's pooled factory with setPipeliningFlushPolicy(flushOnClose())",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, true, PipeliningFlushPolicy.flushOnClose())),
			new Descriptor(PIPELINED_BUFFERED, "executePipelined, pooled, buffered(1000)",
					"Boot's pooled factory with setPipeliningFlushPolicy(buffered(1000))",
					(endpoint) -> new ExecutePipelinedStrategy(endpoint, true, PipeliningFlushPolicy.buffered(1000))),
			new Descriptor(LETTUCE, "Lettuce async, manual flush",
					"raw Lettuce: dedicated connection, setAutoFlushCommands(false), all commands, flushCommands(), "
							+ "await all",
					LettuceManualFlushStrategy::new),
			new Descriptor(REDISSON, "Redisson RBatch",
					"RBatch with StringCodec, execute(); batch response timeout 60 s", RedissonBatchStrategy::new),
			new Descriptor(JEDIS, "Jedis Pipeline", "Jedis RedisClient (pooled), pipelined(), sync()",
					JedisPipelineStrategy::new),
			new Descriptor(BATCH_TEMPLATE, "BatchTemplate, defaults",
					"the auto-configured stringBatchTemplate with no redis.batch property: setAll / getAll / execute "
							+ "with the default options (chunks of " + BatchTemplate.DEFAULT_CHUNK_SIZE + ", window of "
							+ size(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES) + " and "
							+ String.format(Locale.ROOT, "%,d", BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS)
							+ " commands)",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint)),
			new Descriptor(BATCH_TEMPLATE_EVENT_LOOP, "BatchTemplate, defaults, event loop's I/O",
					"the auto-configured stringBatchTemplate with -Dredis.batch.caller-io=false: the event loop "
							+ "writes the chunks and reads the replies (as under TLS), the batch's thread decodes them",
					(endpoint) -> {
						System.setProperty("redis.batch.caller-io", "false");
						return BatchTemplateStrategy.autoConfigured(endpoint);
					}),
			new Descriptor(BATCH_TEMPLATE_TWO_CHUNKS, "BatchTemplate, two chunks in flight (pre-window limit)",
					"the auto-configured stringBatchTemplate with redis.batch.max-in-flight-commands=" + TWO_CHUNKS
							+ " (2 × chunk-size): at most two chunks in flight, the limit "
							+ "BatchTemplate had before the window (parallelism 2)",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint,
							"redis.batch.max-in-flight-commands=" + TWO_CHUNKS)),
			new Descriptor(REDIS_BATCH_METHOD, "@RedisBatch method",
					"StringRedisTemplate calls (opsForValue().set(k, v, ttl), ...) in a @RedisBatch method; reads "
							+ "through StringBatchTemplate.execute, which joins the method's batch",
					RedisBatchMethodStrategy::new),
			new Descriptor(REACTIVE_BATCH_TEMPLATE, "ReactiveBatchTemplate, defaults",
					"the auto-configured reactiveStringBatchTemplate: setAll / getAll / execute of a Flux of the "
							+ "entries, keys or entity indexes, with the default options, awaited with block()",
					ReactiveBatchTemplateStrategy::new));

	/**
	 * The strategies of the cluster group, against the local Redis Cluster.
	 */
	private static final List<Descriptor> CLUSTER = List.of(
			new Descriptor(LETTUCE_CLUSTER, "Lettuce cluster async, manual flush",
					"RedisClusterClient: one cluster connection, setAutoFlushCommands(false), all commands (Lettuce "
							+ "routes each to its slot's master), flushCommands(), await all",
					(endpoint) -> LettuceManualFlushStrategy.cluster(BenchmarkEnvironment.clusterNodes())),
			new Descriptor(REDISSON_CLUSTER, "Redisson cluster RBatch",
					"useClusterServers(); RBatch with StringCodec, execute() (Redisson groups per master); "
							+ "batch response timeout 60 s",
					(endpoint) -> RedissonBatchStrategy.cluster(BenchmarkEnvironment.clusterNodes())),
			new Descriptor(BATCH_TEMPLATE_CLUSTER, "BatchTemplate on the cluster, defaults",
					"the auto-configured stringBatchTemplate with spring.data.redis.cluster.nodes: setAll / getAll / "
							+ "execute, grouped per master",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint, "spring.data.redis.cluster.nodes="
							+ String.join(",", BenchmarkEnvironment.clusterNodes()))));

	/**
	 * The strategies of the spring-batch group: item writers (SET) and item readers
	 * (GET).
	 */
	private static final List<Descriptor> SPRING_BATCH = List.of(
			new Descriptor(SPRING_BATCH_ITEMS, "Spring Batch RedisItemWriter / RedisItemReader",
					"spring-batch-infrastructure's RedisItemWriter (one SET per item, no TTL: it cannot set one) and "
							+ "RedisItemReader (SCAN COUNT 1000, one GET per key) on Boot's StringRedisTemplate; "
							+ "chunks of 1000 items written as a step writes them; behind the proxy with a round "
							+ "trip, an operation handles at most 5,000 / RTT ms items",
					SpringBatchItemStrategy::new),
			new Descriptor(REDIS_BATCH_ITEMS, "RedisBatchItemWriter / RedisBatchItemReader",
					"redis-batch-spring-batch on a StringBatchTemplate with the default options: each 1000-item chunk "
							+ "one batch (value mapper, no TTL), opened and updated as a step does; the reader "
							+ "SCANs COUNT 1000 and GETs each page in one batch",
					RedisBatchItemStrategy::new));

	private Strategies() {
	}

	/**
	 * The strategies of the spring-batch group, in report order.
	 * @return the descriptors
	 */
	static List<Descriptor> springBatch() {
		return SPRING_BATCH;
	}

	/**
	 * The ids of the spring-batch strategies.
	 * @return the ids
	 */
	static List<String> springBatchIds() {
		return SPRING_BATCH.stream().map(Descriptor::id).toList();
	}

	/**
	 * The strategies of the cluster group, in report order.
	 * @return the descriptors
	 */
	static List<Descriptor> cluster() {
		return CLUSTER;
	}

	/**
	 * The ids of the cluster strategies.
	 * @return the ids
	 */
	static List<String> clusterIds() {
		return CLUSTER.stream().map(Descriptor::id).toList();
	}

	/**
	 * Every named strategy, in report order.
	 * @return the descriptors
	 */
	static List<Descriptor> all() {
		return ALL;
	}

	/**
	 * The ids of the named strategies.
	 * @return the ids
	 */
	static List<String> ids() {
		List<String> ids = new ArrayList<>();
		for (Descriptor descriptor : ALL) {
			ids.add(descriptor.id());
		}
		return ids;
	}

	/**
	 * The id of a window variant: the auto-configured template with this byte window.
	 * @param windowBytes the byte window, a whole number of KB
	 * @return the id
	 */
	static String windowId(long windowBytes) {
		return "batchTemplate-w" + sizeId(windowBytes);
	}

	/**
	 * The id of a sweep strategy: a template built with this chunk size and byte window.
	 * @param chunkSize the chunk size
	 * @param windowBytes the byte window, a whole number of KB
	 * @return the id
	 */
	static String sweepId(int chunkSize, long windowBytes) {
		return "batchTemplate-c" + chunkSize + "-w" + sizeId(windowBytes);
	}

	/**
	 * The byte window of a window variant or sweep strategy.
	 * @param id the id
	 * @return the window in bytes, or -1 when the id has none
	 */
	static long windowBytes(String id) {
		Matcher window = WINDOW.matcher(id);
		if (window.matches()) {
			return bytes(window.group(1), window.group(2));
		}
		Matcher sweep = SWEEP.matcher(id);
		return sweep.matches() ? bytes(sweep.group(2), sweep.group(3)) : -1;
	}

	/**
	 * The chunk size of a sweep strategy.
	 * @param id the id
	 * @return the chunk size, or -1 when the id is not a sweep strategy
	 */
	static int sweepChunkSize(String id) {
		Matcher sweep = SWEEP.matcher(id);
		return sweep.matches() ? Integer.parseInt(sweep.group(1)) : -1;
	}

	/**
	 * A size as people read it: {@code 256 KB}, {@code 16 MB}.
	 * @param bytes the size
	 * @return the text
	 */
	static String size(long bytes) {
		return (bytes % MB == 0) ? (bytes / MB) + " MB"
				: (bytes % KB == 0) ? (bytes / KB) + " KB" : String.format(Locale.ROOT, "%,d bytes", bytes);
	}

	private static String sizeId(long bytes) {
		if (bytes <= 0 || bytes % KB != 0) {
			throw new IllegalArgumentException("A window is a whole number of KB, not " + bytes + " bytes");
		}
		return (bytes % MB == 0) ? (bytes / MB) + "m" : (bytes / KB) + "k";
	}

	private static long bytes(String number, String unit) {
		return Long.parseLong(number) * ("m".equals(unit) ? MB : KB);
	}

	/**
	 * Look a strategy up.
	 * @param id the id
	 * @return the descriptor
	 */
	static Descriptor describe(String id) {
		for (Descriptor descriptor : CLUSTER) {
			if (descriptor.id().equals(id)) {
				return descriptor;
			}
		}
		for (Descriptor descriptor : ALL) {
			if (descriptor.id().equals(id)) {
				return descriptor;
			}
		}
		for (Descriptor descriptor : SPRING_BATCH) {
			if (descriptor.id().equals(id)) {
				return descriptor;
			}
		}
		Matcher window = WINDOW.matcher(id);
		if (window.matches()) {
			long bytes = windowBytes(id);
			return new Descriptor(id, "BatchTemplate, window " + size(bytes),
					"the auto-configured stringBatchTemplate with redis.batch.max-in-flight-bytes=" + bytes
							+ "B and max-in-flight-commands=" + UNBOUNDED_COMMANDS + " (so that only the byte "
							+ "window binds)",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint,
							"redis.batch.max-in-flight-bytes=" + bytes + "B",
							"redis.batch.max-in-flight-commands=" + UNBOUNDED_COMMANDS));
		}
		Matcher sweep = SWEEP.matcher(id);
		if (sweep.matches()) {
			int chunkSize = sweepChunkSize(id);
			long bytes = windowBytes(id);
			return new Descriptor(id, "BatchTemplate, chunk " + chunkSize + ", window " + size(bytes),
					"StringBatchTemplate built with BatchOptions chunkSize(" + chunkSize + ").maxInFlightBytes(" + bytes
							+ ").maxInFlightCommands(" + UNBOUNDED_COMMANDS + ")",
					(endpoint) -> BatchTemplateStrategy.built(endpoint, chunkSize, bytes));
		}
		throw new IllegalArgumentException("Unknown strategy '" + id + "'; known: " + ids()
				+ ", batchTemplate-w<size> and batchTemplate-c<chunkSize>-w<size> (size: 256k, 4m, ...)");
	}

	/**
	 * The number of commands one operation of a strategy runs for a benchmark of size
	 * {@code n}: {@code n}, except for the loop with one command per round trip, which is
	 * bounded (see {@link RoundTripStrategy#commands(int, int)}).
	 * @param id the strategy
	 * @param n the workload size
	 * @param rttMillis the round trip the proxy adds
	 * @return the number of commands
	 */
	static int commands(String id, int n, int rttMillis) {
		if (SPRING_BATCH_ITEMS.equals(id)) {
			return SpringBatchItemStrategy.items(n, rttMillis);
		}
		return ROUND_TRIP.equals(id) ? RoundTripStrategy.commands(n, rttMillis) : n;
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
	 * A strategy of the suite.
	 *
	 * @param id the id (the JMH parameter value)
	 * @param label the name in tables and plots
	 * @param description how it is configured
	 * @param factory creates it
	 */
	record Descriptor(String id, String label, String description, Function<Endpoint, Strategy> factory) {

	}

}
