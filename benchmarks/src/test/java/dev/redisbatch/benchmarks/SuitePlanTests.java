package dev.redisbatch.benchmarks;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Mode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The plans name only strategies that exist, and the standard plan measures what the
 * targets need. Nothing runs.
 */
class SuitePlanTests {

	@ParameterizedTest
	@ValueSource(strings = { "smoke", "standard", "full", "reply-path", "reply-path-smoke", "reply-path-loopback",
			"reply-path-small", "reply-path-steady" })
	void everyStrategyOfEveryPlanExists(String profile) {
		SuitePlan plan = SuitePlan.of(profile);
		for (SuitePlan.Group group : plan.groups()) {
			assertThat(group.cells()).isNotEmpty();
			if (group.measure().concurrent()) {
				assertThat(ConcurrentReaders.ids()).containsAll(group.strategies());
			}
			else {
				group.strategies().forEach(Strategies::describe);
			}
		}
		plan.memoryRuns().forEach((run) -> Strategies.describe(run.strategy()));
		plan.connectionStrategies().forEach(Strategies::describe);
		assertThat(SuitePlan.STEPS).containsAll(plan.steps());
	}

	@Test
	void theReplyPathPlanMeasuresEveryCellOfIssue22WithThreeForksAndCosts() {
		SuitePlan plan = SuitePlan.of("reply-path");
		List<SuitePlan.Cell> cells = plan.groups()
			.stream()
			.filter((group) -> !group.measure().concurrent())
			.flatMap((group) -> group.cells().stream())
			.toList();
		for (String strategy : List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS)) {
			for (String workload : List.of("SET", "GET")) {
				for (int n : List.of(100, 1_000, 10_000, 100_000)) {
					for (String network : List.of("direct", "rtt1", "rtt5", "rtt10")) {
						assertThat(cells).contains(new SuitePlan.Cell(strategy, workload, n, network));
					}
				}
				for (int n : List.of(1, 10)) {
					assertThat(cells).contains(new SuitePlan.Cell(strategy, workload, n, "direct"));
				}
			}
		}
		assertThat(cells).hasSize(2 * 2 * (4 * 4 + 2));
		for (SuitePlan.Group group : plan.groups()) {
			assertThat(group.iterations().forks()).isGreaterThanOrEqualTo(3);
			assertThat(group.measure().costs()).isTrue();
			assertThat(group.measure().mode()).isEqualTo(Mode.SampleTime);
		}
		SuitePlan.Group concurrent = plan.group("concurrent").orElseThrow();
		assertThat(concurrent.measure().threads()).isEqualTo(32);
		assertThat(concurrent.iterations().measurementMillis()).isEqualTo(10_000);
		assertThat(concurrent.cells()).containsExactly(
				new SuitePlan.Cell(ConcurrentReaders.BATCH_TEMPLATE, "GET", 100, "direct"),
				new SuitePlan.Cell(ConcurrentReaders.JEDIS, "GET", 100, "direct"),
				new SuitePlan.Cell(ConcurrentReaders.LETTUCE, "GET", 100, "direct"),
				new SuitePlan.Cell(ConcurrentReaders.MGET, "GET", 100, "direct"));
		assertThat(plan.steps()).containsExactly("memory", "connections");
		assertThat(plan.memoryRuns()).containsExactly(new SuitePlan.MemoryRun(Strategies.BATCH_TEMPLATE, 128));
		assertThat(plan.connectionStrategies()).containsExactly(Strategies.BATCH_TEMPLATE);
	}

	@Test
	void theStandardPlansAreMeasuredAsBeforeAndPublishedWhereTheyWere() {
		for (String profile : List.of("standard", "full", "smoke")) {
			SuitePlan plan = SuitePlan.of(profile);
			assertThat(plan.groups())
				.allSatisfy((group) -> assertThat(group.measure()).isEqualTo(SuitePlan.Measure.STANDARD));
			assertThat(plan.steps()).isEqualTo(SuitePlan.STEPS);
			assertThat(plan.publishDirectory(Path.of("docs", "performance"))).isEqualTo(Path.of("docs", "performance"));
		}
		assertThat(SuitePlan.of("reply-path").publishDirectory(Path.of("docs", "performance")))
			.isEqualTo(Path.of("docs", "performance", "reply-path"));
		assertThat(SuitePlan.of("reply-path-smoke").isSmoke()).isTrue();
		assertThat(SuitePlan.of("reply-path").isSmoke()).isFalse();
	}

	@Test
	void theSteadyPlanPrewarmsEveryTrialOnLoopbackAndTheForksAreTold() {
		SuitePlan steady = SuitePlan.of("reply-path-steady");
		assertThat(steady.groups()).allSatisfy((group) -> assertThat(group.iterations().prewarmSeconds()).isPositive());
		assertThat(SuitePlan.of("reply-path-small").groups())
			.allSatisfy((group) -> assertThat(group.iterations().prewarmSeconds()).isZero());
		SuitePlan.Group concurrent = steady.group("concurrent").orElseThrow();
		SuitePlan.Cell cell = concurrent.cells().get(0);
		assertThat(Main.options(concurrent, cell, List.of("-Xmx1g"), "java", null).build().getJvmArgsAppend().get())
			.containsExactly("-D" + Prewarm.SECONDS + "=" + concurrent.iterations().prewarmSeconds());
		assertThat(concurrent.iterations().toString()).contains("pre-warm of up to 20000 batches");
	}

	@Test
	void theRttGroupComparesTheDefaultsWithJedisInEveryCellOfTheIssue() {
		SuitePlan.Group rtt = SuitePlan.of("standard").group("rtt").orElseThrow();
		for (String strategy : List.of(Strategies.BATCH_TEMPLATE, Strategies.JEDIS)) {
			for (String workload : List.of("SET", "GET")) {
				for (int n : List.of(10_000, 100_000)) {
					for (String network : List.of("direct", "rtt1", "rtt5", "rtt10")) {
						assertThat(rtt.cells()).contains(new SuitePlan.Cell(strategy, workload, n, network));
					}
				}
			}
		}
		assertThat(rtt.strategies()).contains(Strategies.REDISSON, Strategies.LETTUCE, Strategies.PIPELINED_BOOT,
				Strategies.REDIS_BATCH_METHOD, Strategies.BATCH_TEMPLATE_TWO_CHUNKS, Strategies.windowId(1 << 20),
				Strategies.windowId(16 << 20));
	}

	@Test
	void theRttGroupsLoopbackCellsAreThoseOfThePeersAndSizesGroups() {
		SuitePlan plan = SuitePlan.of("standard");
		List<SuitePlan.Cell> earlier = plan.groups()
			.stream()
			.filter((group) -> group.name().equals("peers") || group.name().equals("sizes"))
			.flatMap((group) -> group.cells().stream())
			.toList();
		List<SuitePlan.Cell> loopback = plan.group("rtt")
			.orElseThrow()
			.cells()
			.stream()
			.filter((cell) -> cell.network().equals("direct"))
			.filter((cell) -> Strategies.windowBytes(cell.strategy()) < 0)
			.toList();
		assertThat(earlier).containsAll(loopback);
	}

	@Test
	void theMemoryRunsIncludeTheDefaultsIn128And256Megabytes() {
		assertThat(SuitePlan.of("standard").memoryRuns()).contains(
				new SuitePlan.MemoryRun(Strategies.BATCH_TEMPLATE, 128),
				new SuitePlan.MemoryRun(Strategies.BATCH_TEMPLATE, 256),
				new SuitePlan.MemoryRun(Strategies.JEDIS, 128));
	}

	@Test
	void windowIdsReadAndWriteSizesInKilobytesAndMegabytes() {
		assertThat(Strategies.windowId(4L << 20)).isEqualTo("batchTemplate-w4m");
		assertThat(Strategies.windowId(256 << 10)).isEqualTo("batchTemplate-w256k");
		assertThat(Strategies.sweepId(1000, 16L << 20)).isEqualTo("batchTemplate-c1000-w16m");
		assertThat(Strategies.windowBytes("batchTemplate-w256k")).isEqualTo(256 << 10);
		assertThat(Strategies.windowBytes("batchTemplate-c1000-w16m")).isEqualTo(16L << 20);
		assertThat(Strategies.sweepChunkSize("batchTemplate-c1000-w16m")).isEqualTo(1000);
		assertThat(Strategies.windowBytes(Strategies.BATCH_TEMPLATE)).isEqualTo(-1);
		assertThat(Strategies.describe("batchTemplate-w4m").label()).isEqualTo("BatchTemplate, window 4 MB");
		assertThatIllegalArgumentException().isThrownBy(() -> Strategies.windowId(1000));
		assertThatIllegalArgumentException().isThrownBy(() -> Strategies.describe("batchTemplate-c100-p2"));
	}

	@Test
	void theRequestBytesAreThoseBatchTemplateWrites() {
		// *5 $3 SET $16 key $64 value $2 PX $7 3600000, and *2 $3 GET $16 key
		assertThat(Workload.requestBytes("SET")).isEqualTo(128);
		assertThat(Workload.requestBytes("GET")).isEqualTo(36);
	}

	@Test
	void theServerOutputBufferIsSummedOverEveryClientButThePoller() {
		String clients = "id=3 addr=127.0.0.1:5 name= omem=0 tot-mem=100 cmd=client|list\n"
				+ "id=7 addr=127.0.0.1:6 name=redis-batch omem=1048576 cmd=set\n"
				+ "id=8 addr=127.0.0.1:7 name= omem=20 cmd=set\n";
		assertThat(ProbeRuns.omemOfOthers(clients, 3)).isEqualTo(1048596);
		assertThat(ProbeRuns.omemOfOthers(clients, 7)).isEqualTo(20);
	}

}
