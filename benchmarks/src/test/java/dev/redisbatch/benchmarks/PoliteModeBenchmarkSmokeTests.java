package dev.redisbatch.benchmarks;

import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the polite-mode benchmark once at a tiny size against a real redis-server, so that
 * the benchmark code cannot rot. Not a benchmark: no time or latency is asserted.
 */
class PoliteModeBenchmarkSmokeTests {

	@Test
	void theThreeRunsAreMeasuredAndReported() throws Exception {
		try (RedisProcess redis = RedisProcess.start()) {
			PoliteModeBenchmark.Result result = PoliteModeBenchmark.run(redis.port(), 5_000, 2);

			assertThat(result.scenarios()).extracting(PoliteModeBenchmark.Scenario::name)
				.containsExactly("no backfill (baseline)", "backfill at full speed", "backfill capped at 50%");
			PoliteModeBenchmark.Scenario full = result.scenarios().get(1);
			PoliteModeBenchmark.Scenario capped = result.scenarios().get(2);
			assertThat(full.cap()).isZero();
			assertThat(capped.cap()).isEqualTo(Math.round(full.backfillRate() / 2));
			assertThat(result.scenarios()).allSatisfy((scenario) -> assertThat(scenario.gets()).isPositive());
			assertThat(result.markdown()).contains("| backfill capped at 50% | ")
				.contains("![GET latency during a backfill](polite-mode.svg)");
			assertThat(result.chart()).startsWith("<svg").contains("p99.9");
			// the benchmark cleans up after itself
			assertThat(redis.call("DBSIZE")).isEqualTo(0L);
		}
	}

}
