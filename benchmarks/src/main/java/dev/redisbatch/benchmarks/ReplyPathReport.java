package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static dev.redisbatch.benchmarks.ReportFormat.count;
import static dev.redisbatch.benchmarks.ReportFormat.format;
import static dev.redisbatch.benchmarks.ReportFormat.ms;
import static dev.redisbatch.benchmarks.ReportFormat.ratio;
import static dev.redisbatch.benchmarks.ReportFormat.verdict;

/**
 * The report's reply-path sections (issue 22): BatchTemplate against Jedis per cell with
 * the ratio's interval, the latency of small batches, the CPU and allocation per command,
 * and the concurrent scenario. Written only when the run measured them.
 */
final class ReplyPathReport {

	private final SuiteResults results;

	private final SuitePlan plan;

	private final StringBuilder md;

	ReplyPathReport(SuiteResults results, SuitePlan plan, StringBuilder md) {
		this.results = results;
		this.plan = plan;
		this.md = md;
	}

	void write() {
		List<ReplyPathCells.Cell> cells = ReplyPathCells.cells(this.results, this.plan);
		if (cells.stream().anyMatch(ReplyPathCells.Cell::measured)) {
			speed(cells);
			latency(cells);
			clientCpu(cells);
			serverCpu(cells);
		}
		concurrent();
	}

	private void speed(List<ReplyPathCells.Cell> cells) {
		this.md.append("## Reply path: BatchTemplate against Jedis, every cell\n\n")
			.append("BatchTemplate (defaults) and Jedis Pipeline, one batch of N commands after another. Time per ")
			.append("batch: the mean over every measured iteration of every fork, with its ")
			.append(confidence())
			.append(" confidence interval (Student's t over those iterations). The ratio is BatchTemplate's rate ")
			.append("÷ Jedis's (Jedis's time ÷ BatchTemplate's); its interval comes from the two intervals: lower = ")
			.append("Jedis's lower bound ÷ BatchTemplate's upper bound, upper = Jedis's upper ÷ BatchTemplate's ")
			.append("lower. The target: at least ")
			.append(ratio(ReplyPathCells.REQUIRED_RATIO))
			.append(", with the lower end at least ")
			.append(ratio(ReplyPathCells.REQUIRED_LOWER))
			.append(". Where Jedis keeps redis-server at ")
			.append(format(ReplyPathCells.SERVER_BOUND_PERCENT))
			.append("% of a core or more (`INFO cpu`) the cell is server-bound, and parity within the interval ")
			.append("passes (its upper end at least 1.00×).\n\n")
			.append("| cell | BatchTemplate ms/batch | Jedis ms/batch | BatchTemplate ÷ Jedis | Jedis: server CPU ")
			.append("| result |\n|---|---:|---:|---:|---:|---|\n");
		for (ReplyPathCells.Cell cell : cells) {
			this.md.append("| ").append(cell.name()).append(" | ");
			if (!cell.measured()) {
				this.md.append(timeCell(cell.ours()))
					.append(" | ")
					.append(timeCell(cell.jedis()))
					.append(" | | | not measured |\n");
				continue;
			}
			SuiteResults.Cost jedis = cell.jedisDetail().cost();
			this.md.append(timeCell(cell.ours()))
				.append(" | ")
				.append(timeCell(cell.jedis()))
				.append(" | ")
				.append(ratioCell(cell.ratio()))
				.append(" | ")
				.append(percent(jedis.serverPercent()))
				.append(cell.serverBound() ? " (server-bound)" : "")
				.append(" | ")
				.append(verdict(cell.speedMet()))
				.append(" |\n");
		}
		this.md.append('\n');
	}

	private void latency(List<ReplyPathCells.Cell> cells) {
		List<ReplyPathCells.Cell> small = cells.stream()
			.filter((c) -> c.network().equals("direct") && c.n() <= ReplyPathCells.LOOP_TARGET_FROM_N && c.measured())
			.toList();
		if (small.isEmpty()) {
			return;
		}
		this.md.append("## Reply path: latency of one batch on loopback\n\n")
			.append("Every batch timed (JMH sample time), in microseconds, over every fork; the mean with its ")
			.append(confidence())
			.append(" interval is in the table above.\n\n")
			.append("| cell | BatchTemplate p50 | BatchTemplate p99 | Jedis p50 | Jedis p99 | p50 ratio | ")
			.append("p99 ratio |\n|---|---:|---:|---:|---:|---:|---:|\n");
		for (ReplyPathCells.Cell cell : small) {
			SuiteResults.Detail ours = cell.oursDetail();
			SuiteResults.Detail jedis = cell.jedisDetail();
			this.md.append(ReportFormat.row(cell.name(), micros(ours.p50Ms()), micros(ours.p99Ms()),
					micros(jedis.p50Ms()), micros(jedis.p99Ms()), ratio(jedis.p50Ms() / ours.p50Ms()),
					ratio(jedis.p99Ms() / ours.p99Ms())));
		}
		this.md.append("\nA ratio is Jedis's time ÷ BatchTemplate's: above 1.00× BatchTemplate is faster.\n\n");
	}

	private void clientCpu(List<ReplyPathCells.Cell> cells) {
		this.md.append("## Reply path: client CPU per command\n\n")
			.append("CPU time of the client's JVM per command, in nanoseconds, from `CpuCostProfiler` (the mean over ")
			.append("every measured iteration of every fork): on the calling thread, on the client's event loops ")
			.append("(Netty's I/O threads: `lettuce-nioEventLoop-*`), and in the rest of the process (GC, JIT, ")
			.append("other threads; a thread that dies during an iteration counts here). \"client\" is the whole ")
			.append("process, as the operating system counts it. Targets: BatchTemplate's client CPU below ")
			.append("Jedis's in every cell, and its event loops under ")
			.append(format(ReplyPathCells.LOOP_SHARE_PERCENT))
			.append("% of it at N ≥ ")
			.append(count(ReplyPathCells.LOOP_TARGET_FROM_N))
			.append(" in plaintext (below that, reported). No cell runs under TLS.\n\n")
			.append("| cell | BT caller | BT loop | BT other | BT client | Jedis caller | Jedis loop | Jedis other ")
			.append("| Jedis client | BT ÷ Jedis | client CPU | BT loop share | event loop |\n")
			.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n");
		for (ReplyPathCells.Cell cell : cells) {
			if (!cell.measured()) {
				continue;
			}
			SuiteResults.Cost ours = cell.oursDetail().cost();
			SuiteResults.Cost jedis = cell.jedisDetail().cost();
			this.md.append(ReportFormat.row(cell.name(), nanos(ours.callerNs()), nanos(ours.loopNs()),
					nanos(ours.otherNs()), "**" + nanos(ours.clientNs()) + "**", nanos(jedis.callerNs()),
					nanos(jedis.loopNs()), nanos(jedis.otherNs()), "**" + nanos(jedis.clientNs()) + "**",
					ratio(ours.clientNs() / jedis.clientNs()), verdict(cell.clientCpuMet()),
					percent(ours.loopShare() * 100), cell.loopTargetApplies() ? verdict(cell.loopMet()) : "reported"));
		}
		this.md.append('\n');
	}

	private void serverCpu(List<ReplyPathCells.Cell> cells) {
		this.md.append("## Reply path: server CPU and allocation per command\n\n")
			.append("Server: the delta of `INFO cpu` (`used_cpu_sys` + `used_cpu_user`) over each iteration, per ")
			.append("command, and as a share of one core during the iteration. Client CPU %: the client's process, ")
			.append("of one core (2 cores = 200%). Allocation: JMH's `gc.alloc.rate.norm` (every thread of the ")
			.append("client's JVM) ÷ N.\n\n")
			.append("| cell | server ns/cmd BT | server ns/cmd Jedis | server CPU BT | server CPU Jedis | client CPU BT ")
			.append("| client CPU Jedis | alloc B/cmd BT | alloc B/cmd Jedis |\n")
			.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (ReplyPathCells.Cell cell : cells) {
			if (!cell.measured()) {
				continue;
			}
			SuiteResults.Cost ours = cell.oursDetail().cost();
			SuiteResults.Cost jedis = cell.jedisDetail().cost();
			this.md.append(ReportFormat.row(cell.name(), nanos(ours.serverNs()), nanos(jedis.serverNs()),
					percent(ours.serverPercent()), percent(jedis.serverPercent()), percent(ours.clientPercent()),
					percent(jedis.clientPercent()), nanos(ours.allocBytes()), nanos(jedis.allocBytes())));
		}
		this.md.append('\n');
	}

	private void concurrent() {
		List<SuiteResults.Timing> rows = ConcurrentReaders.ids()
			.stream()
			.map((id) -> ReplyPathCells.concurrent(this.results, id))
			.flatMap(Optional::stream)
			.toList();
		if (rows.isEmpty()) {
			return;
		}
		SuiteResults.Timing first = rows.get(0);
		this.md.append("## Concurrent scenario: ")
			.append(first.detail().threads())
			.append(" threads, each repeating a batch of ")
			.append(count(first.n()))
			.append(" GETs\n\n")
			.append("Every thread reads keys of its own through one client shared by all threads, one batch after ")
			.append("another, for the whole iteration. Throughput: batches of every thread per second of wall time, ")
			.append("with its ")
			.append(confidence())
			.append(" interval over the iterations of every fork. p50 and p99: the time of one batch, every batch ")
			.append("timed. CPU per GET (per key read for MGET).\n\n")
			.append("| strategy | batches/s | GETs/s | p50 ms | p99 ms | client ns/GET (caller / loop / other) | ")
			.append("server ns/GET | server CPU |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
		for (SuiteResults.Timing t : rows) {
			SuiteResults.Detail d = t.detail();
			this.md
				.append(ReportFormat.row(ReportFormat.label(t.strategy()), intervalCell(d.batchesPerSecond(), "%,.0f"),
						format(t.commandsPerSecond()), ms(d.p50Ms()), ms(d.p99Ms()),
						nanos(d.cost().clientNs()) + " (" + nanos(d.cost().callerNs()) + " / "
								+ nanos(d.cost().loopNs()) + " / " + nanos(d.cost().otherNs()) + ")",
						nanos(d.cost().serverNs()), percent(d.cost().serverPercent())));
		}
		this.md.append('\n');
		Optional<SuiteResults.Timing> ours = ReplyPathCells.concurrent(this.results, ConcurrentReaders.BATCH_TEMPLATE);
		Optional<SuiteResults.Timing> jedis = ReplyPathCells.concurrent(this.results, ConcurrentReaders.JEDIS);
		if (ours.isPresent() && jedis.isPresent()) {
			SuiteResults.Interval throughput = ReplyPathCells.ratioOfRates(ours.get().detail().batchesPerSecond(),
					jedis.get().detail().batchesPerSecond());
			this.md.append("| target | measured | result |\n|---|---:|---|\n")
				.append("| throughput ≥ the Jedis pool's | ")
				.append(ratioCell(throughput))
				.append(" | ")
				.append(verdict(throughput.mean() >= 1.0))
				.append(" |\n| p99 ≤ the Jedis pool's p99 | ")
				.append(ms(ours.get().detail().p99Ms()))
				.append(" ms against ")
				.append(ms(jedis.get().detail().p99Ms()))
				.append(" ms | ")
				.append(verdict(ours.get().detail().p99Ms() <= jedis.get().detail().p99Ms()))
				.append(" |\n\n");
		}
	}

	private static String confidence() {
		return Math.round(SuiteResults.Interval.CONFIDENCE * 100) + "%";
	}

	/**
	 * A time per batch in milliseconds with its interval, to three significant digits of
	 * the mean.
	 */
	static String timeCell(Optional<SuiteResults.Timing> timing) {
		return timing.map((t) -> intervalCell(t.detail().msPerBatch(), threeDigits(t.detail().msPerBatch().mean())))
			.orElse("—");
	}

	private static String threeDigits(double value) {
		return (value >= 100) ? "%.0f"
				: (value >= 10) ? "%.1f" : (value >= 1) ? "%.2f" : (value >= 0.1) ? "%.3f" : "%.4f";
	}

	static String intervalCell(SuiteResults.Interval interval, String number) {
		String mean = String.format(Locale.ROOT, number, interval.mean());
		if (Double.isNaN(interval.lower())) {
			return mean;
		}
		return mean + " [" + String.format(Locale.ROOT, number, interval.lower()) + "–"
				+ String.format(Locale.ROOT, number, interval.upper()) + "]";
	}

	static String ratioCell(SuiteResults.Interval ratio) {
		if (Double.isNaN(ratio.lower())) {
			return ratio(ratio.mean());
		}
		return ratio(ratio.mean()) + " [" + bound(ratio.lower()) + "–" + bound(ratio.upper()) + "]";
	}

	private static String bound(double ratio) {
		// a bound divided by a lower bound of 0 has no upper end
		return Double.isInfinite(ratio) ? "∞" : String.format(Locale.ROOT, "%.2f", ratio);
	}

	static String nanos(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
	}

	static String micros(double millis) {
		double micros = millis * 1000;
		return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, (micros >= 100) ? "%,.0f" : "%.1f", micros);
	}

	static String percent(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", value);
	}

}
