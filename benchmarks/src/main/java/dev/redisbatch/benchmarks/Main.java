package dev.redisbatch.benchmarks;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The runner: starts one {@code redis-server} (and the latency proxies a profile needs),
 * runs every cell of a {@link Profiles profile} in forked JVMs, and writes
 * {@code <profile>.csv} (every number), {@code <profile>.md} (the report) and, with the
 * paired suite, its charts. JMH's own output goes to {@code jmh-<profile>.log}.
 * <p>
 * Usage:
 * {@code Main --profile NAME [--quick] [--jvm PATH] [--prof PROFILER] [--out DIR]}, or
 * {@code Main --charts FILE.csv} to draw the charts of a CSV next to it. With
 * {@code --quick}, every JMH cell runs one fork of three short iterations and no
 * pre-warm: it proves a profile's chain and measures nothing.
 *
 * @since 0.1.0
 */
public final class Main {

	private static final Profiles.Iterations QUICK = new Profiles.Iterations(1, 1, 100, 3, 100, 0);

	private final Path out;

	private final String java;

	private final @Nullable String profiler;

	private final PrintStream console = System.out;

	private Main(Path out, String java, @Nullable String profiler) {
		this.out = out;
		this.java = java;
		this.profiler = profiler;
	}

	/**
	 * Run a profile, or draw the charts of a CSV.
	 * @param args see the class description
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		Path out = Path.of("target", "results");
		String profile = null;
		boolean quick = false;
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String profiler = null;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--profile" -> profile = args[++i];
				case "--quick" -> quick = true;
				case "--jvm" -> java = args[++i];
				case "--prof" -> profiler = args[++i];
				case "--out" -> out = Path.of(args[++i]);
				case "--charts" -> {
					Path csv = Path.of(args[++i]).toAbsolutePath();
					Report.charts(Row.read(csv), csv.getParent());
					return;
				}
				default -> throw new IllegalArgumentException(
						"Unknown argument " + args[i] + "; usage: --profile " + String.join("|", Profiles.NAMES)
								+ " [--quick] [--jvm PATH] [--prof PROFILER] [--out DIR]" + ", or --charts FILE.csv");
			}
		}
		if (profile == null) {
			throw new IllegalArgumentException("--profile " + String.join("|", Profiles.NAMES) + " is required");
		}
		new Main(out, java, profiler).run(profile, quick);
		// the JVM keeps non-daemon threads of the clients of the polite-mode run
		System.exit(0);
	}

	private void run(String profile, boolean quick) throws Exception {
		Files.createDirectories(this.out);
		Files.deleteIfExists(this.out.resolve("jmh-" + profile + ".log"));
		List<Profiles.Step> steps = Profiles.of(profile, featureVersion(this.java) >= 21);
		Map<String, String> header = environment(profile, quick);
		long start = System.nanoTime();
		List<Row> rows = new ArrayList<>();
		List<String> missing = new ArrayList<>();
		try (RedisProcess redis = RedisProcess.start()) {
			header.put("redis-server", redis.binary().version());
			List<TcpProxy> proxies = new ArrayList<>();
			try {
				List<String> jvmArgs = new ArrayList<>(List.of("-D" + BenchmarkEnvironment.PORT + "=" + redis.port()));
				for (String network : networks(steps)) {
					TcpProxy proxy = TcpProxy.start(redis.port())
						.trackOutstandingRequests(false)
						.roundTrip(Duration.ofMillis(BenchmarkEnvironment.rttMillis(network)));
					proxies.add(proxy);
					jvmArgs.add("-D" + BenchmarkEnvironment.PROXY_PREFIX + network + "=" + proxy.port());
				}
				int total = steps.stream().mapToInt((step) -> step.cells().size()).sum();
				int done = 0;
				for (Profiles.Step step : steps) {
					Profiles.Iterations iterations = (quick && step.iterations().measurements() > 1) ? QUICK
							: step.iterations();
					for (Cell cell : step.cells()) {
						long cellStart = System.nanoTime();
						this.console.printf("[%d/%d] %-12s %-45s ", ++done, total, step.suite().id(), cell);
						List<Row> measured = switch (step.suite()) {
							case POLITE -> PoliteModeBenchmark.run(redis.port(), cell);
							case MARKERS -> ExactlyOnceMarkers.run(redis.port(), cell);
							default ->
								step.suite().rows(cell, measure(step.suite(), cell, iterations, jvmArgs, profile));
						};
						rows.addAll(measured);
						if (measured.isEmpty()) {
							missing.add(step.suite().id() + " " + cell);
						}
						this.console.printf("%s (%d s)%n",
								measured.isEmpty() ? "FAILED, see jmh-" + profile + ".log"
										: measured.get(0).metric().heading() + " "
												+ measured.get(0).metric().format(measured.get(0)),
								Duration.ofNanos(System.nanoTime() - cellStart).toSeconds());
					}
				}
			}
			finally {
				proxies.forEach(TcpProxy::close);
			}
		}
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		header.put("took", took.toMinutes() + " min " + took.toSecondsPart() + " s");
		if (!missing.isEmpty()) {
			header.put("no result (see the JMH log)", String.join("; ", missing));
		}
		Row.write(rows, this.out.resolve(profile + ".csv"));
		Report.write(rows, this.out, profile, header);
		this.console.printf("Done in %s: %s%n", header.get("took"), this.out.resolve(profile + ".md").toAbsolutePath());
	}

	/**
	 * Run one cell in JMH.
	 * @return its result, or {@code null} when it failed
	 */
	private @Nullable RunResult measure(Suite suite, Cell cell, Profiles.Iterations iterations, List<String> jvmArgs,
			String profile) throws Exception {
		List<String> forkArgs = new ArrayList<>(suite.jvmArgs());
		forkArgs.addAll(jvmArgs);
		forkArgs.add("-D" + Prewarm.SECONDS + "=" + iterations.prewarmSeconds());
		if (cell.virtual()) {
			forkArgs.add("-Djmh.executor=VIRTUAL");
		}
		ChainedOptionsBuilder options = options(suite, cell, iterations).jvm(this.java)
			.jvmArgs(forkArgs.toArray(String[]::new))
			.shouldFailOnError(false);
		if (this.profiler != null) {
			int colon = this.profiler.indexOf(':');
			if (colon < 0) {
				options.addProfiler(this.profiler);
			}
			else {
				options.addProfiler(this.profiler.substring(0, colon), this.profiler.substring(colon + 1));
			}
		}
		Path log = this.out.resolve("jmh-" + profile + ".log");
		PrintStream logStream = new PrintStream(new FileOutputStream(log.toFile(), true), true, StandardCharsets.UTF_8);
		Collection<RunResult> results = new Runner(options.build(),
				OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL))
			.run();
		return results.isEmpty() ? null : results.iterator().next();
	}

	/**
	 * The JMH options of one cell, without the JVM of its forks.
	 * @param suite the suite
	 * @param cell the cell
	 * @param iterations the settings
	 * @return the options
	 */
	static ChainedOptionsBuilder options(Suite suite, Cell cell, Profiles.Iterations iterations) {
		Class<?> benchmark = Objects.requireNonNull(suite.benchmark());
		ChainedOptionsBuilder options = new OptionsBuilder().include(Pattern.quote(benchmark.getName() + ".") + "\\w+$")
			.threads(cell.threads())
			.forks(iterations.forks())
			.warmupIterations(iterations.warmups())
			.warmupTime(TimeValue.milliseconds(iterations.warmupMillis()))
			.measurementIterations(iterations.measurements())
			.measurementTime(TimeValue.milliseconds(iterations.measurementMillis()))
			.timeout(TimeValue.minutes(5));
		Map<String, String> params = Map.of("strategy", cell.strategy(), "workload", cell.workload(), "n",
				String.valueOf(cell.n()), "network", cell.network());
		for (Field field : benchmark.getFields()) {
			if (field.isAnnotationPresent(Param.class)) {
				options.param(field.getName(), params.get(field.getName()));
			}
		}
		suite.profilers().forEach(options::addProfiler);
		return options;
	}

	private static Set<String> networks(List<Profiles.Step> steps) {
		Set<String> networks = new LinkedHashSet<>();
		steps.forEach((step) -> step.cells()
			.stream()
			.filter((cell) -> cell.rttMillis() > 0)
			.forEach((cell) -> networks.add(cell.network())));
		return networks;
	}

	private Map<String, String> environment(String profile, boolean quick) throws IOException {
		Map<String, String> header = new LinkedHashMap<>();
		header.put("command", "benchmarks/run.sh --profile " + profile + (quick ? " --quick" : ""));
		header.put("date",
				ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")) + " UTC");
		header.put("machine", cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
				+ System.getProperty("os.name") + " " + System.getProperty("os.version"));
		header.put("JDK", Runtime.version() + " (runner); forks: " + this.java);
		Versions.libraries().forEach(header::put);
		return header;
	}

	private static String cpuModel() throws IOException {
		Path cpuinfo = Path.of("/proc/cpuinfo");
		if (Files.isReadable(cpuinfo)) {
			for (String line : Files.readAllLines(cpuinfo)) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).trim();
				}
			}
		}
		return System.getProperty("os.arch");
	}

	/**
	 * The feature version of a {@code java} executable ({@code 17}, {@code 25}).
	 */
	private static int featureVersion(String java) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor();
		Matcher version = Pattern.compile("version \"(\\d+)").matcher(output);
		return version.find() ? Integer.parseInt(version.group(1)) : 0;
	}

}
