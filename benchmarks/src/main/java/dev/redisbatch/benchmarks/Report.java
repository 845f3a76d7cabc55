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

import static dev.redisbatch.benchmarks.ReportFormat.count;
import static dev.redisbatch.benchmarks.ReportFormat.format;
import static dev.redisbatch.benchmarks.ReportFormat.label;
import static dev.redisbatch.benchmarks.ReportFormat.mb;
import static dev.redisbatch.benchmarks.ReportFormat.ms;
import static dev.redisbatch.benchmarks.ReportFormat.msCell;
import static dev.redisbatch.benchmarks.ReportFormat.per1000;
import static dev.redisbatch.benchmarks.ReportFormat.rateCell;
import static dev.redisbatch.benchmarks.ReportFormat.ratio;
import static dev.redisbatch.benchmarks.ReportFormat.seconds;
import static dev.redisbatch.benchmarks.WindowVariants.inFlight;
import static dev.redisbatch.benchmarks.WindowVariants.rttStrategies;
import static dev.redisbatch.benchmarks.WindowVariants.sweepAxes;
import static dev.redisbatch.benchmarks.WindowVariants.windowLabel;

/**
 * Writes the report of a run: {@code results.md} (tables, targets, settings and
 * environment), {@code results.csv} (every number) and the SVG plots.
 */
final class Report {

	static final String PER_STRATEGY_SVG = "ops-per-strategy.svg";

	static final String RTT_SVG = "ops-vs-rtt.svg";

	static final String WINDOW_SVG = "window-vs-rtt.svg";

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
		Files.writeString(dir.resolve("results.csv"), ResultsCsv.csv(results), StandardCharsets.UTF_8);
		if (plan.group("peers").isPresent()) {
			// the plots of the standard suite; the reply-path profiles have tables only
			ReportCharts charts = new ReportCharts(results, plan);
			Files.writeString(dir.resolve(PER_STRATEGY_SVG), charts.perStrategyChart(), StandardCharsets.UTF_8);
			Files.writeString(dir.resolve(RTT_SVG), charts.rttChart(), StandardCharsets.UTF_8);
			Files.writeString(dir.resolve(WINDOW_SVG), charts.windowChart(), StandardCharsets.UTF_8);
			Files.writeString(dir.resolve(SWEEP_SVG), charts.sweepChart(), StandardCharsets.UTF_8);
		}
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
		if (this.plan.isSmoke()) {
			this.md.append("> **Smoke profile: tiny sizes and iterations. These numbers prove that the suite runs; ")
				.append("they measure nothing.**\n\n");
		}
		environment();
		new TargetsTable(this.results, this.plan, this.md).write(n);
		new ReplyPathReport(this.results, this.plan, this.md).write();
		new AutoBatchingReport(this.results, this.md).write();
		if (this.plan.group("peers").isPresent()) {
			headline(n);
		}
		if (this.plan.steps().contains("physical")) {
			physical();
		}
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
				Optional<SuiteResults.Timing> theirs = this.results.springBatchTiming(Strategies.SPRING_BATCH_ITEMS,
						workload, rtt);
				Optional<SuiteResults.Timing> ours = this.results.springBatchTiming(Strategies.REDIS_BATCH_ITEMS,
						workload, rtt);
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

	private void strategies() {
		this.md.append("## Strategies\n\n| id | strategy | configuration |\n|---|---|---|\n");
		List<Strategies.Descriptor> described = new ArrayList<>(Strategies.all());
		described.addAll(Strategies.cluster());
		described.addAll(Strategies.springBatch());
		for (Strategies.Descriptor d : described) {
			this.md.append(ReportFormat.row("`" + d.id() + "`", d.label(), d.description()));
		}
		this.md.append("| `batchTemplate-w<size>` | BatchTemplate, window of that size | ")
			.append("the auto-configured stringBatchTemplate with redis.batch.max-in-flight-bytes=<size> and ")
			.append("max-in-flight-commands=")
			.append(Strategies.UNBOUNDED_COMMANDS)
			.append(" (the window variants; size in KB or MB: 256k, 4m) |\n");
		this.md.append("| `batchTemplate-c<C>-w<size>` | BatchTemplate, chunk C, window of that size | ")
			.append("StringBatchTemplate on a BatchConnectionPool built without Spring (the sweep) |\n");
		for (ConcurrentReaders.Descriptor d : ConcurrentReaders.all()) {
			this.md.append(
					ReportFormat.row("`" + d.id() + "`", d.label(), d.description() + " (the concurrent scenario)"));
		}
		this.md.append('\n');
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
			this.md.append(ReportFormat.row(m.group(), m.benchmark(), m.reason()));
		}
		this.md.append('\n');
	}

	// ---- helpers

	private Optional<SuiteResults.Timing> timing(String strategy, String workload, int n, String network) {
		return this.results.timing(strategy, workload, n, network);
	}

	private List<SuiteResults.Timing> select(Predicate<SuiteResults.Timing> filter) {
		return this.results.timings.stream().filter(filter).toList();
	}

	private void row(String key, String value) {
		this.md.append(ReportFormat.row(key, value));
	}

}
