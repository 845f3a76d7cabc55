package dev.redisbatch.benchmarks;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import static dev.redisbatch.benchmarks.ReportFormat.count;
import static dev.redisbatch.benchmarks.ReportFormat.format;
import static dev.redisbatch.benchmarks.ReportFormat.label;
import static dev.redisbatch.benchmarks.ReportFormat.mb;
import static dev.redisbatch.benchmarks.ReportFormat.per1000;
import static dev.redisbatch.benchmarks.ReportFormat.ratio;
import static dev.redisbatch.benchmarks.ReportFormat.rttLabel;
import static dev.redisbatch.benchmarks.ReportFormat.seconds;
import static dev.redisbatch.benchmarks.ReportFormat.verdict;
import static dev.redisbatch.benchmarks.WindowVariants.sizesOf;

/**
 * The report's "Targets" table: every ratio the issues ask for, computed from the run,
 * met or missed.
 */
final class TargetsTable {

	/**
	 * {@code BatchTemplate} (defaults) ÷ Jedis Pipeline, SET of 100,000 on loopback,
	 * before the window (two chunks of 1,000 in flight): the JMH ratio the window must
	 * not lower.
	 */
	static final double LOOPBACK_BEFORE_WINDOW_SET = 0.84;

	/**
	 * The same for GET.
	 */
	static final double LOOPBACK_BEFORE_WINDOW_GET = 0.99;

	/**
	 * The least {@code @RedisBatch} method ÷ {@code BatchTemplate} (defaults), SET of
	 * 100,000 on loopback.
	 */
	static final double REDIS_BATCH_METHOD_TARGET = 0.9;

	/**
	 * The reactive template against the blocking one.
	 */
	static final double REACTIVE_TARGET = 0.9;

	private final SuiteResults results;

	private final SuitePlan plan;

	private final StringBuilder md;

	TargetsTable(SuiteResults results, SuitePlan plan, StringBuilder md) {
		this.results = results;
		this.plan = plan;
		this.md = md;
	}

	void write(int n) {
		this.md.append("## Targets (ratios from this run)\n\n");
		this.md
			.append("A missed target stays in this table as missed; the sections below show where the time goes.\n\n");
		this.md.append("| target | measured | required | result |\n|---|---:|---:|---|\n");
		if (this.plan.group("peers").isPresent()) {
			standard(n);
		}
		replyPath();
		memoryTargets();
		for (SuiteResults.Connections c : this.results.connections) {
			if (c.strategy().startsWith("batchTemplate") || c.strategy().equals(Strategies.REDIS_BATCH_METHOD)) {
				row(label(c.strategy()) + ": new connections per 1,000 batches",
						"OK".equals(c.status()) ? format(per1000(c)) : "failed", "0",
						verdict("OK".equals(c.status()) && c.newConnections() == 0));
			}
		}
		this.md.append('\n');
	}

	/**
	 * The targets of the standard suite, measured by its groups.
	 */
	private void standard(int n) {
		String bt = Strategies.BATCH_TEMPLATE;
		for (String workload : List.of("SET", "GET")) {
			Optional<SuiteResults.Timing> ours = timing(bt, workload, n, "direct");
			Optional<SuiteResults.Timing> peer = this.results.timings.stream()
				.filter((t) -> t.workload().equals(workload) && t.n() == n && t.network().equals("direct")
						&& isPeer(t.strategy()) && t.group().equals("peers"))
				.max(Comparator.comparingDouble(SuiteResults.Timing::commandsPerSecond));
			ratioRow("BatchTemplate (defaults) " + workload + " " + count(n) + " ÷ fastest Java peer"
					+ peer.map((p) -> " (" + label(p.strategy()) + ")").orElse(""), ours, peer, 1.0);
			ratioRow(
					"BatchTemplate (defaults) " + workload + " " + count(n)
							+ " ÷ executePipelined, Boot defaults (pooled)",
					ours, timing(Strategies.PIPELINED_BOOT, workload, n, "direct"), 2.5);
			String test = workload.equals("SET") ? "SET EX 3600" : "GET";
			Optional<RedisBenchmarkTool.Result> limit = this.results.physical(test);
			String name = "BatchTemplate (defaults) " + workload + " " + count(n) + " ÷ `redis-benchmark -P 1000 -c 1` "
					+ test;
			if (ours.isPresent() && limit.isPresent()) {
				double ratio = ours.get().commandsPerSecond() / limit.get().requestsPerSecond();
				row(name, ratio(ratio), "≥ 0.60×", verdict(ratio >= 0.6));
			}
			else {
				row(name, "not measured", "≥ 0.60×",
						(this.results.physicalNote != null) ? this.results.physicalNote : "not measured");
			}
		}
		noRegression(n);
		everyRttCell();
		ratioRow("@RedisBatch method ÷ BatchTemplate (defaults), SET " + count(n) + ", loopback",
				timing(Strategies.REDIS_BATCH_METHOD, "SET", n, "direct"), timing(bt, "SET", n, "direct"),
				REDIS_BATCH_METHOD_TARGET);
		for (String workload : List.of("SET", "GET")) {
			ratioRow("ReactiveBatchTemplate ÷ BatchTemplate (defaults), " + workload + " " + count(n) + ", loopback",
					timing(Strategies.REACTIVE_BATCH_TEMPLATE, workload, n, "direct"),
					timing(bt, workload, n, "direct"), REACTIVE_TARGET);
		}
		for (String workload : List.of("SET", "GET")) {
			Optional<SuiteResults.Timing> ours = this.results.springBatchTiming(Strategies.REDIS_BATCH_ITEMS, workload,
					1);
			Optional<SuiteResults.Timing> theirs = this.results.springBatchTiming(Strategies.SPRING_BATCH_ITEMS,
					workload, 1);
			if (ours.isPresent() || theirs.isPresent()) {
				ratioRow(
						("SET".equals(workload) ? "RedisBatchItemWriter ÷ Spring Batch RedisItemWriter"
								: "RedisBatchItemReader ÷ Spring Batch RedisItemReader") + " (items/s, RTT 1 ms)",
						ours, theirs, 20.0);
			}
		}
		ratioRow("BatchTemplate (defaults) setAll " + count(n) + " ÷ Lettuce async, manual flush",
				timing(bt, "SET", n, "direct"), timing(Strategies.LETTUCE, "SET", n, "direct"), 1.0);
		ratioRow("BatchTemplate (defaults) setAll " + count(n) + " ÷ one command per round trip (commands/s)",
				timing(bt, "SET", n, "direct"), timing(Strategies.ROUND_TRIP, "SET", n, "direct"), 30.0);
	}

	/**
	 * The targets of the reply path (issue 22), one row each, over every cell of the
	 * reply-path groups ({@link ReplyPathCells}); the sections of the reply path list
	 * every cell.
	 */
	private void replyPath() {
		List<ReplyPathCells.Cell> cells = ReplyPathCells.cells(this.results, this.plan);
		if (!cells.isEmpty()) {
			List<ReplyPathCells.Cell> measured = cells.stream().filter(ReplyPathCells.Cell::measured).toList();
			long serverBound = measured.stream().filter(ReplyPathCells.Cell::serverBound).count();
			everyCell(
					"BatchTemplate (defaults) ≥ 1.00× Jedis Pipeline in every reply-path cell, the lower end of "
							+ "the interval ≥ 0.95× (server-bound cells: parity within the interval)",
					cells, ReplyPathCells.Cell::speedMet,
					(c) -> ReplyPathReport.ratioCell(c.ratio()) + (c.serverBound() ? ", server-bound" : ""),
					(serverBound > 0) ? "; " + serverBound + " server-bound" : "");
			everyCell("BatchTemplate's client CPU per command below Jedis's in every reply-path cell", cells,
					ReplyPathCells.Cell::clientCpuMet,
					(c) -> ReportFormat.ratio(c.oursDetail().cost().clientNs() / c.jedisDetail().cost().clientNs()),
					"");
			List<ReplyPathCells.Cell> loopCells = cells.stream()
				.filter(ReplyPathCells.Cell::loopTargetApplies)
				.toList();
			everyCell("BatchTemplate's event loops < 5% of its client CPU, plaintext, N ≥ 1,000", loopCells,
					ReplyPathCells.Cell::loopMet,
					(c) -> ReplyPathReport.percent(c.oursDetail().cost().loopShare() * 100), "");
			List<Double> smallShares = measured.stream()
				.filter((c) -> !c.loopTargetApplies())
				.map((c) -> c.oursDetail().cost().loopShare() * 100)
				.sorted()
				.toList();
			if (!smallShares.isEmpty()) {
				row("BatchTemplate's event loops, share of its client CPU, N < 1,000 (reported)",
						ReplyPathReport.percent(smallShares.get(0)) + " to "
								+ ReplyPathReport.percent(smallShares.get(smallShares.size() - 1)),
						"reported", "reported");
			}
			row("BatchTemplate's event loops, share of its client CPU, under TLS (reported)",
					"not measured: the suite runs no TLS server", "reported", "not measured");
		}
		Optional<SuiteResults.Timing> ours = ReplyPathCells.concurrent(this.results, ConcurrentReaders.BATCH_TEMPLATE);
		Optional<SuiteResults.Timing> jedis = ReplyPathCells.concurrent(this.results, ConcurrentReaders.JEDIS);
		if (ours.isPresent() || jedis.isPresent()) {
			String scenario = "concurrent scenario (" + SuitePlan.CONCURRENT_THREADS + " threads × batches of "
					+ SuitePlan.CONCURRENT_BATCH + " GETs, " + ConcurrentReaders.CONNECTIONS + " connections each)";
			if (ours.isPresent() && jedis.isPresent()) {
				SuiteResults.Interval ratio = ReplyPathCells.ratioOfRates(ours.get().detail().batchesPerSecond(),
						jedis.get().detail().batchesPerSecond());
				double p99 = ours.get().detail().p99Ms();
				double jedisP99 = jedis.get().detail().p99Ms();
				row("BatchTemplate throughput ÷ the Jedis pool's, " + scenario, ReplyPathReport.ratioCell(ratio),
						"≥ 1.00×", verdict(ratio.mean() >= 1.0));
				row("BatchTemplate p99 per batch against the Jedis pool's, " + scenario,
						ReportFormat.ms(p99) + " ms against " + ReportFormat.ms(jedisP99) + " ms", "≤",
						verdict(p99 <= jedisP99));
			}
			else {
				row("BatchTemplate against the Jedis pool, " + scenario, "not measured", "", "not measured");
			}
		}
	}

	private void everyCell(String target, List<ReplyPathCells.Cell> cells, Predicate<ReplyPathCells.Cell> met,
			Function<ReplyPathCells.Cell, String> value, String more) {
		List<ReplyPathCells.Cell> measured = cells.stream().filter(ReplyPathCells.Cell::measured).toList();
		List<ReplyPathCells.Cell> missed = measured.stream().filter(met.negate()).toList();
		StringBuilder text = new StringBuilder();
		text.append("met in ").append(measured.size() - missed.size()).append(" of ").append(measured.size());
		text.append(" cells").append(more);
		if (measured.size() < cells.size()) {
			text.append("; ").append(cells.size() - measured.size()).append(" not measured");
		}
		if (!missed.isEmpty()) {
			text.append("; missed: ");
			text.append(String.join(", ", missed.stream().map((c) -> c.shortName() + " " + value.apply(c)).toList()));
		}
		row(target, text.toString(), "every cell",
				measured.isEmpty() ? "not measured" : verdict(missed.isEmpty() && measured.size() == cells.size()));
	}

	/**
	 * On loopback, the window must not lower the ratio to Jedis measured before it; the
	 * limit before the window, measured in the same run, is shown beside it.
	 */
	private void noRegression(int n) {
		for (String workload : List.of("SET", "GET")) {
			double before = "SET".equals(workload) ? LOOPBACK_BEFORE_WINDOW_SET : LOOPBACK_BEFORE_WINDOW_GET;
			Optional<Double> now = ratioOf(timing(Strategies.BATCH_TEMPLATE, workload, n, "direct"),
					timing(Strategies.JEDIS, workload, n, "direct"));
			Optional<Double> twoChunks = ratioOf(timing(Strategies.BATCH_TEMPLATE_TWO_CHUNKS, workload, n, "direct"),
					timing(Strategies.JEDIS, workload, n, "direct"));
			row("no regression on loopback: BatchTemplate (defaults) ÷ Jedis Pipeline, " + workload + " " + count(n)
					+ " (before the window: " + ratio(before) + ")",
					now.map((r) -> ratio(r)
							+ twoChunks.map((t) -> "; two chunks in flight, same run: " + ratio(t)).orElse(""))
						.orElse("not measured"),
					"≥ " + ratio(before), now.map((r) -> verdict(r >= before)).orElse("not measured"));
		}
	}

	/**
	 * BatchTemplate with its defaults against Jedis Pipeline in every cell of the rtt
	 * group: every round trip, command and batch size.
	 */
	private void everyRttCell() {
		Optional<SuitePlan.Group> rtt = this.plan.group("rtt");
		if (rtt.isEmpty() || this.results.timings.stream().noneMatch((t) -> t.group().equals("rtt"))) {
			return;
		}
		for (String workload : rtt.get().workloads()) {
			for (int n : sizesOf(rtt.get(), Strategies.BATCH_TEMPLATE, workload)) {
				for (String network : rtt.get().networks()) {
					ratioRow(
							"BatchTemplate (defaults) ÷ Jedis Pipeline, " + workload + " " + count(n) + ", "
									+ rttLabel(network),
							timing(Strategies.BATCH_TEMPLATE, workload, n, network),
							timing(Strategies.JEDIS, workload, n, network), 1.0);
				}
			}
		}
	}

	private void memoryTargets() {
		for (SuiteResults.Memory m : this.results.memory) {
			if (!m.strategy().equals(Strategies.BATCH_TEMPLATE)) {
				continue;
			}
			boolean ok = "OK".equals(m.status());
			row("BatchTemplate (defaults): one batch of " + count(m.commands()) + " SET in `-Xmx" + m.heapMb() + "m`",
					(ok ? "completes in " + seconds(m.elapsedMillis())
							: m.status() + " after " + count(m.recorded()) + " commands") + "; peak heap "
							+ mb(m.peakHeapMb()) + " MB, live " + mb(m.peakLiveMb()) + " MB, server omem "
							+ mb(m.peakOmemMb()) + " MB",
					"completes", verdict(ok));
		}
	}

	private static boolean isPeer(String id) {
		return !id.startsWith("batchTemplate") && !id.equals(Strategies.REDIS_BATCH_METHOD)
				&& !id.equals(Strategies.REACTIVE_BATCH_TEMPLATE);
	}

	private void ratioRow(String name, Optional<SuiteResults.Timing> ours, Optional<SuiteResults.Timing> theirs,
			double required) {
		Optional<Double> ratio = ratioOf(ours, theirs);
		row(name, ratio.map(ReportFormat::ratio).orElse("not measured"), "≥ " + ratio(required),
				ratio.map((r) -> verdict(r >= required)).orElse("not measured"));
	}

	private void row(String target, String measured, String required, String result) {
		this.md.append("| ")
			.append(target)
			.append(" | ")
			.append(measured)
			.append(" | ")
			.append(required)
			.append(" | ")
			.append(result)
			.append(" |\n");
	}

	private static Optional<Double> ratioOf(Optional<SuiteResults.Timing> ours, Optional<SuiteResults.Timing> theirs) {
		if (ours.isEmpty() || theirs.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(ours.get().commandsPerSecond() / theirs.get().commandsPerSecond());
	}

	private Optional<SuiteResults.Timing> timing(String strategy, String workload, int n, String network) {
		return this.results.timing(strategy, workload, n, network);
	}

}
