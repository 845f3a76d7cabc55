package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;

/**
 * Every strategy of the suite, by id. The ids are the values of the JMH parameter
 * {@code strategy}.
 * <p>
 * Besides the named strategies, {@code batchTemplate-c<chunkSize>-p<parallelism>} builds
 * a {@code BatchTemplate} with those options (the defaults sweep).
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

	static final String BATCH_TEMPLATE_P1 = "batchTemplateP1";

	static final String BATCH_TEMPLATE_P4 = "batchTemplateP4";

	static final String REDIS_BATCH_METHOD = "redisBatchMethod";

	static final String BATCH_TEMPLATE_CLUSTER = "batchTemplateCluster";

	static final String LETTUCE_CLUSTER = "lettuceCluster";

	static final String REDISSON_CLUSTER = "redissonCluster";

	static final String SPRING_BATCH_ITEMS = "springBatchRedisItem";

	static final String REDIS_BATCH_ITEMS = "redisBatchItem";

	private static final Pattern SWEEP = Pattern.compile("batchTemplate-c(\\d+)-p(\\d+)");

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
					"the auto-configured stringBatchTemplate: setAll / getAll / execute with the default options",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint)),
			new Descriptor(BATCH_TEMPLATE_P1, "BatchTemplate, parallelism 1",
					"the auto-configured stringBatchTemplate with redis.batch.parallelism=1 (one chunk in flight)",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint, "redis.batch.parallelism=1")),
			new Descriptor(BATCH_TEMPLATE_P4, "BatchTemplate, parallelism 4",
					"the auto-configured stringBatchTemplate with redis.batch.parallelism=4",
					(endpoint) -> BatchTemplateStrategy.autoConfigured(endpoint, "redis.batch.parallelism=4")),
			new Descriptor(REDIS_BATCH_METHOD, "@RedisBatch method",
					"StringRedisTemplate calls (opsForValue().set(k, v, ttl), ...) in a @RedisBatch method; reads "
							+ "through StringBatchTemplate.execute, which joins the method's batch",
					RedisBatchMethodStrategy::new));

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
	 * The id of a sweep strategy.
	 * @param chunkSize the chunk size
	 * @param parallelism the parallelism
	 * @return the id
	 */
	static String sweepId(int chunkSize, int parallelism) {
		return "batchTemplate-c" + chunkSize + "-p" + parallelism;
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
		Matcher sweep = SWEEP.matcher(id);
		if (sweep.matches()) {
			int chunkSize = Integer.parseInt(sweep.group(1));
			int parallelism = Integer.parseInt(sweep.group(2));
			return new Descriptor(id, "BatchTemplate, chunk " + chunkSize + ", parallelism " + parallelism,
					"StringBatchTemplate built with BatchOptions chunkSize(" + chunkSize + ").parallelism("
							+ parallelism + ")",
					(endpoint) -> BatchTemplateStrategy.built(endpoint, chunkSize, parallelism));
		}
		throw new IllegalArgumentException(
				"Unknown strategy '" + id + "'; known: " + ids() + " and batchTemplate-c<chunkSize>-p<parallelism>");
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
