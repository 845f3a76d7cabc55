package dev.redisbatch.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The numbers of a run go to a CSV and come back unchanged, and the report and its charts
 * are drawn from them alone. The profiles name only strategies that exist.
 */
class ReportTests {

	@TempDir
	Path dir;

	@Test
	void aMetricOfThreeOrMoreSamplesHasAnIntervalAroundItsMean() {
		Cell cell = Cell.batch(Strategies.BATCH_TEMPLATE, "GET", 100, "rtt1");
		Row three = Row.of(Suite.PAIRED, cell, Metric.RATIO, List.of(1.0, 1.1, 1.2));
		Row one = Row.of(Suite.PAIRED, cell, Metric.RATIO, List.of(1.1));

		assertThat(three.mean()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(three.low()).isLessThan(1.1);
		assertThat(three.high()).isGreaterThan(1.1);
		assertThat(three.rttMillis()).isEqualTo(1);
		assertThat(one.hasInterval()).isFalse();
		assertThat(Metric.RATIO.format(one)).isEqualTo("1.10×");
		assertThat(Metric.RATIO
			.format(new Row("paired", "batchTemplate", "GET", 1, 0, "1", Metric.RATIO, 0.98, 0.97, 0.99)))
			.isEqualTo("0.98× [0.97–0.99]");
		assertThat(Metric.US_PER_BATCH
			.format(new Row("paired", "batchTemplate", "GET", 1, 0, "1", Metric.US_PER_BATCH, 126.4, 122.5, 130.3)))
			.isEqualTo("126 ± 3.90");
	}

	@Test
	void rowsGoToACsvAndComeBackUnchanged() throws Exception {
		List<Row> rows = List.of(
				new Row("paired", "batchTemplate", "GET", 100, 5, "1", Metric.RATIO, 1.0049, 0.9951, 1.0147),
				new Row("concurrency", "autoBatching", "", 1, 0, "256 virtual", Metric.COMMANDS_PER_S, 175207,
						Double.NaN, Double.NaN));
		Path csv = this.dir.resolve("run.csv");

		Row.write(rows, csv);

		assertThat(Files.readAllLines(csv)).startsWith(Row.HEADER,
				"paired,batchTemplate,GET,100,5,1,ratio,1.0049,0.9951,1.0147");
		assertThat(Row.read(csv)).isEqualTo(rows);
	}

	@Test
	void theReportHasATableASuiteWithTheParametersThatVaryAndTheChartsOfThePairedRatios() throws Exception {
		List<Row> rows = new ArrayList<>();
		for (int n : List.of(1, 100, 10_000)) {
			for (String workload : List.of("GET", "SET")) {
				rows.add(ratio(workload, n, 0, 1.02));
			}
		}
		rows.add(ratio("GET", 100, 10, 1.00));
		rows.add(ratio("SET", 100, 10, 0.99));
		rows.add(Row.of(Suite.MEMORY, new Cell(Strategies.JEDIS, "SET", 10_000_000, "direct", 1, false),
				Metric.COMPLETED, 0));

		Report.write(rows, this.dir, "test", Map.of("date", "today"));

		String md = Files.readString(this.dir.resolve("test.md"));
		assertThat(md).contains("| date | today |")
			.contains("## BatchTemplate against Jedis, in pairs")
			.contains("| strategy | workload | N | RTT ms | Jedis ÷ it [95%] |")
			.contains("| BatchTemplate | GET | 10,000 | 0 | 1.02× [1.01–1.03] |")
			.contains("| strategy | completes |\n|---|---:|\n| Jedis Pipeline | no |")
			.contains("| Jedis Pipeline | Jedis RedisClient (pooled), pipelined(), sync() |")
			.contains("![ratio against N](ratio-vs-n.svg)");
		assertThat(Files.readString(this.dir.resolve(Report.RATIO_VS_N))).startsWith("<svg")
			.contains(">GET</text>", ">SET</text>", ">10,000</text>", ">1.00×</text>");
		assertThat(Files.readString(this.dir.resolve(Report.RATIO_VS_RTT))).contains(">N = 100</text>", ">10</text>")
			.doesNotContain("N = 1<");
	}

	@Test
	void withoutPairedRatiosThereAreNoCharts() throws Exception {
		assertThat(Report.charts(List.of(), this.dir)).isFalse();
		assertThat(this.dir.resolve(Report.RATIO_VS_N)).doesNotExist();
	}

	@Test
	void everyProfileNamesOnlyStrategiesThatExistAndEveryVariantIsPairedAt100And10000() {
		for (String profile : Profiles.NAMES) {
			for (Profiles.Step step : Profiles.of(profile, true)) {
				assertThat(step.cells()).as(profile).isNotEmpty().allSatisfy((cell) -> {
					Optional<String> known = (step.suite() == Suite.CONCURRENCY)
							? SingleCommandClients.find(cell.strategy()).map(SingleCommandClients.Descriptor::id)
							: Optional.of(Strategies.describe(cell.strategy()).id());
					assertThat(known).contains(cell.strategy());
				});
			}
		}
		List<Cell> paired = Profiles.of("paired", false).get(0).cells();
		for (String variant : Strategies.batchTemplates()) {
			for (int n : List.of(100, 10_000)) {
				assertThat(paired).contains(Cell.batch(variant, "GET", n, "direct"),
						Cell.batch(variant, "SET", n, "direct"));
			}
		}
		assertThat(Profiles.of("concurrency", false).get(0).cells()).noneMatch(Cell::virtual);
		assertThat(Profiles.of("concurrency", true).get(0).cells()).filteredOn(Cell::virtual)
			.extracting(Cell::threads)
			.contains(256, 1024);
	}

	@Test
	void aMemoryRunWithoutAResultDidNotComplete() {
		Cell cell = new Cell(Strategies.LETTUCE, "SET", 10_000_000, "direct", 1, false);

		assertThat(Suite.MEMORY.rows(cell, null)).singleElement()
			.satisfies((row) -> assertThat(Metric.COMPLETED.format(row)).isEqualTo("no"));
		assertThat(Suite.PEERS.rows(cell, null)).isEmpty();
	}

	private static Row ratio(String workload, int n, int rtt, double mean) {
		return new Row("paired", Strategies.BATCH_TEMPLATE, workload, n, rtt, "1", Metric.RATIO, mean, mean - 0.01,
				mean + 0.01);
	}

}
