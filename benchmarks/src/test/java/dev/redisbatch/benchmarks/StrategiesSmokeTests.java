package dev.redisbatch.benchmarks;

import java.util.List;

import dev.redisbatch.BatchTemplate;
import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Every strategy sends real batches to a real redis-server and checks its replies, so
 * that the benchmark code cannot rot. Nothing is timed.
 */
class StrategiesSmokeTests {

	private static RedisProcess redis;

	private static Server server;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
		System.setProperty(BenchmarkEnvironment.PORT, String.valueOf(redis.port()));
		server = new Server(redis.port());
	}

	@AfterAll
	static void stopRedis() {
		server.close();
		System.clearProperty(BenchmarkEnvironment.PORT);
		redis.close();
	}

	static List<String> strategies() {
		return Strategies.batches().stream().map(Strategies.Descriptor::id).toList();
	}

	@ParameterizedTest
	@MethodSource("strategies")
	void everyStrategyWritesWithATtlReadsBackAndCountsWhatIsMissing(String id) {
		Workload one = Workload.create(1, 1);
		Workload forty = Workload.create(40, 2);
		server.reset(null);
		try (Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct())) {
			assertThat(strategy.set(one)).isEqualTo(1);
			assertThat(strategy.get(one)).isEqualTo(1);
			assertThat(strategy.set(forty)).isEqualTo(40);
			assertThat(redis.call("TTL", forty.keys()[39])).isInstanceOfSatisfying(Long.class,
					(ttl) -> assertThat(ttl).isBetween(3500L, 3600L));
			assertThat(strategy.get(forty)).isEqualTo(40);
			redis.call("DEL", forty.keys()[0], forty.keys()[7]);
			assertThat(strategy.get(forty)).isEqualTo(38);
			long before = server.stringWrites();
			strategy.setGenerated(100, Workload::key, "v");
			// an exactly-once chunk's script claims its marker and keeps its replies: two
			// SETs
			// of its own (the hundred SETs go in one chunk)
			long own = id.equals(Strategies.BATCH_TEMPLATE_EXACTLY_ONCE) ? 2 : 0;
			assertThat(server.stringWrites() - before).isEqualTo(100 + own);
		}
	}

	@ParameterizedTest
	@MethodSource("dev.redisbatch.benchmarks.Strategies#springBatchWriters")
	void everySpringBatchWriterWritesEachItemAsOneSetWithoutATtlInChunks(String id) {
		// two chunks and a half
		Workload items = Workload.create(2 * SpringBatchWriterStrategy.CHUNK + 500, 4);
		server.reset(null);
		try (Strategy writer = Strategies.create(id, BenchmarkEnvironment.direct())) {
			long before = server.stringWrites();
			assertThat(writer.set(items)).isEqualTo(items.size());
			long own = server.stringWrites() - before - items.size();
			if (id.equals(Strategies.REDIS_BATCH_ITEM_WRITER_EXACTLY_ONCE)) {
				// each batch chunk's script claims its marker and keeps its replies: two
				// SETs of its own, and at least one batch chunk per chunk of items
				assertThat(own).isGreaterThanOrEqualTo(2 * 3).isEven();
			}
			else {
				assertThat(own).isZero();
			}
			for (int i : new int[] { 0, SpringBatchWriterStrategy.CHUNK, items.size() - 1 }) {
				assertThat(redis.call("GET", items.keys()[i])).isEqualTo(items.values()[i]);
				assertThat(redis.call("TTL", items.keys()[i])).isEqualTo(-1L);
			}
			// the same items again, as the next step would write them
			assertThat(writer.set(items)).isEqualTo(items.size());
			assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> writer.get(items));
		}
	}

	@Test
	void theEventLoopVariantLeavesTheIoToTheEventLoopWhileItIsOpen() {
		try (BatchTemplateStrategy variant = (BatchTemplateStrategy) Strategies
			.create(Strategies.BATCH_TEMPLATE_EVENT_LOOP, BenchmarkEnvironment.direct())) {
			assertThat(System.getProperty(BatchTemplateStrategy.CALLER_IO)).isEqualTo("false");
			assertThat(variant.options().chunkSize()).isEqualTo(BatchTemplate.DEFAULT_CHUNK_SIZE);
		}
		assertThat(System.getProperty(BatchTemplateStrategy.CALLER_IO)).isNull();
	}

	@Test
	void bootDefaultsArePooledWithCommonsPool2AndUnpooledWithoutIt() {
		try (ExecutePipelinedStrategy pooled = new ExecutePipelinedStrategy(BenchmarkEnvironment.direct(), true);
				ExecutePipelinedStrategy unpooled = new ExecutePipelinedStrategy(BenchmarkEnvironment.direct(),
						false)) {
			assertThat(pooled.configuration()).contains("LettucePoolingClientConfiguration");
			assertThat(unpooled.configuration()).contains("no pool");
		}
	}

	@Test
	void aPrewarmSendsCheckedBatchesOnLoopbackWithAClientOfItsOwn() {
		Workload keys = Workload.create(10, 3);
		server.reset(null);
		long misses = Long.parseLong(String.valueOf(redis.info("stats").get("keyspace_misses")));
		Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size());
		assertThat(redis.info("stats")).containsEntry("keyspace_misses", String.valueOf(misses));
		System.setProperty(Prewarm.SECONDS, "1");
		try {
			assertThatIllegalStateException()
				.isThrownBy(() -> Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size()))
				.withMessageContaining("(pre-warm): 0 of 10");
			server.reset(keys);
			long hits = Long.parseLong(redis.info("stats").get("keyspace_hits"));
			Prewarm.onLoopback(Strategies.JEDIS, (jedis) -> jedis.get(keys), keys.size());
			long read = Long.parseLong(redis.info("stats").get("keyspace_hits")) - hits;
			assertThat(read).isPositive().isLessThanOrEqualTo(10L * Prewarm.BATCHES);
			assertThat(read % 10).isZero();
		}
		finally {
			System.clearProperty(Prewarm.SECONDS);
		}
	}

}
