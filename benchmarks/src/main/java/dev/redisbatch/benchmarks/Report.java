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

/**
 * Writes the report of a run: {@code results.md} (tables, targets, settings and
 * environment), {@code results.csv} (every number) and the SVG plots.
 */
final class Report {

	static final String PER_STRATEGY_SVG = "ops-per-strategy.svg";

	static final String RTT_SVG = "ops-vs-rtt.svg";

	static final String SWEEP_SVG = "sweep.svg";

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
		mixed(n);
		sizes();
		rtt();
		cluster(n);
		springBatch();
		sweep();
		memory();
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
		this.md.append("| target | measured | required | result |\n|---|---:|---:|---|\n");
		String bt = Strategies.BATCH_TEMPLATE;
		for (String workload : List.of("SET", "GET")) {
			Optional<SuiteResults.Timing> ours = timing(bt, workload, n, "direct");
			Optional<SuiteResults.Timing> peer = this.results.timings.stream()
				.filter((t) -> t.workload().equals(workload) && t.n() == n && t.network().equals("direct")
						&& !t.strategy().startsWith("batchTemplate") && t.group().equals("peers"))
				.max(Comparator.comparingDouble(SuiteResults.Timing::commandsPerSecond));
			ratioRow("BatchTemplate (defaults) " + workload + " " + count(n) + " ÷ fastest Java peer"
					+ peer.map((p) -> " (" + label(p.strategy()) + ")").orElse(""), ours, peer, 1.0);
			ratioRow("BatchTemplate (defaults) " + workload + " " + count(n) + " ÷ Jedis Pipeline", ours,
					timing(Strategies.JEDIS, workload, n, "direct"), 1.0);
			ratioRow(
					"BatchTemplate (defaults) " + workload + " " + count(n)
							+ " ÷ executePipelined, Boot defaults (pooled)",
					ours, timing(Strategies.PIPELINED_BOOT, workload, n, "direct"), 2.5);
			String test = workload.equals("SET") ? "SET EX 3600" : "GET";
			Optional<RedisBenchmarkTool.Result> limit = this.results.physical(test);
			if (ours.isPresent() && limit.isPresent()) {
				double ratio = ours.get().commandsPerSecond() / limit.get().requestsPerSecond();
				this.md.append("| BatchTemplate (defaults) ")
					.append(workload)
					.append(' ')
					.append(count(n))
					.append(" ÷ `redis-benchmark -P 1000 -c 1` ")
					.append(test)
					.append(" | ")
					.append(ratio(ratio))
					.append(" | ≥ 0.60× | ")
					.append(verdict(ratio >= 0.6))
					.append(" |\n");
			}
			else {
				this.md.append("| BatchTemplate (defaults) ")
					.append(workload)
					.append(" ÷ redis-benchmark -P 1000 | not measured | ≥ 0.60× | ")
					.append((this.results.physicalNote != null) ? this.results.physicalNote : "not measured")
					.append(" |\n");
			}
		}
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
		Optional<SuiteResults.Memory> memory = this.results.memory.stream()
			.filter((m) -> m.strategy().equals(bt))
			.findFirst();
		this.md.append("| BatchTemplate (defaults): one batch of ")
			.append(count(this.plan.memoryCommands()))
			.append(" SET in `-Xmx256m` | ")
			.append(memory.map((m) -> m.status() + ", peak heap " + mb(m.peakHeapMb()) + " MB").orElse("not measured"))
			.append(" | completes | ")
			.append(memory.map((m) -> verdict("OK".equals(m.status()))).orElse("not measured"))
			.append(" |\n");
		for (SuiteResults.Connections c : this.results.connections) {
			if (c.strategy().startsWith("batchTemplate")) {
				this.md.append("| ")
					.append(label(c.strategy()))
					.append(": new connections per 1,000 batches | ")
					.append("OK".equals(c.status()) ? format(per1000(c)) : "failed")
					.append(" | 0 | ")
					.append(verdict("OK".equals(c.status()) && c.newConnections() == 0))
					.append(" |\n");
			}
		}
		this.md.append('\n');
	}

	private void ratioRow(String name, Optional<SuiteResults.Timing> ours, Optional<SuiteResults.Timing> theirs,
			double required) {
		this.md.append("| ").append(name).append(" | ");
		if (ours.isEmpty() || theirs.isEmpty()) {
			this.md.append("not measured | ≥ ").append(ratio(required)).append(" | not measured |\n");
			return;
		}
		double ratio = ours.get().commandsPerSecond() / theirs.get().commandsPerSecond();
		this.md.append(ratio(ratio)).append(" | ≥ ").append(ratio(required)).append(" | ");
		this.md.append(verdict(ratio >= required)).append(" |\n");
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
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("rtt"));
		if (rows.isEmpty()) {
			return;
		}
		int n = rows.get(0).n();
		this.md.append("## Network distance: SET, N = ")
			.append(count(n))
			.append(", through a latency-adding proxy on loopback\n\n");
		this.md.append("commands/s (ms/batch). The proxy holds every byte for half the round trip in each direction ")
			.append("and does not limit throughput; at 0 ms it only adds its own hop.\n\n");
		this.md.append("| strategy | RTT 0 ms | RTT 1 ms | RTT 10 ms |\n|---|---:|---:|---:|\n");
		for (Strategies.Descriptor d : Strategies.all()) {
			List<Optional<SuiteResults.Timing>> cells = new ArrayList<>();
			for (String network : BenchmarkEnvironment.PROXIED) {
				cells.add(rows.stream()
					.filter((t) -> t.strategy().equals(d.id()) && t.network().equals(network))
					.findFirst());
			}
			if (cells.stream().allMatch(Optional::isEmpty)) {
				continue;
			}
			this.md.append("| ").append(d.label());
			for (Optional<SuiteResults.Timing> cell : cells) {
				this.md.append(" | ");
				cell.ifPresent((t) -> this.md.append(format(t.commandsPerSecond()))
					.append(" (")
					.append(ms(t.msPerBatch()))
					.append(")")
					.append((t.commands() != t.n()) ? " N=" + count(t.commands()) : ""));
			}
			this.md.append(" |\n");
		}
		this.md.append("\n![commands per second against round-trip time](").append(RTT_SVG).append(")\n\n");
	}

	private void sweep() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("sweep"));
		if (rows.isEmpty()) {
			return;
		}
		List<Integer> chunkSizes = new ArrayList<>();
		List<Integer> parallelism = new ArrayList<>();
		sweepAxes(rows, chunkSizes, parallelism);
		this.md.append("## Defaults sweep: `BatchTemplate.setAll`, ")
			.append(count(rows.get(0).n()))
			.append(" keys with TTL, loopback")
			.append("\n\ncommands/s (ms/batch ± error)\n\n| chunk size |");
		for (int p : parallelism) {
			this.md.append(" parallelism ").append(p).append(" |");
		}
		this.md.append("\n|---:|").append("---:|".repeat(parallelism.size())).append('\n');
		for (int c : chunkSizes) {
			this.md.append("| ").append(c).append(" |");
			for (int p : parallelism) {
				Optional<SuiteResults.Timing> t = rows.stream()
					.filter((r) -> r.strategy().equals(Strategies.sweepId(c, p)))
					.findFirst();
				this.md.append(' ');
				t.ifPresent((r) -> this.md.append(format(r.commandsPerSecond()))
					.append(" (")
					.append(ms(r.msPerBatch()))
					.append(" ± ")
					.append(ms(r.msError()))
					.append(")"));
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
		int size = rows.get(0).n();
		for (String reference : List.of(Strategies.LETTUCE, Strategies.JEDIS)) {
			timing(reference, "SET", size, network).ifPresent((t) -> this.md.append("For reference, ")
				.append(label(reference))
				.append(" in the same run: ")
				.append(format(t.commandsPerSecond()))
				.append(" commands/s.\n"));
		}
		this.md.append("\n![defaults sweep](").append(SWEEP_SVG).append(")\n");
		this.md.append('\n');
	}

	private static void sweepAxes(List<SuiteResults.Timing> rows, List<Integer> chunkSizes, List<Integer> parallelism) {
		for (SuiteResults.Timing t : rows) {
			int[] cp = sweepParameters(t.strategy());
			if (!chunkSizes.contains(cp[0])) {
				chunkSizes.add(cp[0]);
			}
			if (!parallelism.contains(cp[1])) {
				parallelism.add(cp[1]);
			}
		}
		chunkSizes.sort(Integer::compare);
		parallelism.sort(Integer::compare);
	}

	private void memory() {
		if (this.results.memory.isEmpty()) {
			return;
		}
		this.md.append("## Memory: one batch of ")
			.append(count(this.plan.memoryCommands()))
			.append(" SET in `-Xmx256m`\n\n");
		this.md.append("Peak heap: the most heap in use (sampled every 5 ms and before each collection); peak live: ")
			.append("the most heap still in use right after a collection; server omem: the peak sum of ")
			.append("`CLIENT LIST` `omem` (replies the server buffered for clients), polled every 20 ms.\n\n");
		this.md.append("| strategy | completes | time | peak heap MB | peak live MB | server omem MB | note |\n");
		this.md.append("|---|---|---:|---:|---:|---:|---|\n");
		for (SuiteResults.Memory m : this.results.memory) {
			boolean ok = "OK".equals(m.status());
			boolean skipped = "SKIPPED".equals(m.status());
			this.md.append("| ")
				.append(label(m.strategy()))
				.append(" | ")
				.append(ok ? "yes" : skipped ? "not run" : "**no** (" + m.status() + ")")
				.append(" | ")
				.append(ok ? String.format(Locale.ROOT, "%.1f s", m.elapsedMillis() / 1000.0) : "")
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
		this.md.append("| `batchTemplate-c<C>-p<P>` | BatchTemplate, chunk C, parallelism P | ")
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
				+ "commands_per_s,status,peak_heap_mb,peak_live_mb,peak_omem_mb,new_connections_per_1000_batches,note\n");
		for (SuiteResults.Timing t : this.results.timings) {
			csv.append(String.join(",", "jmh", t.group(), t.strategy(), t.workload(), String.valueOf(t.n()),
					String.valueOf(t.commands()), t.network(), String.valueOf(t.rttMillis()), plain(t.msPerBatch()),
					plain(t.msError()), String.valueOf(t.samples()), plain(t.commandsPerSecond()), "OK", "", "", "", "",
					""))
				.append('\n');
		}
		for (RedisBenchmarkTool.Result r : this.results.physical) {
			csv.append(String.join(",", "redis-benchmark", "physical", "redis-benchmark", r.test(), "", "", "direct",
					"0", "", "", "", plain(r.requestsPerSecond()), "OK", "", "", "", "", quote(r.command())))
				.append('\n');
		}
		for (SuiteResults.Memory m : this.results.memory) {
			csv.append(String.join(",", "memory", "memory", m.strategy(), "SET", String.valueOf(m.commands()),
					String.valueOf(m.recorded()), "direct", "0", plain(m.elapsedMillis()), "", "", "", m.status(),
					plain(m.peakHeapMb()), plain(m.peakLiveMb()), plain(m.peakOmemMb()), "", quote(m.note())))
				.append('\n');
		}
		for (SuiteResults.Connections c : this.results.connections) {
			csv.append(
					String.join(",", "connections", "connections", c.strategy(), "SET", String.valueOf(c.batchSize()),
							String.valueOf(c.batchSize()), "direct", "0", "", "", String.valueOf(c.batches()), "",
							c.status(), "", "", "", "OK".equals(c.status()) ? plain(per1000(c)) : "", quote(c.note())))
				.append('\n');
		}
		for (SuiteResults.Missing m : this.results.missing) {
			csv.append(String.join(",", "jmh", m.group(), quote(m.benchmark()), "", "", "", "", "", "", "", "", "",
					"FAILED", "", "", "", "", quote(m.reason())))
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
		List<Charts.Series> series = new ArrayList<>();
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("rtt"));
		for (Strategies.Descriptor d : Strategies.all()) {
			List<Double> values = new ArrayList<>();
			boolean any = false;
			for (String network : BenchmarkEnvironment.PROXIED) {
				Optional<SuiteResults.Timing> t = rows.stream()
					.filter((r) -> r.strategy().equals(d.id()) && r.network().equals(network))
					.findFirst();
				values.add(t.map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
				any |= t.isPresent();
			}
			if (any) {
				series.add(new Charts.Series(d.label(), values));
			}
		}
		int n = rows.isEmpty() ? 0 : rows.get(0).n();
		return Charts.lines("SET, batches of " + count(n) + ", against added round-trip time", "added round trip (ms)",
				"commands per second (log)", List.of("0", "1", "10"), series, true);
	}

	String sweepChart() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("sweep"));
		List<Integer> chunkSizes = new ArrayList<>();
		List<Integer> parallelism = new ArrayList<>();
		sweepAxes(rows, chunkSizes, parallelism);
		List<Charts.Series> series = new ArrayList<>();
		for (int p : parallelism) {
			List<Double> values = new ArrayList<>();
			for (int c : chunkSizes) {
				values.add(rows.stream()
					.filter((r) -> r.strategy().equals(Strategies.sweepId(c, p)))
					.findFirst()
					.map(SuiteResults.Timing::commandsPerSecond)
					.orElse(Double.NaN));
			}
			series.add(new Charts.Series("BatchTemplate, parallelism " + p, values));
		}
		int n = rows.isEmpty() ? 0 : rows.get(0).n();
		for (String reference : List.of(Strategies.LETTUCE, Strategies.JEDIS)) {
			timing(reference, "SET", n, "direct").ifPresent((t) -> series.add(new Charts.Series(label(reference),
					chunkSizes.stream().map((c) -> t.commandsPerSecond()).toList(), true)));
		}
		return Charts.lines("BatchTemplate.setAll of " + count(n) + " keys with TTL: chunk size and parallelism",
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

	private static int[] sweepParameters(String id) {
		String[] parts = id.split("-");
		return new int[] { Integer.parseInt(parts[1].substring(1)), Integer.parseInt(parts[2].substring(1)) };
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
