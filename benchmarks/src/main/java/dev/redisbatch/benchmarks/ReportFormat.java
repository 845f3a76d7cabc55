package dev.redisbatch.benchmarks;

import java.util.Locale;
import java.util.Optional;

/**
 * How the report writes numbers, times, sizes and verdicts, the same in every table.
 */
final class ReportFormat {

	private ReportFormat() {
	}

	static String label(String id) {
		return ConcurrentReaders.find(id)
			.map(ConcurrentReaders.Descriptor::label)
			.or(() -> SingleCommandClients.find(id).map(SingleCommandClients.Descriptor::label))
			.orElseGet(() -> Strategies.describe(id).label());
	}

	static double per1000(SuiteResults.Connections c) {
		return c.newConnections() * 1000.0 / c.batches();
	}

	static String msCell(Optional<SuiteResults.Timing> t) {
		return t.map((r) -> ms(r.msPerBatch()) + " ± " + ms(r.msError())).orElse("—");
	}

	static String rateCell(Optional<SuiteResults.Timing> t) {
		return t.map((r) -> format(r.commandsPerSecond())).orElse("—");
	}

	static String ms(double value) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, (value >= 100) ? "%.0f" : (value >= 10) ? "%.1f" : "%.2f", value);
	}

	static String seconds(long millis) {
		return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
	}

	static String rttLabel(String network) {
		int rtt = BenchmarkEnvironment.rttMillis(network);
		return "direct".equals(network) ? "RTT 0 ms (loopback)" : "RTT " + rtt + " ms";
	}

	static String mb(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
	}

	static String format(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	static String count(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	static String ratio(double value) {
		return String.format(Locale.ROOT, "%.2f×", value);
	}

	static String verdict(boolean met) {
		return met ? "met" : "**missed**";
	}

	static String plain(double value) {
		return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.3f", value);
	}

	static String quote(String text) {
		return "\"" + text.replace("\"", "\"\"") + "\"";
	}

	/**
	 * One row of a Markdown table.
	 * @param cells the cells, in order
	 * @return {@code | a | b | c |} and a line break
	 */
	static String row(String... cells) {
		return "| " + String.join(" | ", cells) + " |\n";
	}

}
