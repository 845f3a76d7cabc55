package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static dev.redisbatch.benchmarks.ReportFormat.format;
import static dev.redisbatch.benchmarks.ReportFormat.label;
import static dev.redisbatch.benchmarks.ReportFormat.ms;
import static dev.redisbatch.benchmarks.ReportFormat.ratio;
import static dev.redisbatch.benchmarks.ReportFormat.rttLabel;
import static dev.redisbatch.benchmarks.ReportFormat.verdict;

/**
 * The report's auto-batching section (issue 23): for each network, every strategy at
 * every number of threads, one command at a time (throughput, p50, p99, p99.9, the
 * client's and the server's CPU per command, commands per write), and the targets, as
 * ratios against Boot's defaults in the same run. Written only when the run measured the
 * scenario.
 */
final class AutoBatchingReport {

	/**
	 * Throughput at least this many times Boot's defaults', at {@link #MANY_THREADS}
	 * platform threads and more.
	 */
	static final double THROUGHPUT_RATIO = 2.0;

	/**
	 * p99 at most this many times Boot's defaults', at 1 and 16 platform threads.
	 */
	static final double P99_RATIO = 1.1;

	/**
	 * Server CPU per command at most this many times Boot's defaults', at
	 * {@link #MANY_THREADS} platform threads and more.
	 */
	static final double SERVER_CPU_RATIO = 0.3;

	/**
	 * Where the throughput and server CPU targets start.
	 */
	static final int MANY_THREADS = 64;

	/**
	 * Where the latency target applies: this many platform threads and fewer.
	 */
	static final int FEW_THREADS = 16;

	private final SuiteResults results;

	private final StringBuilder md;

	AutoBatchingReport(SuiteResults results, StringBuilder md) {
		this.results = results;
		this.md = md;
	}

	void write() {
		List<SuiteResults.Timing> all = this.results.timings.stream()
			.filter((t) -> t.group().startsWith("auto-batching-") && t.detail() != null)
			.toList();
		if (all.isEmpty()) {
			return;
		}
		this.md.append("## Auto-batching: concurrent single commands\n\n")
			.append("Every JMH thread calls the application's `StringRedisTemplate` with one command at a time, a GET ")
			.append("then a SET of the same 16-byte value of a key of its own, for the whole iteration; every ")
			.append("command is timed (JMH sample time). Commands/s: the commands of every thread per second of wall ")
			.append("time. Client CPU per command: the calling threads + the event loops (+ the rest of the JVM); ")
			.append("server CPU per command from `INFO cpu`. Commands per write: auto-batching's own count. ")
			.append("Virtual threads are reported, not judged.\n\n");
		for (String network : SuitePlan.AUTO_BATCHING_NETWORKS) {
			List<SuiteResults.Timing> rows = all.stream().filter((t) -> t.network().equals(network)).toList();
			if (rows.isEmpty()) {
				continue;
			}
			this.md.append("### ")
				.append(rttLabel(network))
				.append("\n\n| threads | strategy | commands/s | p50 ms | p99 ms | p99.9 ms | client µs/cmd (callers + ")
				.append("loop + rest) | server µs/cmd | commands/write |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
			for (String group : groups(rows)) {
				for (String strategy : SingleCommandClients.ids()) {
					find(rows, group, strategy).ifPresent((t) -> row(t, group));
				}
			}
			this.md.append('\n');
		}
		targets(all);
	}

	private void row(SuiteResults.Timing t, String group) {
		SuiteResults.Detail d = t.detail();
		SuiteResults.Cost cost = d.cost();
		this.md.append(ReportFormat.row(threadsLabel(group, d.threads()), label(t.strategy()),
				format(t.commandsPerSecond()), ms(d.p50Ms()), ms(d.p99Ms()), ms(d.p999Ms()),
				micros(cost.clientNs()) + " (" + micros(cost.callerNs()) + " + " + micros(cost.loopNs()) + " + "
						+ micros(cost.otherNs()) + ")",
				micros(cost.serverNs()),
				Double.isNaN(d.commandsPerWrite()) ? "—" : String.format(Locale.ROOT, "%.1f", d.commandsPerWrite())));
	}

	/**
	 * The targets on loopback, as ratios of auto-batching to Boot's defaults in this run.
	 */
	private void targets(List<SuiteResults.Timing> all) {
		List<String[]> rows = new ArrayList<>();
		List<SuiteResults.Timing> loopback = all.stream().filter((t) -> t.network().equals("direct")).toList();
		for (SuiteResults.Timing ours : loopback) {
			if (!ours.strategy().equals(SingleCommandClients.AUTO_BATCHING)
					|| ours.group().startsWith("auto-batching-v")) {
				continue;
			}
			Optional<SuiteResults.Timing> boot = find(loopback, ours.group(), SingleCommandClients.BOOT);
			if (boot.isEmpty()) {
				continue;
			}
			int threads = ours.detail().threads();
			SuiteResults.Detail d = ours.detail();
			SuiteResults.Detail b = boot.get().detail();
			if (threads >= MANY_THREADS) {
				double throughput = ours.commandsPerSecond() / boot.get().commandsPerSecond();
				rows.add(new String[] {
						"throughput ≥ " + ratio(THROUGHPUT_RATIO) + " Boot's defaults', " + threads + " threads",
						ratio(throughput), verdict(throughput >= THROUGHPUT_RATIO) });
				double server = d.cost().serverNs() / b.cost().serverNs();
				rows.add(new String[] { "server CPU per command ≤ " + ratio(SERVER_CPU_RATIO) + " Boot's defaults', "
						+ threads + " threads", ratio(server), verdict(server <= SERVER_CPU_RATIO) });
			}
			if (threads <= FEW_THREADS) {
				double p99 = d.p99Ms() / b.p99Ms();
				rows.add(new String[] { "p99 ≤ " + ratio(P99_RATIO) + " Boot's defaults', " + threads + " thread"
						+ ((threads > 1) ? "s" : ""), ratio(p99), verdict(p99 <= P99_RATIO) });
			}
		}
		if (rows.isEmpty()) {
			return;
		}
		this.md.append("### Targets (loopback, auto-batching ÷ Boot's defaults, this run)\n\n")
			.append("| target | measured | result |\n|---|---:|---|\n");
		for (String[] row : rows) {
			this.md.append(ReportFormat.row(row));
		}
		this.md.append('\n');
	}

	private static List<String> groups(List<SuiteResults.Timing> rows) {
		return rows.stream().map(SuiteResults.Timing::group).distinct().toList();
	}

	private static Optional<SuiteResults.Timing> find(List<SuiteResults.Timing> rows, String group, String strategy) {
		return rows.stream().filter((t) -> t.group().equals(group) && t.strategy().equals(strategy)).findFirst();
	}

	private static String threadsLabel(String group, int threads) {
		return group.startsWith("auto-batching-v") ? threads + " virtual" : String.valueOf(threads);
	}

	private static String micros(double nanos) {
		return Double.isNaN(nanos) ? "n/a" : String.format(Locale.ROOT, "%.2f", nanos / 1000.0);
	}

}
