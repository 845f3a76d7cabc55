package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The report of a run, drawn from its {@link Row}s alone: a Markdown table per suite (one
 * line per cell, one column per metric) and, for the paired suite, two SVG charts of
 * Jedis's time ÷ {@code BatchTemplate}'s: against the batch size on loopback
 * ({@value #RATIO_VS_N}), and against the round trip ({@value #RATIO_VS_RTT}).
 */
final class Report {

	static final String RATIO_VS_N = "ratio-vs-n.svg";

	static final String RATIO_VS_RTT = "ratio-vs-rtt.svg";

	private static final List<String> WORKLOADS = List.of("GET", "SET");

	private Report() {
	}

	/**
	 * Write {@code <name>.md}, and the charts when the rows have the paired suite's.
	 * @param rows the numbers
	 * @param dir where to write
	 * @param name the report's name
	 * @param header what ran, where and when: one {@code name, value} pair a line
	 * @throws IOException if a file cannot be written
	 */
	static void write(List<Row> rows, Path dir, String name, Map<String, String> header) throws IOException {
		StringBuilder md = new StringBuilder("# Benchmarks: " + name + "\n\n| | |\n|---|---|\n");
		header.forEach((key, value) -> md.append("| ").append(key).append(" | ").append(value).append(" |\n"));
		for (Suite suite : Suite.values()) {
			List<Row> of = rows.stream().filter((row) -> row.suite().equals(suite.id())).toList();
			if (!of.isEmpty()) {
				md.append("\n## ").append(suite.title()).append("\n\n");
				table(md, of);
			}
		}
		strategies(md, rows);
		if (charts(rows, dir)) {
			md.append("\n![ratio against N](")
				.append(RATIO_VS_N)
				.append(")\n\n![ratio against the round trip](")
				.append(RATIO_VS_RTT)
				.append(")\n");
		}
		Files.writeString(dir.resolve(name + ".md"), md, StandardCharsets.UTF_8);
	}

	/**
	 * A line per cell: its strategy, the parameters that vary between the suite's cells,
	 * and each metric with its interval.
	 */
	private static void table(StringBuilder md, List<Row> rows) {
		List<Metric> metrics = rows.stream().map(Row::metric).distinct().sorted().toList();
		List<Row> cells = new ArrayList<>();
		rows.stream().filter((row) -> cells.stream().noneMatch(row::sameCell)).forEach(cells::add);
		List<Key> keys = new ArrayList<>(List.of(new Key("strategy", (row) -> label(row.strategy()))));
		for (Key key : List.of(new Key("workload", Row::workload), new Key("N", (row) -> count(row.n())),
				new Key("RTT ms", (row) -> String.valueOf(row.rttMillis())), new Key("threads", Row::threads))) {
			if (cells.stream().map(key.value()).distinct().count() > 1) {
				keys.add(key);
			}
		}
		keys.forEach((key) -> md.append("| ").append(key.heading()).append(' '));
		metrics.forEach((metric) -> md.append("| ").append(metric.heading()).append(' '));
		md.append("|\n").append("|---".repeat(keys.size())).append("|---:".repeat(metrics.size())).append("|\n");
		for (Row cell : cells) {
			keys.forEach((key) -> md.append("| ").append(key.value().apply(cell)).append(' '));
			for (Metric metric : metrics) {
				md.append("| ")
					.append(rows.stream()
						.filter((row) -> row.sameCell(cell) && row.metric() == metric)
						.findFirst()
						.map(metric::format)
						.orElse(""))
					.append(' ');
			}
			md.append("|\n");
		}
	}

	private static void strategies(StringBuilder md, List<Row> rows) {
		md.append("\n## Strategies\n\n| strategy | how |\n|---|---|\n");
		rows.stream()
			.map(Row::strategy)
			.distinct()
			.flatMap((id) -> named(id).stream())
			.forEach((strategy) -> md.append("| ")
				.append(strategy.label())
				.append(" | ")
				.append(strategy.description())
				.append(" |\n"));
	}

	/**
	 * Draw the charts of {@code BatchTemplate}'s paired ratios, if the rows have them.
	 * @param rows the numbers
	 * @param dir where to write {@value #RATIO_VS_N} and {@value #RATIO_VS_RTT}
	 * @return whether there were ratios to draw
	 * @throws IOException if a file cannot be written
	 */
	static boolean charts(List<Row> rows, Path dir) throws IOException {
		List<Row> ratios = rows.stream()
			.filter((row) -> row.suite().equals(Suite.PAIRED.id()) && row.metric() == Metric.RATIO
					&& row.strategy().equals(Strategies.BATCH_TEMPLATE))
			.toList();
		if (ratios.isEmpty()) {
			return false;
		}
		List<Integer> sizes = ratios.stream()
			.filter((row) -> row.rttMillis() == 0)
			.map(Row::n)
			.distinct()
			.sorted()
			.toList();
		List<Charts.Series> byN = new ArrayList<>();
		for (String workload : WORKLOADS) {
			byN.add(new Charts.Series(workload, sizes.stream().map((n) -> point(ratios, workload, n, 0)).toList()));
		}
		Files.writeString(dir.resolve(RATIO_VS_N),
				Charts.ratios("Jedis's time ÷ BatchTemplate's on loopback (above 1.00×, BatchTemplate is faster)",
						"commands per batch (N)", sizes.stream().map(Report::count).toList(), byN),
				StandardCharsets.UTF_8);
		List<Integer> rtts = ratios.stream().map(Row::rttMillis).distinct().sorted().toList();
		List<Integer> far = ratios.stream()
			.filter((row) -> row.rttMillis() > 0)
			.map(Row::n)
			.distinct()
			.sorted()
			.toList();
		List<String> panels = new ArrayList<>();
		for (String workload : WORKLOADS) {
			panels.add(Charts.ratios(workload, "round trip added by the proxy (ms; 0 = loopback)",
					rtts.stream().map(String::valueOf).toList(),
					far.stream()
						.map((n) -> new Charts.Series("N = " + count(n),
								rtts.stream().map((rtt) -> point(ratios, workload, n, rtt)).toList()))
						.toList()));
		}
		Files.writeString(dir.resolve(RATIO_VS_RTT),
				Charts.stack("Jedis's time ÷ BatchTemplate's against the round trip", panels), StandardCharsets.UTF_8);
		return true;
	}

	private static Charts.Point point(List<Row> ratios, String workload, int n, int rtt) {
		return ratios.stream()
			.filter((row) -> row.workload().equals(workload) && row.n() == n && row.rttMillis() == rtt)
			.findFirst()
			.map((row) -> new Charts.Point(row.mean(), row.low(), row.high()))
			.orElse(Charts.Point.NONE);
	}

	/**
	 * The name of a strategy in tables.
	 * @param id its id
	 * @return its label, or the id for a name the benchmarks do not know
	 */
	static String label(String id) {
		return named(id).map(Named::label).orElse(id);
	}

	private static Optional<Named> named(String id) {
		return Strategies.all()
			.stream()
			.filter((strategy) -> strategy.id().equals(id))
			.map((strategy) -> new Named(strategy.label(), strategy.description()))
			.findFirst()
			.or(() -> SingleCommandClients.find(id)
				.map((strategy) -> new Named(strategy.label(), strategy.description())));
	}

	private static String count(int n) {
		return String.format(Locale.ROOT, "%,d", n);
	}

	/**
	 * What a strategy is called and how it is configured.
	 */
	private record Named(String label, String description) {

	}

	/**
	 * A key column of a table.
	 */
	private record Key(String heading, Function<Row, String> value) {

	}

}
