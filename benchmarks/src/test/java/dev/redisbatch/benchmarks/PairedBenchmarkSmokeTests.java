package dev.redisbatch.benchmarks;

import java.util.Collection;
import java.util.List;

import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PairedBenchmark} runs end to end at a tiny size against a real redis-server (JMH
 * in this JVM, no fork), and {@link PairedRun} turns its per-iteration counters into the
 * table. Nothing is timed or compared: the numbers only have to exist, one per measured
 * iteration, and every batch must have been answered as expected (the benchmark throws
 * otherwise).
 */
class PairedBenchmarkSmokeTests {

	private static RedisProcess redis;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
		System.setProperty(BenchmarkEnvironment.PORT, String.valueOf(redis.port()));
	}

	@AfterAll
	static void stopRedis() {
		System.clearProperty(BenchmarkEnvironment.PORT);
		redis.close();
	}

	@Test
	void everyMeasuredIterationHasBothClientsTimesAndTheirRatio() throws Exception {
		Collection<RunResult> runs = new Runner(new OptionsBuilder().include(PairedBenchmark.class.getName() + ".pair")
			.param("n", "10")
			.param("workload", "GET", "SET")
			.forks(0)
			.warmupIterations(0)
			.measurementIterations(3)
			.measurementTime(TimeValue.milliseconds(100))
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true)
			.build()).run();

		assertThat(runs).hasSize(2);
		for (RunResult run : runs) {
			for (String counter : List.of("ratio", "batchTemplateMicros", "jedisMicros", "batchTemplateCpuMicros",
					"jedisCpuMicros")) {
				assertThat(PairedRun.perIteration(run, counter)).as(counter).hasSize(3).allSatisfy((value) -> {
					assertThat(value).isPositive();
				});
			}
		}
		// the SET cell's keys (the GET cell's were loaded): the benchmark checked every
		// reply, the server has the keys
		assertThat(redis.call("DBSIZE")).isEqualTo(10L);
		assertThat(PairedRun.table(runs)).contains("| GET 10, direct | ").contains("| SET 10, direct | ").contains("×");
	}

}
