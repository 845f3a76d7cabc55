package dev.redisbatch.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a number of a run measures: its name in the CSV, its heading in the report, and
 * how it is written.
 */
enum Metric {

	RATIO("ratio", "Jedis ÷ it [95%]"),

	THROUGHPUT_RATIO("throughput_ratio", "throughput ÷ plain [95%]"),

	PLAIN_US_PER_BATCH("plain_us_per_batch", "plain µs/batch"),

	PLAIN_SERVER_CPU_NS_PER_COMMAND("plain_server_cpu_ns_per_command", "plain server CPU ns/command"),

	MARKER_BYTES("marker_bytes", "marker bytes (MEMORY USAGE)"),

	MARKER_TEXT_BYTES("marker_text_bytes", "reply text bytes (STRLEN)"),

	MARKER_BYTES_PER_COMMAND("marker_bytes_per_command", "marker bytes/command"),

	PEAK_MARKERS("peak_markers", "most markers during a batch"),

	MARKERS_LEFT("markers_left", "markers left 1 s after"),

	PEAK_MEMORY_KB("peak_memory_kb", "peak used_memory above start KB"),

	PLAIN_PEAK_MEMORY_KB("plain_peak_memory_kb", "plain peak used_memory above start KB"),

	US_PER_BATCH("us_per_batch", "µs/batch"),

	JEDIS_US_PER_BATCH("jedis_us_per_batch", "Jedis µs/batch"),

	MS_PER_BATCH("ms_per_batch", "ms/batch"),

	COMMANDS_PER_S("commands_per_s", "commands/s"),

	MS_PER_CHUNK("ms_per_chunk", "ms/chunk"),

	ITEMS_PER_S("items_per_s", "items/s"),

	GETS("gets", "GETs"),

	P50_MS("p50_ms", "p50 ms"),

	P99_MS("p99_ms", "p99 ms"),

	P999_MS("p999_ms", "p99.9 ms"),

	MAX_MS("max_ms", "max ms"),

	CPU_NS_PER_COMMAND("cpu_ns_per_command", "client CPU ns/command"),

	JEDIS_CPU_NS_PER_COMMAND("jedis_cpu_ns_per_command", "Jedis CPU ns/command"),

	SERVER_CPU_NS_PER_COMMAND("server_cpu_ns_per_command", "server CPU ns/command"),

	COMMANDS_PER_WRITE("commands_per_write", "commands/write"),

	CONNECTIONS_PER_1000("connections_per_1000_batches", "new connections per 1,000 batches"),

	COMPLETED("completed", "completes"),

	SECONDS("seconds", "seconds"),

	PEAK_HEAP_MB("peak_heap_mb", "peak heap MB"),

	PEAK_LIVE_MB("peak_live_mb", "peak live MB"),

	SERVER_OMEM_MB("server_omem_mb", "server omem MB"),

	BACKFILL_PER_S("backfill_per_s", "backfill commands/s"),

	CAP_PER_S("cap_per_s", "cap commands/s");

	private final String id;

	private final String heading;

	Metric(String id, String heading) {
		this.id = id;
		this.heading = heading;
	}

	String id() {
		return this.id;
	}

	String heading() {
		return this.heading;
	}

	static Metric of(String id) {
		return Arrays.stream(values())
			.filter((metric) -> metric.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown metric '" + id + "'"));
	}

	/**
	 * A value of this metric with its interval, as the report writes it.
	 * @param row the value
	 * @return for example {@code 1.04× [1.03–1.05]}, {@code 126.4 ± 3.9} or {@code yes}
	 */
	String format(Row row) {
		if (Double.isNaN(row.mean())) {
			return "–";
		}
		if (this == COMPLETED) {
			return (row.mean() > 0) ? "yes" : "no";
		}
		if (this == RATIO || this == THROUGHPUT_RATIO) {
			return String.format(Locale.ROOT, "%.2f×", row.mean())
					+ (row.hasInterval() ? String.format(Locale.ROOT, " [%.2f–%.2f]", row.low(), row.high()) : "");
		}
		return number(row.mean()) + (row.hasInterval() ? " ± " + number((row.high() - row.low()) / 2) : "");
	}

	private static String number(double value) {
		double size = Math.abs(value);
		if (value == Math.rint(value)) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, (size >= 100) ? "%,.0f" : (size >= 10) ? "%.1f" : "%.2f", value);
	}

}
