package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Runs every strategy once at a tiny size against a real redis-server, so that the
 * benchmark code cannot rot. These are not benchmarks: nothing is timed.
 */
class StrategiesSmokeTests {

	private static RedisProcess redis;

	private static ServerControl server;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
		server = new ServerControl(redis.port());
		System.setProperty(BenchmarkEnvironment.PORT, String.valueOf(redis.port()));
	}

	@AfterAll
	static void stopRedis() {
		System.clearProperty(BenchmarkEnvironment.PORT);
		server.close();
		redis.close();
	}

	static List<String> strategies() {
		List<String> ids = new ArrayList<>(Strategies.ids());
		// windows smaller than one chunk (one chunk in flight at a time) and of several
		ids.add(Strategies.windowId(1024));
		ids.add(Strategies.windowId(4L * 1024 * 1024));
		ids.add(Strategies.sweepId(7, 1024));
		ids.add(Strategies.sweepId(7, 4096));
		return ids;
	}

	@ParameterizedTest
	@MethodSource("strategies")
	void everyStrategyRunsEveryWorkloadAndChecksItsReplies(String id) {
		Workload workload = Workload.create(40, 1);
		server.flushAll();
		try (Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct())) {
			assertThat(strategy.set(workload)).isEqualTo(40);
			assertThat(redis.call("TTL", workload.keys()[0])).isInstanceOfSatisfying(Long.class,
					(ttl) -> assertThat(ttl).isBetween(3500L, 3600L));
			assertThat(strategy.get(workload)).isEqualTo(40);
			assertThat(strategy.mixed(workload)).isEqualTo(40);
			assertThat(redis.call("TTL", workload.hashKeys()[0])).isInstanceOfSatisfying(Long.class,
					(ttl) -> assertThat(ttl).isBetween(3500L, 3600L));
			long before = server.stringWrites();
			strategy.setGenerated(100, (i) -> Workload.key("key:", i), "v");
			assertThat(server.stringWrites() - before).isEqualTo(100);
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 10 })
	void theReplyPathStrategiesSendBatchesOfOneAndTenCommands(int n) {
		Workload workload = Workload.create(n, 2);
		for (String id : SuitePlan.REPLY_PATH_STRATEGIES) {
			server.flushAll();
			try (Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct())) {
				assertThat(strategy.set(workload)).isEqualTo(n);
				assertThat(strategy.get(workload)).isEqualTo(n);
			}
		}
	}

	@Test
	void theBatchTemplateVariantsRunWithTheWindowTheyAreNamedFor() {
		try (BatchTemplateStrategy defaults = (BatchTemplateStrategy) Strategies.create(Strategies.BATCH_TEMPLATE,
				BenchmarkEnvironment.direct());
				BatchTemplateStrategy twoChunks = (BatchTemplateStrategy) Strategies
					.create(Strategies.BATCH_TEMPLATE_TWO_CHUNKS, BenchmarkEnvironment.direct());
				BatchTemplateStrategy window = (BatchTemplateStrategy) Strategies
					.create(Strategies.windowId(256 * 1024), BenchmarkEnvironment.direct());
				BatchTemplateStrategy sweep = (BatchTemplateStrategy) Strategies.create(Strategies.sweepId(300, 4096),
						BenchmarkEnvironment.direct())) {
			assertThat(defaults.options().maxInFlightBytes()).isEqualTo(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES);
			assertThat(defaults.options().maxInFlightCommands())
				.isEqualTo(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS);
			assertThat(defaults.options().chunkSize()).isEqualTo(BatchTemplate.DEFAULT_CHUNK_SIZE);
			assertThat(twoChunks.options().maxInFlightCommands()).isEqualTo(2 * BatchTemplate.DEFAULT_CHUNK_SIZE);
			assertThat(twoChunks.options().maxInFlightBytes()).isEqualTo(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES);
			assertThat(window.options().maxInFlightBytes()).isEqualTo(256 * 1024);
			assertThat(window.options().maxInFlightCommands()).isEqualTo(BatchOptions.MAX_IN_FLIGHT_COMMANDS);
			assertThat(sweep.options().chunkSize()).isEqualTo(300);
			assertThat(sweep.options().maxInFlightBytes()).isEqualTo(4096);
			assertThat(sweep.options().maxInFlightCommands()).isEqualTo(BatchOptions.MAX_IN_FLIGHT_COMMANDS);
		}
	}

	@Test
	void bootDefaultsArePooledWithCommonsPool2AndUnpooledWithoutIt() {
		try (ExecutePipelinedStrategy pooled = new ExecutePipelinedStrategy(BenchmarkEnvironment.direct(), true, null);
				ExecutePipelinedStrategy unpooled = new ExecutePipelinedStrategy(BenchmarkEnvironment.direct(), false,
						null)) {
			assertThat(pooled.configuration()).contains("LettucePoolingClientConfiguration");
			assertThat(unpooled.configuration()).contains("no pool");
		}
	}

	@Test
	void theBenchmarkFailsWhenRepliesAreMissing() {
		StrategyBenchmark benchmark = new StrategyBenchmark();
		benchmark.strategy = Strategies.JEDIS;
		benchmark.workload = "GET";
		benchmark.n = 20;
		benchmark.setUp();
		try {
			assertThat(benchmark.batch()).isEqualTo(20);
			server.flushAll();
			assertThatIllegalStateException().isThrownBy(benchmark::batch).withMessageContaining("0 of 20");
		}
		finally {
			benchmark.tearDown();
		}
	}

	@Test
	void theRoundTripLoopIsBoundedByTheRoundTrip() {
		assertThat(Strategies.commands(Strategies.ROUND_TRIP, 100_000, 0)).isEqualTo(10_000);
		assertThat(Strategies.commands(Strategies.ROUND_TRIP, 10_000, 1)).isEqualTo(1_000);
		assertThat(Strategies.commands(Strategies.ROUND_TRIP, 10_000, 10)).isEqualTo(100);
		assertThat(Strategies.commands(Strategies.JEDIS, 10_000, 10)).isEqualTo(10_000);
		assertThat(Strategies.commands(Strategies.ROUND_TRIP, 100_000, 5)).isEqualTo(200);
	}

}
