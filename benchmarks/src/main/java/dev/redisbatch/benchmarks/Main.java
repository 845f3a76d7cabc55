package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Runs the whole benchmark suite against one fresh {@code redis-server} and writes the
 * report: {@code results.md}, {@code results.csv} and the SVG plots.
 * <ol>
 * <li>starts one Redis server (and the latency-adding proxies in front of it);</li>
 * <li>runs the JMH groups of the {@link SuitePlan} in forked JVMs;</li>
 * <li>runs {@code redis-benchmark -P 1000 -c 1} against the same server;</li>
 * <li>runs the memory runs (one JVM per strategy, {@code -Xmx128m}, and the defaults in
 * {@code -Xmx256m} too) while polling the server's client output buffers, and the
 * connection counts;</li>
 * <li>writes the report, with every ratio taken from this run.</li>
 * </ol>
 * Usage:
 * {@code Main [--out DIR] [--profile standard|full|smoke|reply-path|reply-path-smoke|reply-path-loopback|reply-path-small|reply-path-steady|auto-batching|auto-batching-smoke]
 * [--groups a,b] [--jvm PATH] [--prof PROFILER] [--publish DIR]}. The groups are the JMH
 * groups of the plan and its other steps: {@code physical}, {@code memory},
 * {@code connections}, {@code polite}.
 *
 * @since 0.1.0
 */
public final class Main {

	private final Path out;

	private final SuitePlan plan;

	private final @Nullable Set<String> only;

	private final String java;

	private final @Nullable String profiler;

	private final SuiteResults results = new SuiteResults();

	/**
	 * The benchmarks measured so far in this run, by {@link SuitePlan.Cell} and how they
	 * were measured.
	 */
	private final Set<Measured> measured = new HashSet<>();

	private final PrintStream console = System.out;

	private Main(Path out, SuitePlan plan, @Nullable Set<String> only, String java, @Nullable String profiler) {
		this.out = out;
		this.plan = plan;
		this.only = only;
		this.java = java;
		this.profiler = profiler;
	}

	/**
	 * Run the suite.
	 * @param args see the class description
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		int profileAt = List.of(args).indexOf("--profile");
		if (profileAt >= 0 && profileAt + 1 < args.length && "paired".equals(args[profileAt + 1])) {
			PairedRun.run(args);
			System.exit(0);
		}
		Path out = Path.of("target", "results");
		String profile = "standard";
		Set<String> only = null;
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String profiler = null;
		Path publish = null;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--out" -> out = Path.of(args[++i]);
				case "--profile" -> profile = args[++i];
				case "--groups" -> only = new LinkedHashSet<>(List.of(args[++i].split(",")));
				case "--jvm" -> java = args[++i];
				case "--prof" -> profiler = args[++i];
				case "--publish" -> publish = Path.of(args[++i]);
				case "--help", "-h" -> {
					System.out.println("Main [--out DIR] [--profile standard|full|smoke|reply-path|reply-path-smoke"
							+ "|reply-path-loopback|reply-path-small|reply-path-steady|auto-batching|auto-batching-smoke|paired]"
							+ " [--groups a,b] [--jvm PATH] [--prof PROFILER] [--publish DIR]");
					return;
				}
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		Main main = new Main(out, SuitePlan.of(profile), only, java, profiler);
		main.results.command = "benchmarks/run.sh" + (profile.equals("standard") ? "" : " --profile " + profile);
		main.run();
		if (publish != null) {
			main.publish(main.plan.publishDirectory(publish));
		}
		System.exit(0);
	}

	private void run() throws IOException, RunnerException, InterruptedException {
		Files.createDirectories(this.out);
		long start = System.nanoTime();
		this.results.profile = this.plan.profile();
		describeEnvironment();
		try (RedisProcess redis = RedisProcess.start()) {
			this.results.environment.put("redis-server",
					redis.binary().version() + " (" + redis.binary().source() + ", " + redis.binary().path() + ")");
			Map<String, TcpProxy> proxies = new HashMap<>();
			RedisCluster cluster = null;
			try {
				if (selected("cluster") && this.plan.group("cluster").isPresent()) {
					// three masters without replicas: the cluster group compares routing
					// and
					// pipelining, not replication
					cluster = RedisCluster.start(3, 0);
					this.results.environment.put("Redis Cluster",
							"3 masters on loopback (" + String.join(", ", cluster.hostsAndPorts()) + "), no replicas");
				}
				for (String network : BenchmarkEnvironment.PROXIED) {
					// only the delay: the proxy shares the two cores with client and
					// server
					proxies.put(network, latencyProxy(redis.port(), network));
				}
				this.console.printf("redis-server %s on port %d; profile %s; results in %s%n", redis.binary().version(),
						redis.port(), this.plan.profile(), this.out.toAbsolutePath());
				List<String> jvmArgs = new ArrayList<>(BenchmarkEnvironment.HEAP);
				jvmArgs.add("-D" + BenchmarkEnvironment.PORT + "=" + redis.port());
				for (Map.Entry<String, TcpProxy> proxy : proxies.entrySet()) {
					jvmArgs
						.add("-D" + BenchmarkEnvironment.PROXY_PREFIX + proxy.getKey() + "=" + proxy.getValue().port());
				}
				if (cluster != null) {
					jvmArgs.add("-D" + BenchmarkEnvironment.CLUSTER + "="
							+ String.join(",", cluster.nodes().stream().map((node) -> "" + node.port()).toList()));
				}
				this.results.settings.add("JMH forks: `" + String.join(" ", BenchmarkEnvironment.HEAP)
						+ "`; unless a group says otherwise, mode average time per batch, one thread");
				for (SuitePlan.Group group : this.plan.groups()) {
					if (selected(group.name())) {
						runGroup(group, jvmArgs);
					}
					if (group.name().equals("peers") && selectedStep("physical")) {
						runPhysicalLimit(redis);
					}
				}
				if (selectedStep("physical") && this.results.physical.isEmpty() && this.results.physicalNote == null) {
					runPhysicalLimit(redis);
				}
				if (selectedStep("polite")) {
					this.console.println("polite mode: GET latency during a backfill, uncapped and capped");
					this.results.polite = PoliteModeBenchmark.run(redis.port(),
							"smoke".equals(this.plan.profile()) ? 20_000 : 1_000_000, 8);
				}
			}
			finally {
				proxies.values().forEach(TcpProxy::close);
				if (cluster != null) {
					cluster.close();
				}
			}
			if (selectedStep("memory")) {
				probes().memory(redis.port());
			}
			if (selectedStep("connections")) {
				probes().connections(redis.port());
			}
		}
		this.results.duration = Duration.ofNanos(System.nanoTime() - start);
		Report.write(this.results, this.plan, this.out);
		this.console.printf("Done in %s. Report: %s%n", format(this.results.duration),
				this.out.resolve("results.md").toAbsolutePath());
	}

	/**
	 * The proxy that puts a network's round trip between the client and the server: only
	 * the delay (it shares the two cores with client and server).
	 */
	static TcpProxy latencyProxy(int serverPort, String network) {
		return TcpProxy.start(serverPort)
			.trackOutstandingRequests(false)
			.roundTrip(Duration.ofMillis(BenchmarkEnvironment.rttMillis(network)));
	}

	private ProbeRuns probes() {
		return new ProbeRuns(this.out, this.plan, this.java, this.results, this.console);
	}

	private boolean selected(String group) {
		return this.only == null || this.only.contains(group);
	}

	private boolean selectedStep(String step) {
		return this.plan.steps().contains(step) && selected(step);
	}

	private void describeEnvironment() {
		Map<String, String> env = this.results.environment;
		env.put("date", ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT)));
		env.put("CPU", cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores (nproc)");
		env.put("RAM", memTotal());
		env.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch"));
		env.put("JDK",
				System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
						+ System.getProperty("java.vendor") + ")"
						+ (this.java.startsWith(System.getProperty("java.home")) ? "" : "; forks use " + this.java));
		this.results.versions.putAll(Versions.libraries());
		for (Strategies.Descriptor descriptor : Strategies.all()) {
			this.results.strategyConfigurations.put(descriptor.id(), descriptor.description());
		}
		for (Strategies.Descriptor descriptor : Strategies.cluster()) {
			this.results.strategyConfigurations.put(descriptor.id(), descriptor.description());
		}
		for (Strategies.Descriptor descriptor : Strategies.springBatch()) {
			this.results.strategyConfigurations.put(descriptor.id(), descriptor.description());
		}
		for (ConcurrentReaders.Descriptor descriptor : ConcurrentReaders.all()) {
			this.results.strategyConfigurations.put(descriptor.id(), descriptor.description());
		}
		for (SingleCommandClients.Descriptor descriptor : SingleCommandClients.all()) {
			this.results.strategyConfigurations.put(descriptor.id(), descriptor.description());
		}
	}

	private static String cpuModel() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).trim();
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return System.getProperty("os.arch");
	}

	private static String memTotal() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					long kb = Long.parseLong(line.replaceAll("\\D", ""));
					return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return "unknown";
	}

	private void runGroup(SuitePlan.Group group, List<String> jvmArgs) throws IOException, RunnerException {
		SuitePlan.Iterations it = group.iterations();
		List<SuitePlan.Cell> cells = new ArrayList<>();
		int reused = 0;
		for (SuitePlan.Cell cell : group.cells()) {
			if (this.measured.contains(new Measured(group.measure(), cell))) {
				reused++;
			}
			else {
				cells.add(cell);
			}
		}
		this.console.printf("%n== %s (%s): %d benchmarks%s, %s%n", group.title(), group.name(), cells.size(),
				(reused > 0) ? " (" + reused + " more measured by an earlier group)" : "", it);
		this.results.settings.add(group.title() + " (" + group.name() + "): " + it + describe(group.measure())
				+ ((reused > 0) ? "; " + reused + " of its benchmarks are those of an earlier group of this run" : ""));
		Path log = this.out.resolve("jmh-" + group.name() + ".log");
		try (PrintStream logStream = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
			Progress progress = new Progress(OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL),
					this.console, cells.size());
			for (SuitePlan.Cell cell : cells) {
				// one JMH run per benchmark: the cells of a group need not be a cross
				// product, and each benchmark forks its own JVM anyway
				Collection<RunResult> runs = new Runner(
						options(group, cell, jvmArgs, this.java, this.profiler).shouldFailOnError(false).build(),
						progress)
					.run();
				boolean found = false;
				for (RunResult run : runs) {
					this.results.timings.add(MeasuredRuns.timing(group, cell, run));
					found = true;
				}
				if (found) {
					this.measured.add(new Measured(group.measure(), cell));
				}
				else {
					this.results.missing.add(new SuiteResults.Missing(group.name(), cell.toString(),
							"failed: see " + log.getFileName()));
				}
			}
		}
	}

	private static String describe(SuitePlan.Measure measure) {
		if (!measure.costs()) {
			return "";
		}
		return "; every batch timed (JMH sample time)" + ((measure.threads() > 1)
				? ", " + measure.threads() + (measure.virtualThreads() ? " virtual" : "") + " threads" : ", one thread")
				+ "; CPU per command (CpuCostProfiler) and allocation per command (JMH gc profiler); "
				+ Math.round(SuiteResults.Interval.CONFIDENCE * 100) + "% confidence intervals over the iterations "
				+ "of every fork";
	}

	/**
	 * The JMH options of one benchmark of a group.
	 * @param group the group
	 * @param cell the benchmark
	 * @param jvmArgs the arguments of the forked JVMs
	 * @param java the forked JVMs' {@code java}
	 * @param profiler one more JMH profiler, or {@code null}
	 * @return the options
	 */
	static ChainedOptionsBuilder options(SuitePlan.Group group, SuitePlan.Cell cell, List<String> jvmArgs, String java,
			@Nullable String profiler) {
		SuitePlan.Iterations it = group.iterations();
		SuitePlan.Measure measure = group.measure();
		ChainedOptionsBuilder options = new OptionsBuilder()
			.include(Pattern.quote(measure.benchmark().getName() + ".batch") + "$")
			.mode(measure.mode())
			.threads(measure.threads())
			.param("strategy", cell.strategy())
			.param("workload", cell.workload())
			.param("n", String.valueOf(cell.n()))
			.param("network", cell.network())
			.forks(it.forks())
			.warmupIterations(it.warmups())
			.warmupTime(TimeValue.milliseconds(it.warmupMillis()))
			.measurementIterations(it.measurements())
			.measurementTime(TimeValue.milliseconds(it.measurementMillis()))
			.timeout(TimeValue.minutes(5))
			.jvm(java)
			.jvmArgs(jvmArgs.toArray(String[]::new));
		if (measure.costs()) {
			options.addProfiler(CpuCostProfiler.class);
			options.addProfiler(GCProfiler.class);
		}
		if (measure.benchmark() == AutoBatchingBenchmark.class) {
			options.addProfiler(CommandsPerWriteProfiler.class);
		}
		// (each call of jvmArgsAppend replaces the last)
		List<String> appended = new ArrayList<>();
		if (measure.virtualThreads()) {
			appended.add("-Djmh.executor=VIRTUAL");
		}
		if (it.prewarmSeconds() > 0) {
			appended.add("-D" + Prewarm.SECONDS + "=" + it.prewarmSeconds());
		}
		if (!appended.isEmpty()) {
			options.jvmArgsAppend(appended.toArray(String[]::new));
		}
		if (profiler != null && !(measure.costs() && "gc".equals(profiler))) {
			options.addProfiler(profiler);
		}
		return options;
	}

	private void runPhysicalLimit(RedisProcess redis) {
		Path executable = RedisBenchmarkTool.locate(redis.binary().path());
		if (executable == null) {
			this.results.physicalNote = "redis-benchmark was not available on this machine (not next to redis-server "
					+ "nor on the PATH): the physical limit was not measured";
			this.console.println(this.results.physicalNote);
			return;
		}
		this.console.printf("%n== Physical limit: redis-benchmark -P 1000 -c 1%n");
		try (ServerControl server = new ServerControl(redis.port())) {
			server.flushAll();
			this.results.environment.put("redis-benchmark", RedisBenchmarkTool.version(executable));
			this.results.physical.addAll(RedisBenchmarkTool.run(executable, redis.port(),
					this.plan.redisBenchmarkRequests(), this.plan.redisBenchmarkKeySpace()));
			server.flushAll();
		}
		for (RedisBenchmarkTool.Result result : this.results.physical) {
			this.console.printf("  %-12s %,12.0f requests/s%n", result.test(), result.requestsPerSecond());
		}
	}

	private void publish(Path target) throws IOException {
		Files.createDirectories(target);
		try (var files = Files.list(this.out)) {
			for (Path file : files.toList()) {
				String name = file.getFileName().toString();
				if (name.endsWith(".md") || name.endsWith(".csv") || name.endsWith(".svg")) {
					Files.copy(file, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
		this.console.println("Published the report to " + target.toAbsolutePath());
	}

	/**
	 * A benchmark measured in this run, and how.
	 */
	private record Measured(SuitePlan.Measure measure, SuitePlan.Cell cell) {

	}

	static String format(Duration duration) {
		return String.format(Locale.ROOT, "%d min %02d s", duration.toMinutes(), duration.toSecondsPart());
	}

	/**
	 * Writes JMH's full output to the group's log file and a one-line summary per
	 * benchmark to the console.
	 */
	private static final class Progress implements OutputFormat {

		private final OutputFormat log;

		private final PrintStream console;

		private final int total;

		private int started;

		private long benchmarkStart;

		Progress(OutputFormat log, PrintStream console, int total) {
			this.log = log;
			this.console = console;
			this.total = total;
		}

		@Override
		public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
			this.log.iteration(benchParams, params, iteration);
		}

		@Override
		public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
				IterationResult data) {
			this.log.iterationResult(benchParams, params, iteration, data);
		}

		@Override
		public void startBenchmark(BenchmarkParams benchParams) {
			this.started++;
			this.benchmarkStart = System.nanoTime();
			this.console.printf("  [%d/%d] %-26s %-5s n=%-8s %-6s ", this.started, this.total,
					benchParams.getParam("strategy"), benchParams.getParam("workload"), benchParams.getParam("n"),
					benchParams.getParam("network"));
			this.console.flush();
			this.log.startBenchmark(benchParams);
		}

		@Override
		public void endBenchmark(BenchmarkResult result) {
			long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - this.benchmarkStart);
			if (result == null) {
				this.console.printf("FAILED (%d s)%n", seconds);
			}
			else {
				Result<?> primary = result.getPrimaryResult();
				this.console.printf("%10.3f ± %.3f ms/batch (%d s)%n", primary.getScore(), primary.getScoreError(),
						seconds);
			}
			this.log.endBenchmark(result);
		}

		@Override
		public void startRun() {
			this.log.startRun();
		}

		@Override
		public void endRun(Collection<RunResult> result) {
			this.log.endRun(result);
		}

		@Override
		public void print(String s) {
			this.log.print(s);
		}

		@Override
		public void println(String s) {
			if (s.contains("<failure>") || s.contains("Exception:")) {
				this.console.println();
				this.console.println("    " + s.lines().findFirst().orElse(s));
			}
			this.log.println(s);
		}

		@Override
		public void flush() {
			this.log.flush();
		}

		@Override
		public void close() {
			// JMH closes its output after each run; the group's log stays open for the
			// next benchmark, and the group closes it
			this.log.flush();
		}

		@Override
		public void verbosePrintln(String s) {
			this.log.verbosePrintln(s);
		}

		@Override
		public void write(int b) {
			this.log.write(b);
		}

		@Override
		public void write(byte[] b) throws IOException {
			this.log.write(b);
		}

	}

}
