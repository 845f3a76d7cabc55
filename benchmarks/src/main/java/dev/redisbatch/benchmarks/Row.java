package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.ListStatistics;

/**
 * One number of a run: a metric of one cell, with its 95% interval (Student's t over the
 * measured iterations of every fork) where it has one. A run's numbers are a CSV file of
 * rows, the one format the report and its charts are drawn from.
 *
 * @param suite the suite ({@link Suite})
 * @param strategy the strategy id
 * @param workload {@code GET}, {@code SET}, the run of the polite-mode suite, or empty
 * @param n the commands per batch
 * @param rttMillis the round trip the latency proxy added, 0 on loopback
 * @param threads the calling threads, {@code "256 virtual"} for virtual threads
 * @param metric what was measured
 * @param mean the mean
 * @param low the interval's lower end, NaN without one
 * @param high the interval's upper end, NaN without one
 */
record Row(String suite, String strategy, String workload, int n, int rttMillis, String threads, Metric metric,
		double mean, double low, double high) {

	static final String HEADER = "suite,strategy,workload,n,rtt_ms,threads,metric,mean,low,high";

	/**
	 * The confidence of every interval.
	 */
	static final double CONFIDENCE = 0.95;

	/**
	 * A metric of a cell from its samples: the mean, and the interval of three or more.
	 * @param suite the suite
	 * @param cell the cell
	 * @param metric the metric
	 * @param samples one value per measured iteration of every fork
	 * @return the row
	 */
	static Row of(Suite suite, Cell cell, Metric metric, List<Double> samples) {
		ListStatistics statistics = new ListStatistics();
		samples.forEach(statistics::addValue);
		double[] bounds = (samples.size() >= 3) ? statistics.getConfidenceIntervalAt(CONFIDENCE)
				: new double[] { Double.NaN, Double.NaN };
		// every metric is a time, a rate, a count or a ratio: none is below 0
		return new Row(suite.id(), cell.strategy(), cell.workload(), cell.n(), cell.rttMillis(), cell.threadsLabel(),
				metric, statistics.getMean(), Math.max(0, bounds[0]), bounds[1]);
	}

	/**
	 * A metric of a cell measured once.
	 * @param suite the suite
	 * @param cell the cell
	 * @param metric the metric
	 * @param value the value
	 * @return the row
	 */
	static Row of(Suite suite, Cell cell, Metric metric, double value) {
		return new Row(suite.id(), cell.strategy(), cell.workload(), cell.n(), cell.rttMillis(), cell.threadsLabel(),
				metric, value, Double.NaN, Double.NaN);
	}

	/**
	 * A result of a JMH run in every measured iteration of every fork.
	 * @param run the run
	 * @param secondary the label of a secondary result (a profiler's, an auxiliary
	 * counter), or {@code null} for the primary result
	 * @return the values, in order
	 */
	static List<Double> samples(RunResult run, @Nullable String secondary) {
		List<Double> values = new ArrayList<>();
		for (BenchmarkResult fork : run.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				Result<?> value = (secondary != null) ? iteration.getSecondaryResults().get(secondary)
						: iteration.getPrimaryResult();
				if (value != null) {
					values.add(value.getScore());
				}
			}
		}
		return values;
	}

	boolean hasInterval() {
		return !Double.isNaN(this.low);
	}

	/**
	 * Whether two rows are of the same cell.
	 * @param other the other row
	 * @return whether every field but the metric and its values are equal
	 */
	boolean sameCell(Row other) {
		return this.suite.equals(other.suite) && this.strategy.equals(other.strategy)
				&& this.workload.equals(other.workload) && this.n == other.n && this.rttMillis == other.rttMillis
				&& this.threads.equals(other.threads);
	}

	static void write(List<Row> rows, Path file) throws IOException {
		List<String> lines = new ArrayList<>(List.of(HEADER));
		for (Row row : rows) {
			lines.add(String.join(",", row.suite, row.strategy, row.workload, String.valueOf(row.n),
					String.valueOf(row.rttMillis), row.threads, row.metric.id(), number(row.mean), number(row.low),
					number(row.high)));
		}
		Files.write(file, lines, StandardCharsets.UTF_8);
	}

	static List<Row> read(Path file) throws IOException {
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
			throw new IllegalArgumentException(file + " does not start with " + HEADER);
		}
		List<Row> rows = new ArrayList<>();
		for (String line : lines.subList(1, lines.size())) {
			String[] f = line.split(",", -1);
			rows.add(new Row(f[0], f[1], f[2], Integer.parseInt(f[3]), Integer.parseInt(f[4]), f[5], Metric.of(f[6]),
					parse(f[7]), parse(f[8]), parse(f[9])));
		}
		return rows;
	}

	private static String number(double value) {
		return Double.isNaN(value) ? ""
				: BigDecimal.valueOf(value).round(new MathContext(6)).stripTrailingZeros().toPlainString();
	}

	private static double parse(String text) {
		return text.isEmpty() ? Double.NaN : Double.parseDouble(text);
	}

}
