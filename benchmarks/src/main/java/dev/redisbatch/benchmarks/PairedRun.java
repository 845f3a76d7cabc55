package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

import dev.redisbatch.benchmarks.SuiteResults.Interval;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.resource.Transports;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link PairedBenchmark} against a redis-server of its own (and a latency proxy for
 * the cells at a distance), and writes one table: per cell, the mean of each client's
 * time and CPU per batch and of the per-iteration ratio, with 95% intervals over every
 * measured iteration of every fork. {@code benchmarks/run.sh --profile paired} runs it;
 * {@code --sizes} and {@code --networks} pick the cells.
 */
final class PairedRun {

	private static final List<String> COUNTERS = List.of("ratio", "batchTemplateMicros", "jedisMicros",
			"batchTemplateCpuMicros", "jedisCpuMicros");

	private static final List<String> FLOOR_COUNTERS = List.of("floorCheckRatio", "floorRatio", "floorCheckMicros",
			"floorMicros", "floorCheckCpuMicros", "floorCpuMicros");

	/**
	 * The clients of the concurrent scenario in pairs, BatchTemplate first.
	 */
	private static final List<PairedClient> CONCURRENT_CLIENTS = List.of(
			new PairedClient("BatchTemplate, pool of 32", BatchLatencyProfiler.CLIENTS.get(0)),
			new PairedClient("Jedis pool of 32", BatchLatencyProfiler.CLIENTS.get(1)));

	private PairedRun() {
	}

	/**
	 * Run the cells and write {@code paired.md} into the output directory.
	 * @param args {@code [--out DIR] [--sizes 1,10,100,1000] [--networks direct,rtt1]
	 * [--far-sizes 100,1000] [--forks 3] [--floor] [--concurrent] [--prof NAME[:OPTIONS]]}:
	 * with {@code --far-sizes}, the cells at a distance take those sizes, and loopback
	 * takes {@code --sizes}; with {@code --floor}, two {@link FloorClient}s are measured
	 * in the same invocations, in a random order; with {@code --concurrent}, only the
	 * concurrent scenario is measured, in pairs ({@link PairedConcurrentBenchmark})
	 */
	static void run(String[] args) throws IOException, RunnerException {
		Path out = Path.of("target", "results");
		String sizes = "1,10,100,1000";
		String networks = "direct";
		String farSizes = null;
		int forks = 3;
		boolean floor = false;
		boolean concurrent = false;
		String profiler = null;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--out" -> out = Path.of(args[++i]);
				case "--sizes" -> sizes = args[++i];
				case "--networks" -> networks = args[++i];
				case "--far-sizes" -> farSizes = args[++i];
				case "--forks" -> forks = Integer.parseInt(args[++i]);
				case "--floor" -> floor = true;
				case "--concurrent" -> concurrent = true;
				case "--prof" -> profiler = args[++i];
				case "--profile" -> i++;
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		Files.createDirectories(out);
		StringBuilder table = new StringBuilder();
		String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
		long start = System.nanoTime();
		String redisVersion;
		try (RedisProcess redis = RedisProcess.start()) {
			redisVersion = "redis-server " + redis.binary().version();
			List<TcpProxy> proxies = new ArrayList<>();
			try {
				// the suite's heap: the options' arguments replace those of the
				// benchmark's @Fork
				List<String> jvmArgs = new ArrayList<>(BenchmarkEnvironment.HEAP);
				jvmArgs.addAll(
						List.of("-D" + BenchmarkEnvironment.PORT + "=" + redis.port(), "-D" + Prewarm.SECONDS + "=10"));
				List<String> far = new ArrayList<>();
				for (String network : networks.split(",")) {
					if (!network.equals("direct")) {
						TcpProxy proxy = Main.latencyProxy(redis.port(), network);
						proxies.add(proxy);
						far.add(network);
						jvmArgs.add("-D" + BenchmarkEnvironment.PROXY_PREFIX + network + "=" + proxy.port());
					}
				}
				List<RunResult> results = new ArrayList<>();
				if (concurrent) {
					results.addAll(runConcurrent(forks, jvmArgs, profiler));
					table.append(concurrentTable(results));
				}
				else {
					if (farSizes == null || List.of(networks.split(",")).contains("direct")) {
						List<String> near = (farSizes != null) ? List.of("direct") : List.of(networks.split(","));
						results.addAll(run(sizes, near, forks, floor, jvmArgs, profiler));
					}
					if (farSizes != null && !far.isEmpty()) {
						results.addAll(run(farSizes, far, forks, floor, jvmArgs, profiler));
					}
					table.append(table(results));
					if (floor) {
						table.append("\n").append(floorTable(results));
					}
				}
			}
			finally {
				proxies.forEach(TcpProxy::close);
			}
		}
		String report = "# BatchTemplate and Jedis, measured in pairs\n\n" + "Run " + started + " UTC, " + versions()
				+ ", " + redisVersion + "; " + String.join(" ", BenchmarkEnvironment.HEAP) + "; " + forks
				+ " forks per cell, a pre-warm of up to 10 s on loopback, "
				+ (concurrent ? "2 × 5 s warmup, 4 × 5 s measured" : "8 × 1 s warmup, 8 × 1 s measured") + "; took "
				+ Duration.ofNanos(System.nanoTime() - start).toSeconds()
				+ " s. Each invocation sends one batch with each client, in alternating order, in one JVM. "
				+ "The ratio is Jedis's time ÷ BatchTemplate's per iteration (above 1.00× BatchTemplate is faster); "
				+ "every interval is 95% (Student's t over the measured iterations of every fork). CPU is the "
				+ "calling thread's, per batch."
				+ (floor ? " The floor is one plain NIO socket and nothing else (FloorClient), measured in "
						+ "the same invocations, with the check on borrow BatchTemplate makes (one selectNow before "
						+ "the write) and without it; with the floors, the four clients go in a new random order "
						+ "in every invocation." : "")
				+ (concurrent ? " --concurrent: the concurrent scenario in pairs (PairedConcurrentBenchmark): "
						+ SuitePlan.CONCURRENT_THREADS + " threads, each repeating a batch of "
						+ SuitePlan.CONCURRENT_BATCH + " GETs of keys of its own with each client in turn "
						+ "(BatchTemplate on a pool of 32, a Jedis pool of 32), on loopback; the ratio is the sum of Jedis's batch times ÷ BatchTemplate's per "
						+ "iteration, which is the ratio of their throughputs at this concurrency; p50 and p99 are those of "
						+ "every batch of all threads in an iteration (BatchLatencyProfiler), averaged over the iterations."
						: "")
				+ "\n\n" + table;
		Files.writeString(out.resolve("paired.md"), report);
		System.out.println(report);
	}

	/**
	 * Run the cells of some sizes at some distances.
	 */
	private static Collection<RunResult> run(String sizes, List<String> networks, int forks, boolean floor,
			List<String> jvmArgs, @Nullable String profiler) throws RunnerException {
		ChainedOptionsBuilder options = new OptionsBuilder().include(PairedBenchmark.class.getName() + ".pair")
			.param("n", sizes.split(","))
			.param("workload", "GET", "SET")
			.param("network", networks.toArray(String[]::new))
			.param("floor", Boolean.toString(floor))
			.forks(forks)
			.warmupIterations(8)
			.warmupTime(TimeValue.seconds(1))
			.measurementIterations(8)
			.measurementTime(TimeValue.seconds(1))
			.jvmArgsAppend(jvmArgs.toArray(String[]::new));
		addProfiler(options, profiler);
		return new Runner(options.build()).run();
	}

	/**
	 * Run the concurrent scenario in pairs, on loopback.
	 */
	private static Collection<RunResult> runConcurrent(int forks, List<String> jvmArgs, @Nullable String profiler)
			throws RunnerException {
		ChainedOptionsBuilder options = new OptionsBuilder()
			.include(PairedConcurrentBenchmark.class.getName() + ".pair")
			.addProfiler(BatchLatencyProfiler.class)
			.forks(forks)
			.jvmArgsAppend(jvmArgs.toArray(String[]::new));
		addProfiler(options, profiler);
		return new Runner(options.build()).run();
	}

	/**
	 * Add one more JMH profiler, given as on JMH's command line: a name, then its options
	 * after a colon (for example
	 * {@code async:libPath=/path/libasyncProfiler.so;event=cpu;output=collapsed}).
	 */
	private static void addProfiler(ChainedOptionsBuilder options, @Nullable String profiler) {
		if (profiler == null) {
			return;
		}
		int colon = profiler.indexOf(':');
		if (colon < 0) {
			options.addProfiler(profiler);
		}
		else {
			options.addProfiler(profiler.substring(0, colon), profiler.substring(colon + 1));
		}
	}

	/**
	 * The concurrent scenario in pairs: per measured iteration, the ratio of the sums of
	 * the clients' batch times and the ratio of their p99s, each client's mean time per
	 * batch, its p50 and p99 (from {@link BatchLatencyProfiler}), the throughput it makes
	 * with its mean ({@value SuitePlan#CONCURRENT_THREADS} threads ÷ the mean), and its
	 * CPU per GET.
	 */
	static String concurrentTable(Collection<RunResult> results) {
		StringBuilder table = new StringBuilder("| client | Jedis ÷ BT [95%] | Jedis p99 ÷ BT p99 [95%] "
				+ "| ms per batch | p50 ms | p99 ms | batches/s (" + SuitePlan.CONCURRENT_THREADS
				+ " threads ÷ the mean) | client CPU ns per GET |\n" + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
		for (RunResult result : results) {
			List<Double> pairs = perIteration(result, "pairs");
			List<List<Double>> walls = CONCURRENT_CLIENTS.stream()
				.map((client) -> perIteration(result, client.wall()))
				.toList();
			List<List<Double>> p99s = CONCURRENT_CLIENTS.stream()
				.map((client) -> perIteration(result, client.percentile(99)))
				.toList();
			for (int c = 0; c < CONCURRENT_CLIENTS.size(); c++) {
				PairedClient client = CONCURRENT_CLIENTS.get(c);
				List<Double> cpu = perIteration(result, client.cpu());
				List<Double> millis = new ArrayList<>();
				List<Double> throughput = new ArrayList<>();
				List<Double> cpuPerGet = new ArrayList<>();
				for (int i = 0; i < pairs.size(); i++) {
					double perBatch = walls.get(c).get(i) / pairs.get(i);
					millis.add(perBatch / 1e6);
					throughput.add(SuitePlan.CONCURRENT_THREADS * 1e9 / perBatch);
					cpuPerGet.add(cpu.get(i) / pairs.get(i) / SuitePlan.CONCURRENT_BATCH);
				}
				table.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", client.label(),
						(c == 0) ? ratioOrDash(quotients(walls.get(1), walls.get(0))) : "",
						(c == 0) ? ratioOrDash(quotients(p99s.get(1), p99s.get(0))) : "", plusMinus(millis, "%.2f"),
						plusMinus(perIteration(result, client.percentile(50)), "%.2f"), plusMinus(p99s.get(c), "%.2f"),
						plusMinus(throughput, "%,.0f"), plusMinus(cpuPerGet, "%,.0f")));
			}
		}
		return table.toString();
	}

	/**
	 * Each value of {@code dividends} ÷ the value of {@code divisors} at the same index.
	 */
	private static List<Double> quotients(List<Double> dividends, List<Double> divisors) {
		List<Double> quotients = new ArrayList<>();
		for (int i = 0; i < Math.min(dividends.size(), divisors.size()); i++) {
			quotients.add(dividends.get(i) / divisors.get(i));
		}
		return quotients;
	}

	private static String ratioOrDash(List<Double> ratios) {
		return ratios.isEmpty() ? "–" : ratio(Interval.of(ratios));
	}

	/**
	 * The mean of the values ± the half width of its interval, each formatted with
	 * {@code number}, or a dash when there are none.
	 */
	private static String plusMinus(List<Double> values, String number) {
		return values.isEmpty() ? "–" : plusMinus(Interval.of(values), number);
	}

	private static String plusMinus(Interval interval, String number) {
		return String.format(Locale.ROOT, number + " ± " + number, interval.mean(), interval.halfWidth());
	}

	/**
	 * A client of the concurrent scenario in pairs: its name in the table and the prefix
	 * of its counters (wall and CPU nanoseconds, and its percentiles).
	 */
	private record PairedClient(String label, String counters) {

		String wall() {
			return this.counters + "Nanos";
		}

		String cpu() {
			return this.counters + "CpuNanos";
		}

		String percentile(int percentile) {
			return BatchLatencyProfiler.result(this.counters, percentile);
		}

	}

	/**
	 * The table of the cells: the mean of every counter over the measured iterations of
	 * every fork, with its interval.
	 */
	static String table(Collection<RunResult> results) {
		return rows(
				"| cell | Jedis ÷ BT [95%] | BT µs/batch | Jedis µs/batch | BT CPU µs/batch | Jedis CPU µs/batch |\n"
						+ "|---|---:|---:|---:|---:|---:|\n",
				results, COUNTERS, 1);
	}

	/**
	 * The floors of the cells: Jedis's time ÷ each floor's, and each floor's time and CPU
	 * per batch.
	 */
	static String floorTable(Collection<RunResult> results) {
		return rows("| cell | Jedis ÷ floor with check [95%] | Jedis ÷ floor [95%] | floor with check µs/batch "
				+ "| floor µs/batch | floor with check CPU µs/batch | floor CPU µs/batch |\n"
				+ "|---|---:|---:|---:|---:|---:|---:|\n", results, FLOOR_COUNTERS, 2);
	}

	/**
	 * A row per cell after the header: the cell, then each counter's mean with its
	 * interval, the first {@code ratios} as ratios and the others as microseconds.
	 */
	private static String rows(String header, Collection<RunResult> results, List<String> counters, int ratios) {
		StringBuilder table = new StringBuilder(header);
		for (RunResult result : results) {
			table.append(String.format(Locale.ROOT, "| %s %s, %s |", result.getParams().getParam("workload"),
					result.getParams().getParam("n"), result.getParams().getParam("network")));
			for (int i = 0; i < counters.size(); i++) {
				Interval interval = Interval.of(perIteration(result, counters.get(i)));
				table.append(' ').append((i < ratios) ? ratio(interval) : plusMinus(interval, "%.1f")).append(" |");
			}
			table.append(System.lineSeparator());
		}
		return table.toString();
	}

	private static String ratio(Interval interval) {
		return String.format(Locale.ROOT, "%.2f× [%.2f–%.2f]", interval.mean(), interval.lower(), interval.upper());
	}

	/**
	 * A counter's value in every measured iteration of every fork (JMH sums an event
	 * counter over the iterations; each iteration has its own).
	 */
	static List<Double> perIteration(RunResult result, String counter) {
		List<Double> values = new ArrayList<>();
		for (BenchmarkResult fork : result.getBenchmarkResults()) {
			for (IterationResult iteration : fork.getIterationResults()) {
				Result<?> value = iteration.getSecondaryResults().get(counter);
				if (value != null) {
					values.add(value.getScore());
				}
			}
		}
		return values;
	}

	private static String versions() {
		return String.join(", ",
				Versions.libraries()
					.entrySet()
					.stream()
					.filter((library) -> List.of("redis-batch", "Lettuce", "Jedis", "JMH").contains(library.getKey()))
					.map((library) -> library.getKey() + " " + library.getValue())
					.toList())
				+ ", Lettuce's pick of transport " + Transports.socketChannelClass().getSimpleName() + ", JDK "
				+ Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
	}

}
