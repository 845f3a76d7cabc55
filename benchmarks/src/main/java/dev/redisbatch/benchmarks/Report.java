package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

import dev.redisbatch.BatchTemplate;

/**
 * Writes the report of a run: {@code results.md} (tables, targets, settings and
 * environment), {@code results.csv} (every number) and the SVG plots.
 */
final class Report {

	static final String PER_STRATEGY_SVG = "ops-per-strategy.svg";

	static final String RTT_SVG = "ops-vs-rtt.svg";

	static final String WINDOW_SVG = "window-vs-rtt.svg";

	static final String SWEEP_SVG = "sweep.svg";

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

	private final StringBuilder md = new StringBuilder();

	private Report(SuiteResults results, SuitePlan plan) {
		this.results = results;
		this.plan = plan;
	}

	static void write(SuiteResults results, SuitePlan plan, Path dir) throws IOException {
		Files.createDirectories(dir);
		Report report = new Report(results, plan);
		Files.writeString(dir.resolve("results.md"), report.markdown(), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve("results.csv"), report.csv(), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve(PER_STRATEGY_SVG), report.perStrategyChart(), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve(RTT_SVG), report.rttChart(), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve(WINDOW_SVG), report.windowChart(), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve(SWEEP_SVG), report.sweepChart(), StandardCharsets.UTF_8);
		if (results.polite != null) {
			Files.writeString(dir.resolve(PoliteModeBenchmark.SVG), results.polite.chart(), StandardCharsets.UTF_8);
		}
	}

	// ---- Markdown

	String markdown() {
		int n = this.plan.headlineSize();
		this.md.append("# redis-batch benchmark results\n\n");
		this.md.append("Profile `")
			.append(this.results.profile)
			.append("`, ")
			.append(this.results.environment.get("date"))
			.append(", the whole run took ")
			.append(Main.format(this.results.duration))
			.append(". Reproduce with `")
			.append(this.results.command)
			.append("` from the repository root. Every number and ratio below comes from this one run, against one ")
			.append("redis-server.\n\n");
		if (!"standard".equals(this.results.profile) && !"full".equals(this.results.profile)) {
			this.md.append("> **Smoke profile: tiny sizes and iterations. These numbers prove that the suite runs; ")
				.append("they measure nothing.**\n\n");
		}
		environment();
		targets(n);
		headline(n);
		physical();
		rtt();
		window();
		sweep();
		memory();
		mixed(n);
		sizes();
		cluster(n);
		springBatch();
		connections();
		if (this.results.polite != null) {
			this.md.append(this.results.polite.markdown());
		}
		strategies();
		settings();
		missing();
		return this.md.toString();
	}

	private void environment() {
		this.md.append("## Environment\n\n| | |\n|---|---|\n");
		this.results.environment.forEach((k, v) -> row(k, v));
		this.results.versions.forEach((k, v) -> row(k, v));
		this.md.append('\n');
	}

	private void targets(int n) {
		this.md.append("## Targets (ratios from this run)\n\n");
		this.md
			.append("A missed target stays in this table as missed; the sections below show where the time goes.\n\n");
		this.md.append("| target | measured | required | result |\n|---|---:|---:|---|\n");
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
		memoryTargets();
		for (String workload : List.of("SET", "GET")) {
			Optional<SuiteResults.Timing> ours = springBatchTiming(Strategies.REDIS_BATCH_ITEMS, workload, 1);
			Optional<SuiteResults.Timing> theirs = springBatchTiming(Strategies.SPRING_BATCH_ITEMS, workload, 1);
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
	 * On loopback, the window must not lower the ratio to Jedis measured before it; the
	 * limit before the window, measured in the same run, is shown beside it.
	 */
	private void noRegression(int n) {
		for (String workload : List.of("SET", "GET")) {
			double before = "SET".equals(workload) ? LOOPBACK_BEFORE_WINDOW_SET : LOOPBACK_BEFORE_WINDOW_GET;
			Optional<Double> now = ratio(timing(Strategies.BATCH_TEMPLATE, workload, n, "direct"),
					timing(Strategies.JEDIS, workload, n, "direct"));
			Optional<Double> twoChunks = ratio(timing(Strategies.BATCH_TEMPLATE_TWO_CHUNKS, workload, n, "direct"),
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
		Optional<Double> ratio = ratio(ours, theirs);
		row(name, ratio.map(Report::ratio).orElse("not measured"), "≥ " + ratio(required),
				ratio.map((r) -> verdict(r >= required)).orElse("not measured"));
	}

	private static Optional<Double> ratio(Optional<SuiteResults.Timing> ours, Optional<SuiteResults.Timing> theirs) {
		if (ours.isEmpty() || theirs.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(ours.get().commandsPerSecond() / theirs.get().commandsPerSecond());
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

	private void headline(int n) {
		this.md.append("## SET and GET, N = ").append(count(n)).append(", loopback\n\n");
		this.md.append("One batch of N commands per operation; SET carries a 1-hour TTL; GET returns the values ")
			.append("(each checked). Time per batch is the JMH mean ± its 99.9% confidence half-interval.\n\n");
		this.md.append(
				"| strategy | SET ms/batch | SET commands/s | GET ms/batch | GET commands/s | SET vs BatchTemplate |\n");
		this.md.append("|---|---:|---:|---:|---:|---:|\n");
		Optional<SuiteResults.Timing> reference = timing(Strategies.BATCH_TEMPLATE, "SET", n, "direct");
		for (Strategies.Descriptor d : Strategies.all()) {
			Optional<SuiteResults.Timing> set = timing(d.id(), "SET", n, "direct");
			Optional<SuiteResults.Timing> get = timing(d.id(), "GET", n, "direct");
			this.md.append("| ").append(d.label());
			this.md.append(" | ").append(msCell(set)).append(" | ").append(rateCell(set));
			this.md.append(" | ").append(msCell(get)).append(" | ").append(rateCell(get)).append(" | ");
			if (set.isPresent() && reference.isPresent()) {
				this.md.append(ratio(set.get().commandsPerSecond() / reference.get().commandsPerSecond()));
			}
			this.md.append(" |\n");
		}
		timing(Strategies.ROUND_TRIP, "SET", n, "direct").filter((t) -> t.commands() != t.n())
			.ifPresent((t) -> this.md.append("\nThe loop with one command")
				.append(" per round trip sends ")
				.append(count(t.commands()))
				.append(" commands per operation (not ")
				.append(count(n))
				.append(") to bound its run time; compare rates.\n"));
		this.md.append("\n![commands per second by strategy](").append(PER_STRATEGY_SVG).append(")\n\n");
	}

	private void physical() {
		this.md.append("## The physical limit: `redis-benchmark -P 1000 -c 1`\n\n");
		if (this.results.physical.isEmpty()) {
			this.md
				.append((this.results.physicalNote != null) ? this.results.physicalNote : "Not measured in this run.")
				.append("\n\n");
			return;
		}
		this.md.append("Same machine, same server, same run; one connection, 1000 commands per pipeline, ")
			.append("values of 64 bytes, random keys.\n\n| test | requests/s | command |\n|---|---:|---|\n");
		for (RedisBenchmarkTool.Result r : this.results.physical) {
			this.md.append("| ")
				.append(r.test())
				.append(" | ")
				.append(format(r.requestsPerSecond()))
				.append(" | `")
				.append(r.command())
				.append("` |\n");
		}
		this.md.append('\n');
	}

	private void cluster(int n) {
		String network = BenchmarkEnvironment.CLUSTER_NETWORK;
		List<SuiteResults.Timing> rows = select((t) -> t.network().equals(network));
		if (rows.isEmpty()) {
			return;
		}
		this.md.append("## Redis Cluster: SET and GET, N = ")
			.append(count(n))
			.append(", 3 masters on loopback\n\n")
			.append("One batch of N commands over keys spread across the three masters; every reply checked.\n\n")
			.append("| strategy | SET ms/batch | SET commands/s | GET ms/batch | GET commands/s |\n")
			.append("|---|---:|---:|---:|---:|\n");
		for (Strategies.Descriptor d : Strategies.cluster()) {
			Optional<SuiteResults.Timing> set = timing(d.id(), "SET", n, network);
			Optional<SuiteResults.Timing> get = timing(d.id(), "GET", n, network);
			this.md.append("| ")
				.append(d.label())
				.append(" | ")
				.append(msCell(set))
				.append(" | ")
				.append(rateCell(set))
				.append(" | ")
				.append(msCell(get))
				.append(" | ")
				.append(rateCell(get))
				.append(" |\n");
		}
		this.md.append("\n| ratio | measured |\n|---|---:|\n");
		for (String workload : List.of("SET", "GET")) {
			Optional<SuiteResults.Timing> ours = timing(Strategies.BATCH_TEMPLATE_CLUSTER, workload, n, network);
			for (String peer : List.of(Strategies.LETTUCE_CLUSTER, Strategies.REDISSON_CLUSTER)) {
				Optional<SuiteResults.Timing> theirs = timing(peer, workload, n, network);
				this.md.append("| BatchTemplate ")
					.append(workload)
					.append(" ÷ ")
					.append(label(peer))
					.append(" | ")
					.append((ours.isPresent() && theirs.isPresent())
							? ratio(ours.get().commandsPerSecond() / theirs.get().commandsPerSecond()) : "not measured")
					.append(" |\n");
			}
		}
		this.md.append('\n');
	}

	private void mixed(int n) {
		List<SuiteResults.Timing> rows = select((t) -> t.workload().equals("MIXED"));
		if (rows.isEmpty()) {
			return;
		}
		this.md.append("## Mixed batch (INCR, HSET, EXPIRE, GET), ")
			.append(count(n))
			.append(" commands, loopback\n\n| strategy | ms/batch | commands/s |\n|---|---:|---:|\n");
		for (Strategies.Descriptor d : Strategies.all()) {
			Optional<SuiteResults.Timing> t = rows.stream().filter((r) -> r.strategy().equals(d.id())).findFirst();
			if (t.isPresent()) {
				this.md.append("| ")
					.append(d.label())
					.append(" | ")
					.append(msCell(t))
					.append(" | ")
					.append(rateCell(t))
					.append(" |\n");
			}
		}
		this.md.append('\n');
	}

	private void sizes() {
		List<Integer> sizes = new ArrayList<>();
		for (SuitePlan.Group group : this.plan.groups()) {
			if (group.name().startsWith("sizes") || group.name().equals("peers")) {
				for (int size : group.sizes()) {
					if (!sizes.contains(size)) {
						sizes.add(size);
					}
				}
			}
		}
		sizes.sort(Integer::compare);
		List<String> strategies = SuitePlan.SIZE_SERIES;
		boolean any = this.results.timings.stream().anyMatch((t) -> t.group().startsWith("sizes"));
		if (!any) {
			return;
		}
		this.md.append("## Batch sizes: commands/s, loopback\n\n| strategy |");
		for (String workload : List.of("SET", "GET")) {
			for (int size : sizes) {
				this.md.append(' ').append(workload).append(' ').append(count(size)).append(" |");
			}
		}
		this.md.append("\n|---|").append("---:|".repeat(sizes.size() * 2)).append('\n');
		for (String id : strategies) {
			this.md.append("| ").append(label(id)).append(" |");
			for (String workload : List.of("SET", "GET")) {
				for (int size : sizes) {
					this.md.append(' ').append(rateCell(timing(id, workload, size, "direct"))).append(" |");
				}
			}
			this.md.append('\n');
		}
		this.md.append('\n');
	}

	private void rtt() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		if (group.isEmpty() || this.results.timings.stream().noneMatch((t) -> t.group().equals("rtt"))) {
			return;
		}
		List<String> networks = group.get().networks();
		this.md.append("## Network distance: commands/s by round trip\n\n");
		this.md.append("commands/s (ms/batch). RTT 0 is loopback without the proxy: the same benchmarks as the peers ")
			.append("and sizes groups. The other round trips go through a proxy on loopback that holds every byte ")
			.append("for half the round trip in each direction and does not limit throughput. The loop with one ")
			.append("command per round trip sends fewer commands (N=…) to bound its run time; compare rates. The ")
			.append("BatchTemplate window variants are in the next section.\n\n");
		for (String workload : group.get().workloads()) {
			for (int n : group.get().sizes()) {
				List<String> ids = rttStrategies(group.get(), workload, n, false);
				if (ids.isEmpty()) {
					continue;
				}
				this.md.append("### ").append(workload).append(", N = ").append(count(n)).append("\n\n| strategy |");
				for (String network : networks) {
					this.md.append(" RTT ").append(BenchmarkEnvironment.rttMillis(network)).append(" ms |");
				}
				this.md.append("\n|---|").append("---:|".repeat(networks.size())).append('\n');
				for (String id : ids) {
					this.md.append("| ").append(label(id)).append(" |");
					for (String network : networks) {
						this.md.append(' ').append(rttCell(timing(id, workload, n, network))).append(" |");
					}
					this.md.append('\n');
				}
				this.md.append('\n');
			}
		}
		this.md.append("![commands per second against round-trip time](").append(RTT_SVG).append(")\n\n");
	}

	private static String rttCell(Optional<SuiteResults.Timing> cell) {
		return cell
			.map((t) -> format(t.commandsPerSecond()) + " (" + ms(t.msPerBatch()) + ")"
					+ ((t.commands() != t.n()) ? " N=" + count(t.commands()) : ""))
			.orElse("—");
	}

	/**
	 * The strategies of the rtt group with cells of this workload and size, in report
	 * order: the named strategies, then the window variants. BatchTemplate with its
	 * defaults is in both lists.
	 * @param windows whether to list the BatchTemplate window variants (the pre-window
	 * limit, the byte windows and the defaults, by commands in flight) instead of the
	 * strategies
	 */
	private List<String> rttStrategies(SuitePlan.Group group, String workload, int n, boolean windows) {
		List<String> inGroup = group.cells()
			.stream()
			.filter((cell) -> cell.workload().equals(workload) && cell.n() == n)
			.map(SuitePlan.Cell::strategy)
			.distinct()
			.toList();
		List<String> ids = new ArrayList<>();
		for (Strategies.Descriptor d : Strategies.all()) {
			if (inGroup.contains(d.id())) {
				ids.add(d.id());
			}
		}
		for (String id : inGroup) {
			if (!ids.contains(id)) {
				ids.add(id);
			}
		}
		if (!windows) {
			return ids.stream().filter((id) -> id.equals(Strategies.BATCH_TEMPLATE) || !isWindowVariant(id)).toList();
		}
		List<String> variants = new ArrayList<>(ids.stream().filter(Report::isWindowVariant).toList());
		variants.sort(Comparator.comparingLong((id) -> inFlight(id, workload, Integer.MAX_VALUE)));
		return variants;
	}

	private static boolean isWindowVariant(String id) {
		return Strategies.windowBytes(id) > 0 || id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS)
				|| id.equals(Strategies.BATCH_TEMPLATE);
	}

	/**
	 * The most commands of one batch a BatchTemplate variant keeps in flight: the whole
	 * chunks that fit in its windows (at least one).
	 */
	private static long inFlight(String id, String workload, int n) {
		int chunk = (Strategies.sweepChunkSize(id) > 0) ? Strategies.sweepChunkSize(id)
				: BatchTemplate.DEFAULT_CHUNK_SIZE;
		long bytes = (Strategies.windowBytes(id) > 0) ? Strategies.windowBytes(id)
				: BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES;
		long commands = (Strategies.windowBytes(id) > 0) ? Strategies.UNBOUNDED_COMMANDS
				: id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS) ? Strategies.TWO_CHUNKS
						: BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS;
		long chunkBytes = (long) chunk * Workload.requestBytes(workload);
		long chunks = Math.max(1, Math.min(bytes / chunkBytes, commands / chunk));
		return Math.min(n, chunks * chunk);
	}

	private void window() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		if (group.isEmpty() || this.results.timings.stream().noneMatch((t) -> t.group().equals("rtt"))) {
			return;
		}
		int n = this.plan.headlineSize();
		List<String> networks = group.get().networks();
		this.md.append("## The window at a distance: BatchTemplate, N = ").append(count(n)).append("\n\n");
		this.md.append("commands/s (ms/batch) of BatchTemplate with a byte window of each size (the command window ")
			.append("too large to bind), with the defaults (")
			.append(Strategies.size(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES))
			.append(" and ")
			.append(count(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS))
			.append(" commands), and with the limit before the window (two chunks of ")
			.append(count(BatchTemplate.DEFAULT_CHUNK_SIZE))
			.append(" in flight). A SET with its TTL is ")
			.append(Workload.requestBytes("SET"))
			.append(" request bytes and a GET ")
			.append(Workload.requestBytes("GET"))
			.append(", so ")
			.append(count(n))
			.append(" SETs are ")
			.append(String.format(Locale.ROOT, "%.1f", n * (double) Workload.requestBytes("SET") / 1024 / 1024))
			.append(" MB: a batch smaller than the window goes out in one flight. \"In flight\" is the most ")
			.append("commands of the batch written and not yet answered. To fill a round trip of R ms at C ")
			.append("commands/s, the window must hold C × R / 1000 commands.\n\n");
		for (String workload : group.get().workloads()) {
			List<String> ids = rttStrategies(group.get(), workload, n, true);
			if (ids.isEmpty()) {
				continue;
			}
			this.md.append("### ").append(workload).append("\n\n| BatchTemplate | in flight |");
			for (String network : networks) {
				this.md.append(" RTT ").append(BenchmarkEnvironment.rttMillis(network)).append(" ms |");
			}
			this.md.append("\n|---|---:|").append("---:|".repeat(networks.size())).append('\n');
			for (String id : ids) {
				this.md.append("| ").append(windowLabel(id)).append(" | ").append(count(inFlight(id, workload, n)));
				this.md.append(" |");
				for (String network : networks) {
					this.md.append(' ').append(rttCell(timing(id, workload, n, network))).append(" |");
				}
				this.md.append('\n');
			}
			this.md.append("| Jedis Pipeline (for reference) | ").append(count(n)).append(" |");
			for (String network : networks) {
				this.md.append(' ').append(rttCell(timing(Strategies.JEDIS, workload, n, network))).append(" |");
			}
			this.md.append("\n\n");
		}
		this.md.append("![commands per second against round-trip time, by window](").append(WINDOW_SVG).append(")\n\n");
	}

	private static String windowLabel(String id) {
		if (id.equals(Strategies.BATCH_TEMPLATE)) {
			return "defaults (" + Strategies.size(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES) + ", "
					+ count(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS) + " commands)";
		}
		if (id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS)) {
			return "two chunks (before the window)";
		}
		return "window " + Strategies.size(Strategies.windowBytes(id));
	}

	private void sweep() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("sweep"));
		if (rows.isEmpty()) {
			return;
		}
		List<Integer> chunkSizes = new ArrayList<>();
		List<Long> windows = new ArrayList<>();
		sweepAxes(rows, chunkSizes, windows);
		int n = rows.get(0).n();
		this.md.append("## Defaults sweep: `BatchTemplate.setAll`, ")
			.append(count(n))
			.append(" keys with TTL, chunk size × byte window, loopback")
			.append("\n\ncommands/s (ms/batch ± error). Templates built without Spring, the command window too large ")
			.append("to bind. At least one chunk is always in flight: where the window holds fewer than two chunks ")
			.append("(marked ¹), the connection waits for each chunk's replies before it sends the next.\n\n")
			.append("| chunk size |");
		for (long w : windows) {
			this.md.append(" window ").append(Strategies.size(w)).append(" |");
		}
		this.md.append("\n|---:|").append("---:|".repeat(windows.size())).append('\n');
		for (int c : chunkSizes) {
			this.md.append("| ").append(count(c)).append(" |");
			for (long w : windows) {
				Optional<SuiteResults.Timing> t = rows.stream()
					.filter((r) -> r.strategy().equals(Strategies.sweepId(c, w)))
					.findFirst();
				this.md.append(' ');
				t.ifPresent((r) -> this.md.append(format(r.commandsPerSecond()))
					.append(" (")
					.append(ms(r.msPerBatch()))
					.append(" ± ")
					.append(ms(r.msError()))
					.append(")")
					.append((w / ((long) c * Workload.requestBytes("SET")) < 2) ? " ¹" : ""));
				this.md.append(" |");
			}
			this.md.append('\n');
		}
		rows.stream()
			.max(Comparator.comparingDouble(SuiteResults.Timing::commandsPerSecond))
			.ifPresent((best) -> this.md.append("\nFastest: ")
				.append(label(best.strategy()))
				.append(", ")
				.append(format(best.commandsPerSecond()))
				.append(" commands/s. Rates within the error bars of each other are ties.\n"));
		String network = rows.get(0).network();
		for (String reference : List.of(Strategies.BATCH_TEMPLATE, Strategies.LETTUCE, Strategies.JEDIS)) {
			timing(reference, "SET", n, network).ifPresent((t) -> this.md.append("For reference, ")
				.append(label(reference))
				.append(" in the same run: ")
				.append(format(t.commandsPerSecond()))
				.append(" commands/s.\n"));
		}
		this.md.append("\n![defaults sweep](").append(SWEEP_SVG).append(")\n");
		this.md.append('\n');
	}

	private static void sweepAxes(List<SuiteResults.Timing> rows, List<Integer> chunkSizes, List<Long> windows) {
		for (SuiteResults.Timing t : rows) {
			int chunk = Strategies.sweepChunkSize(t.strategy());
			long window = Strategies.windowBytes(t.strategy());
			if (chunk > 0 && !chunkSizes.contains(chunk)) {
				chunkSizes.add(chunk);
			}
			if (window > 0 && !windows.contains(window)) {
				windows.add(window);
			}
		}
		chunkSizes.sort(Integer::compare);
		windows.sort(Long::compare);
	}

	private void memory() {
		if (this.results.memory.isEmpty()) {
			return;
		}
		this.md.append("## Memory: one batch of ")
			.append(count(this.plan.memoryCommands()))
			.append(" SET in a small heap\n\n");
		this.md.append("Each run is a JVM of its own with the heap shown. Peak heap: the most heap in use (sampled ")
			.append("every 5 ms and before each collection); peak live: the most heap in use right after a full ")
			.append("collection, forced once a second during the batch (n/a when the batch ended within a second); ")
			.append("server omem: the peak of `CLIENT LIST` `omem` (replies the server buffered and the client had ")
			.append("not read) summed over the strategy's connections, polled every 20 ms. A JVM that runs out of ")
			.append("memory exits, and the row says how far it got.\n\n");
		this.md
			.append("| strategy | heap | completes | time | peak heap MB | peak live MB | server omem MB | note |\n");
		this.md.append("|---|---:|---|---:|---:|---:|---:|---|\n");
		for (SuiteResults.Memory m : this.results.memory) {
			boolean ok = "OK".equals(m.status());
			boolean skipped = "SKIPPED".equals(m.status());
			this.md.append("| ")
				.append(label(m.strategy()))
				.append(" | ")
				.append(m.heapMb())
				.append(" MB | ")
				.append(ok ? "yes" : skipped ? "not run" : "**no** (" + m.status() + ")")
				.append(" | ")
				.append(ok ? seconds(m.elapsedMillis()) : "")
				.append(" | ")
				.append(skipped ? "" : mb(m.peakHeapMb()))
				.append(" | ")
				.append(skipped ? "" : mb(m.peakLiveMb()))
				.append(" | ")
				.append(skipped ? "" : mb(m.peakOmemMb()))
				.append(" | ")
				.append(m.note())
				.append(ok || skipped ? "" : "; " + count(m.recorded()) + " commands taken before it ended")
				.append(" |\n");
		}
		this.md.append('\n');
	}

	private void connections() {
		if (this.results.connections.isEmpty()) {
			return;
		}
		SuiteResults.Connections first = this.results.connections.get(0);
		this.md.append("## Connections: new TCP connections per 1,000 batches\n\n")
			.append("Counted by the server (`total_connections_received`) over ")
			.append(count(first.batches()))
			.append(" batches of ")
			.append(first.batchSize())
			.append(" SET, after 10 warm-up batches.\n\n| strategy | new connections per 1,000 batches |\n|---|---:|\n");
		for (SuiteResults.Connections c : this.results.connections) {
			this.md.append("| ")
				.append(label(c.strategy()))
				.append(" | ")
				.append("OK".equals(c.status()) ? format(per1000(c)) : "failed: " + c.note())
				.append(" |\n");
		}
		this.md.append('\n');
	}

	/**
	 * The Spring Batch item writer and reader against Spring Batch's own, at each round
	 * trip of the spring-batch group.
	 */
	private void springBatch() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("spring-batch"));
		if (rows.isEmpty()) {
			return;
		}
		this.md.append("## Spring Batch: item writer and reader\n\n");
		this.md.append("Items per second through the latency proxy: the writer writes N items in chunks of 1,000 ")
			.append("(SET, no TTL: Spring Batch's RedisItemWriter cannot set one); the reader reads every key ")
			.append("(SCAN COUNT 1000 and the values). With a round trip, Spring Batch's strategies handle at most ")
			.append("5,000 / RTT ms items per operation (one round trip per item).\n\n");
		this.md
			.append("| what | RTT | Spring Batch (items/s) | redis-batch (items/s) | × |\n|---|---:|---:|---:|---:|\n");
		for (String workload : List.of("SET", "GET")) {
			for (String network : List.of("rtt0", "rtt1")) {
				int rtt = BenchmarkEnvironment.rttMillis(network);
				Optional<SuiteResults.Timing> theirs = springBatchTiming(Strategies.SPRING_BATCH_ITEMS, workload, rtt);
				Optional<SuiteResults.Timing> ours = springBatchTiming(Strategies.REDIS_BATCH_ITEMS, workload, rtt);
				this.md.append("| ")
					.append("SET".equals(workload) ? "writer" : "reader")
					.append(ours.map((t) -> ", " + count(t.n()) + " items").orElse(""))
					.append(" | ")
					.append(rtt)
					.append(" ms | ")
					.append(theirs.map((t) -> format(t.commandsPerSecond())).orElse("not measured"))
					.append(" | ")
					.append(ours.map((t) -> format(t.commandsPerSecond())).orElse("not measured"))
					.append(" | ")
					.append((ours.isPresent() && theirs.isPresent())
							? ratio(ours.get().commandsPerSecond() / theirs.get().commandsPerSecond()) : "")
					.append(" |\n");
			}
		}
		this.md.append('\n');
	}

	private Optional<SuiteResults.Timing> springBatchTiming(String strategy, String workload, int rttMillis) {
		return this.results.timings.stream()
			.filter((t) -> t.group().equals("spring-batch") && t.strategy().equals(strategy)
					&& t.workload().equals(workload) && t.rttMillis() == rttMillis)
			.findFirst();
	}

	private void strategies() {
		this.md.append("## Strategies\n\n| id | strategy | configuration |\n|---|---|---|\n");
		List<Strategies.Descriptor> described = new ArrayList<>(Strategies.all());
		described.addAll(Strategies.cluster());
		described.addAll(Strategies.springBatch());
		for (Strategies.Descriptor d : described) {
			this.md.append("| `")
				.append(d.id())
				.append("` | ")
				.append(d.label())
				.append(" | ")
				.append(d.description())
				.append(" |\n");
		}
		this.md.append("| `batchTemplate-w<size>` | BatchTemplate, window of that size | ")
			.append("the auto-configured stringBatchTemplate with redis.batch.max-in-flight-bytes=<size> and ")
			.append("max-in-flight-commands=")
			.append(Strategies.UNBOUNDED_COMMANDS)
			.append(" (the window variants; size in KB or MB: 256k, 4m) |\n");
		this.md.append("| `batchTemplate-c<C>-w<size>` | BatchTemplate, chunk C, window of that size | ")
			.append("StringBatchTemplate on a BatchConnectionPool built without Spring (the sweep) |\n\n");
	}

	private void settings() {
		this.md.append("## Settings\n\n");
		for (String setting : this.results.settings) {
			this.md.append("- ").append(setting).append('\n');
		}
		this.md.append("- Workload: keys `key:` + 12 random digits (16 bytes, as `redis-benchmark -r`), values of ")
			.append(Workload.VALUE_SIZE)
			.append(" random characters, TTL 1 h on every SET and EXPIRE; the same keys for every strategy; ")
			.append("FLUSHALL before each benchmark, keys loaded before GET and mixed benchmarks\n\n");
	}

	private void missing() {
		if (this.results.missing.isEmpty()) {
			return;
		}
		this.md.append("## Benchmarks without a result\n\n| group | benchmark | reason |\n|---|---|---|\n");
		for (SuiteResults.Missing m : this.results.missing) {
			this.md.append("| ")
				.append(m.group())
				.append(" | ")
				.append(m.benchmark())
				.append(" | ")
				.append(m.reason())
				.append(" |\n");
		}
		this.md.append('\n');
	}

	// ---- CSV

	String csv() {
		StringBuilder csv = new StringBuilder();
		csv.append("kind,group,strategy,workload,n,commands,network,rtt_ms,ms_per_batch,ms_error,samples,"
				+ "commands_per_s,status,xmx_mb,peak_heap_mb,peak_live_mb,peak_omem_mb,"
				+ "new_connections_per_1000_batches,note\n");
		for (SuiteResults.Timing t : this.results.timings) {
			csv.append(String.join(",", "jmh", t.group(), t.strategy(), t.workload(), String.valueOf(t.n()),
					String.valueOf(t.commands()), t.network(), String.valueOf(t.rttMillis()), plain(t.msPerBatch()),
					plain(t.msError()), String.valueOf(t.samples()), plain(t.commandsPerSecond()), "OK", "", "", "", "",
					"", ""))
				.append('\n');
		}
		for (RedisBenchmarkTool.Result r : this.results.physical) {
			csv.append(String.join(",", "redis-benchmark", "physical", "redis-benchmark", r.test(), "", "", "direct",
					"0", "", "", "", plain(r.requestsPerSecond()), "OK", "", "", "", "", "", quote(r.command())))
				.append('\n');
		}
		for (SuiteResults.Memory m : this.results.memory) {
			csv.append(String.join(",", "memory", "memory", m.strategy(), "SET", String.valueOf(m.commands()),
					String.valueOf(m.recorded()), "direct", "0", plain(m.elapsedMillis()), "", "", "", m.status(),
					String.valueOf(m.heapMb()), plain(m.peakHeapMb()), plain(m.peakLiveMb()), plain(m.peakOmemMb()), "",
					quote(m.note())))
				.append('\n');
		}
		for (SuiteResults.Connections c : this.results.connections) {
			csv.append(String.join(",", "connections", "connections", c.strategy(), "SET",
					String.valueOf(c.batchSize()), String.valueOf(c.batchSize()), "direct", "0", "", "",
					String.valueOf(c.batches()), "", c.status(), "", "", "", "",
					"OK".equals(c.status()) ? plain(per1000(c)) : "", quote(c.note())))
				.append('\n');
		}
		for (SuiteResults.Missing m : this.results.missing) {
			csv.append(String.join(",", "jmh", m.group(), quote(m.benchmark()), "", "", "", "", "", "", "", "", "",
					"FAILED", "", "", "", "", "", quote(m.reason())))
				.append('\n');
		}
		return csv.toString();
	}

	// ---- charts

	String perStrategyChart() {
		int n = this.plan.headlineSize();
		List<String> categories = new ArrayList<>();
		List<Double> set = new ArrayList<>();
		List<Double> get = new ArrayList<>();
		for (Strategies.Descriptor d : Strategies.all()) {
			categories.add(d.label());
			set.add(timing(d.id(), "SET", n, "direct").map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
			get.add(timing(d.id(), "GET", n, "direct").map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
		}
		if (!this.results.physical.isEmpty()) {
			categories.add("redis-benchmark -P 1000 -c 1 (SET EX / GET)");
			set.add(this.results.physical("SET EX 3600")
				.map(RedisBenchmarkTool.Result::requestsPerSecond)
				.orElse(Double.NaN));
			get.add(this.results.physical("GET").map(RedisBenchmarkTool.Result::requestsPerSecond).orElse(Double.NaN));
		}
		return Charts.bars(
				"Commands per second, batches of " + count(n) + " on loopback (" + this.results.profile + " profile, "
						+ this.results.environment.getOrDefault("date", "") + ")",
				"commands per second", categories,
				List.of(new Charts.Series("SET with TTL", set), new Charts.Series("GET", get)));
	}

	String rttChart() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		List<String> panels = new ArrayList<>();
		if (group.isPresent()) {
			List<String> colors = new ArrayList<>();
			for (String workload : group.get().workloads()) {
				for (int n : group.get().sizes()) {
					rttStrategies(group.get(), workload, n, false).stream()
						.filter((id) -> !colors.contains(id))
						.forEach(colors::add);
				}
			}
			for (String workload : group.get().workloads()) {
				for (int n : group.get().sizes()) {
					panels.add(rttPanel(workload + ", batches of " + count(n), group.get().networks(), workload, n,
							rttStrategies(group.get(), workload, n, false), List.of(), colors, false));
				}
			}
		}
		if (panels.isEmpty()) {
			panels.add(rttPanel("not measured", List.of("direct"), "SET", 0, List.of(), List.of(), List.of(), false));
		}
		return Charts.panels("Commands per second against the added round trip (log scale)", panels);
	}

	String windowChart() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		int n = this.plan.headlineSize();
		List<String> panels = new ArrayList<>();
		if (group.isPresent()) {
			List<String> colors = new ArrayList<>();
			for (String workload : group.get().workloads()) {
				rttStrategies(group.get(), workload, n, true).stream()
					.filter((id) -> !colors.contains(id))
					.forEach(colors::add);
			}
			colors.add(Strategies.JEDIS);
			for (String workload : group.get().workloads()) {
				panels.add(rttPanel("BatchTemplate " + workload + ", batches of " + count(n) + ", by window",
						group.get().networks(), workload, n, rttStrategies(group.get(), workload, n, true),
						List.of(Strategies.JEDIS), colors, true));
			}
		}
		if (panels.isEmpty()) {
			panels.add(rttPanel("not measured", List.of("direct"), "SET", 0, List.of(), List.of(), List.of(), false));
		}
		return Charts.panels("The in-flight window at a distance (log scale)", panels);
	}

	/**
	 * One panel of commands/s against the round trip.
	 * @param colors the ids in colour order, so that a strategy has the same colour in
	 * every panel
	 * @param byWindow whether to name the lines by their window
	 */
	private String rttPanel(String title, List<String> networks, String workload, int n, List<String> ids,
			List<String> references, List<String> colors, boolean byWindow) {
		List<Charts.Series> series = new ArrayList<>();
		for (String id : ids) {
			series.add(new Charts.Series(byWindow ? windowLabel(id) : label(id), rates(id, workload, n, networks),
					false, colors.indexOf(id)));
		}
		for (String id : references) {
			series.add(new Charts.Series(label(id), rates(id, workload, n, networks), true, colors.indexOf(id)));
		}
		return Charts.lines(title, "added round trip (ms; 0 = loopback, no proxy)", "commands per second (log)",
				networks.stream().map((network) -> String.valueOf(BenchmarkEnvironment.rttMillis(network))).toList(),
				series, true);
	}

	private List<Double> rates(String id, String workload, int n, List<String> networks) {
		List<Double> values = new ArrayList<>();
		for (String network : networks) {
			values.add(timing(id, workload, n, network).map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
		}
		return values;
	}

	String sweepChart() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("sweep"));
		List<Integer> chunkSizes = new ArrayList<>();
		List<Long> windows = new ArrayList<>();
		sweepAxes(rows, chunkSizes, windows);
		List<Charts.Series> series = new ArrayList<>();
		for (long w : windows) {
			List<Double> values = new ArrayList<>();
			for (int c : chunkSizes) {
				values.add(rows.stream()
					.filter((r) -> r.strategy().equals(Strategies.sweepId(c, w)))
					.findFirst()
					.map(SuiteResults.Timing::commandsPerSecond)
					.orElse(Double.NaN));
			}
			series.add(new Charts.Series("BatchTemplate, window " + Strategies.size(w), values));
		}
		int n = rows.isEmpty() ? 0 : rows.get(0).n();
		for (String reference : List.of(Strategies.LETTUCE, Strategies.JEDIS)) {
			timing(reference, "SET", n, "direct").ifPresent((t) -> series.add(new Charts.Series(label(reference),
					chunkSizes.stream().map((c) -> t.commandsPerSecond()).toList(), true)));
		}
		return Charts.lines("BatchTemplate.setAll of " + count(n) + " keys with TTL: chunk size and byte window",
				"chunk size (commands)", "commands per second", chunkSizes.stream().map(String::valueOf).toList(),
				series, false);
	}

	// ---- helpers

	private Optional<SuiteResults.Timing> timing(String strategy, String workload, int n, String network) {
		return this.results.timing(strategy, workload, n, network);
	}

	private List<SuiteResults.Timing> select(Predicate<SuiteResults.Timing> filter) {
		return this.results.timings.stream().filter(filter).toList();
	}

	private static String label(String id) {
		return Strategies.describe(id).label();
	}

	private void row(String key, String value) {
		this.md.append("| ").append(key).append(" | ").append(value).append(" |\n");
	}

	private static double per1000(SuiteResults.Connections c) {
		return c.newConnections() * 1000.0 / c.batches();
	}

	private static String msCell(Optional<SuiteResults.Timing> t) {
		return t.map((r) -> ms(r.msPerBatch()) + " ± " + ms(r.msError())).orElse("—");
	}

	private static String rateCell(Optional<SuiteResults.Timing> t) {
		return t.map((r) -> format(r.commandsPerSecond())).orElse("—");
	}

	private static String ms(double value) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		return String.format(Locale.ROOT, (value >= 100) ? "%.0f" : (value >= 10) ? "%.1f" : "%.2f", value);
	}

	private static String seconds(long millis) {
		return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
	}

	private static String rttLabel(String network) {
		int rtt = BenchmarkEnvironment.rttMillis(network);
		return "direct".equals(network) ? "RTT 0 ms (loopback)" : "RTT " + rtt + " ms";
	}

	private static List<Integer> sizesOf(SuitePlan.Group group, String strategy, String workload) {
		return group.cells()
			.stream()
			.filter((cell) -> cell.strategy().equals(strategy) && cell.workload().equals(workload))
			.map(SuitePlan.Cell::n)
			.distinct()
			.toList();
	}

	private static String mb(double value) {
		return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
	}

	private static String format(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	private static String count(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	private static String ratio(double value) {
		return String.format(Locale.ROOT, "%.2f×", value);
	}

	private static String verdict(boolean met) {
		return met ? "met" : "**missed**";
	}

	private static String plain(double value) {
		return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.3f", value);
	}

	private static String quote(String text) {
		return "\"" + text.replace("\"", "\"\"") + "\"";
	}

}
