package dev.redisbatch.benchmarks;

import java.util.List;

import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the strategies of the spring-batch group once at a tiny size against a real
 * redis-server, so that the benchmark code cannot rot. Nothing is timed.
 */
class SpringBatchStrategiesSmokeTests {

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
		return Strategies.springBatchIds();
	}

	@ParameterizedTest
	@MethodSource("strategies")
	void everyItemStrategyWritesAndReadsTheWorkload(String id) {
		Workload workload = Workload.create(2_500, 1);
		server.flushAll();
		try (Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct())) {
			assertThat(strategy.set(workload)).isEqualTo(2_500);
			assertThat(redis.call("DBSIZE")).isEqualTo(2_500L);
			assertThat(redis.call("GET", workload.keys()[2_499])).isEqualTo(workload.values()[2_499]);
			assertThat(strategy.get(workload)).isEqualTo(2_500);
		}
	}

	@Test
	void theOneRoundTripPerItemStrategyIsBoundedBehindALatency() {
		assertThat(Strategies.commands(Strategies.SPRING_BATCH_ITEMS, 100_000, 0)).isEqualTo(100_000);
		assertThat(Strategies.commands(Strategies.SPRING_BATCH_ITEMS, 100_000, 1)).isEqualTo(5_000);
		assertThat(Strategies.commands(Strategies.REDIS_BATCH_ITEMS, 100_000, 1)).isEqualTo(100_000);
	}

	@Test
	void theGroupRunsAtZeroAndOneMillisecondInEveryProfile() {
		for (String profile : List.of("smoke", "standard")) {
			SuitePlan.Group group = SuitePlan.of(profile)
				.groups()
				.stream()
				.filter((candidate) -> candidate.name().equals("spring-batch"))
				.findFirst()
				.orElseThrow();
			assertThat(group.strategies()).containsExactlyElementsOf(Strategies.springBatchIds());
			assertThat(group.networks()).containsExactly("rtt0", "rtt1");
			assertThat(group.workloads()).containsExactly("SET", "GET");
		}
	}

}
