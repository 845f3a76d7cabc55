package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Polite mode, measured: the latency of online traffic (single {@code GET}s from several
 * threads, each on a connection of its own, as a pooled application does) while a
 * backfill of {@code SET}s runs through {@code BatchTemplate}, first at full speed, then
 * capped at half the rate the full-speed run reached ({@code maxCommandsPerSecond}). A
 * warm-up (a tenth of the backfill, then the readers alone, neither recorded) and a run
 * of the readers alone, the baseline, come first.
 * <p>
 * Only the {@code GET}s issued while the backfill runs are counted. Percentiles come from
 * every latency recorded (no sampling, no histogram buckets). Part of the suite as the
 * group {@code polite}; {@link #main(String[])} runs it alone against a fresh server.
 *
 * @since 0.1.0
 */
public final class PoliteModeBenchmark {

	/**
	 * The plot's file name in the results directory.
	 */
	public static final String SVG = "polite-mode.svg";

	private static final int ONLINE_KEYS = 1_000;

	private final RedisURI uri;

	private final int backfill;

	private final int readers;

	private PoliteModeBenchmark(RedisURI uri, int backfill, int readers) {
		this.uri = uri;
		this.backfill = backfill;
		this.readers = readers;
	}

	/**
	 * Run it against a fresh server and write {@code polite-mode.md} and {@value #SVG}.
	 * @param args {@code [--out DIR] [--backfill N] [--readers N]}
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		Path out = Path.of("target", "results");
		int backfill = 1_000_000;
		int readers = 8;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--out" -> out = Path.of(args[++i]);
				case "--backfill" -> backfill = Integer.parseInt(args[++i]);
				case "--readers" -> readers = Integer.parseInt(args[++i]);
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		try (RedisProcess redis = RedisProcess.start()) {
			Result result = run(redis.port(), backfill, readers);
			Files.createDirectories(out);
			Files.writeString(out.resolve("polite-mode.md"), result.markdown(), StandardCharsets.UTF_8);
			Files.writeString(out.resolve(SVG), result.chart(), StandardCharsets.UTF_8);
			System.out.println(result.markdown());
		}
		System.exit(0);
	}

	/**
	 * Measure the three runs against a server.
	 * @param port the server's port on loopback
	 * @param backfill the SETs of each backfill
	 * @param readers the threads that issue single GETs
	 * @return what was measured
	 * @throws InterruptedException if interrupted
	 */
	public static Result run(int port, int backfill, int readers) throws InterruptedException {
		return new PoliteModeBenchmark(RedisURI.create("redis://127.0.0.1:" + port), backfill, readers).measure();
	}

	private Result measure() throws InterruptedException {
		RedisClient client = RedisClient.create();
		List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
		try (BatchConnectionPool pool = BatchConnectionPool.builder(this.uri).build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			for (int i = 0; i < this.readers; i++) {
				connections.add(client.connect(this.uri));
			}
			RedisCommands<String, String> admin = connections.get(0).sync();
			admin.flushall();
			template.execute((batch) -> {
				for (int i = 0; i < ONLINE_KEYS; i++) {
					batch.set("online:" + i, "value-" + i);
				}
			});
			Duration idle = Duration.ofSeconds(Math.max(1, this.backfill / 300_000));
			// warm-up, not recorded: the readers and a tenth of the backfill, compiled
			readDuring(connections, template, "warm-up", BatchOptions.NO_RATE_CAP, this.backfill / 10);
			readAlone(connections, idle);
			List<Scenario> scenarios = new ArrayList<>();
			scenarios.add(readAlone(connections, idle));
			Scenario full = readDuring(connections, template, "backfill at full speed", BatchOptions.NO_RATE_CAP,
					this.backfill);
			scenarios.add(full);
			long cap = Math.max(1, Math.round(full.backfillRate() / 2));
			scenarios.add(readDuring(connections, template, "backfill capped at 50%", cap, this.backfill));
			admin.flushall();
			return new Result(this.backfill, this.readers, scenarios);
		}
		finally {
			connections.forEach(StatefulRedisConnection::close);
			client.shutdown();
		}
	}

	private Scenario readAlone(List<StatefulRedisConnection<String, String>> connections, Duration duration)
			throws InterruptedException {
		Readers readers = new Readers(connections);
		readers.start();
		readers.recording.set(true);
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
		readers.recording.set(false);
		return readers.stop("no backfill (baseline)", 0, 0, 0);
	}

	private Scenario readDuring(List<StatefulRedisConnection<String, String>> connections, StringBatchTemplate template,
			String name, long cap, int sets) throws InterruptedException {
		Readers readers = new Readers(connections);
		readers.start();
		BatchOptions options = BatchOptions.builder().name("backfill").maxCommandsPerSecond(cap).build();
		long start = System.nanoTime();
		readers.recording.set(true);
		BatchResults results = template.execute(options, (batch) -> {
			for (int i = 0; i < sets; i++) {
				batch.set("backfill:" + i, "value-" + i);
			}
		});
		readers.recording.set(false);
		long nanos = System.nanoTime() - start;
		if (!results.isSuccess()) {
			throw new IllegalStateException("The backfill did not succeed: " + results.summary());
		}
		return readers.stop(name, cap, sets / (nanos / 1e9), nanos / 1_000_000);
	}

	/**
	 * The reader threads: each issues single GETs on its own connection, one after the
	 * other, and records each latency while recording is on.
	 */
	private static final class Readers {

		private final List<StatefulRedisConnection<String, String>> connections;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicBoolean recording = new AtomicBoolean();

		private final List<Thread> threads = new ArrayList<>();

		private final long[][] latencies;

		private final int[] counts;

		private final CountDownLatch started;

		Readers(List<StatefulRedisConnection<String, String>> connections) {
			this.connections = connections;
			this.latencies = new long[connections.size()][];
			this.counts = new int[connections.size()];
			this.started = new CountDownLatch(connections.size());
		}

		void start() throws InterruptedException {
			for (int t = 0; t < this.connections.size(); t++) {
				int reader = t;
				RedisCommands<String, String> commands = this.connections.get(t).sync();
				Thread thread = new Thread(() -> read(reader, commands), "online-reader-" + t);
				this.threads.add(thread);
				thread.start();
			}
			this.started.await();
		}

		private void read(int reader, RedisCommands<String, String> commands) {
			long[] recorded = new long[1 << 16];
			int count = 0;
			int key = reader;
			this.started.countDown();
			while (this.running.get()) {
				long start = System.nanoTime();
				commands.get("online:" + (key++ % ONLINE_KEYS));
				long latency = System.nanoTime() - start;
				if (this.recording.get()) {
					if (count == recorded.length) {
						recorded = Arrays.copyOf(recorded, count * 2);
					}
					recorded[count++] = latency;
				}
			}
			this.latencies[reader] = recorded;
			this.counts[reader] = count;
		}

		Scenario stop(String name, long cap, double backfillRate, long backfillMillis) throws InterruptedException {
			this.running.set(false);
			for (Thread thread : this.threads) {
				thread.join();
			}
			int total = Arrays.stream(this.counts).sum();
			long[] all = new long[total];
			int at = 0;
			for (int t = 0; t < this.latencies.length; t++) {
				System.arraycopy(this.latencies[t], 0, all, at, this.counts[t]);
				at += this.counts[t];
			}
			Arrays.sort(all);
			return new Scenario(name, cap, backfillRate, backfillMillis, total, micros(all, 0.50), micros(all, 0.99),
					micros(all, 0.999), (total > 0) ? all[total - 1] / 1000.0 : Double.NaN);
		}

		private static double micros(long[] sorted, double quantile) {
			if (sorted.length == 0) {
				return Double.NaN;
			}
			int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
			return sorted[Math.max(0, index)] / 1000.0;
		}

	}

	/**
	 * One run.
	 *
	 * @param name what ran beside the readers
	 * @param cap the backfill's cap in commands per second, 0 for none
	 * @param backfillRate the backfill's commands per second
	 * @param backfillMillis how long the backfill took
	 * @param gets the GETs recorded
	 * @param p50 the median GET latency, in microseconds
	 * @param p99 the 99th percentile
	 * @param p999 the 99.9th percentile
	 * @param max the slowest GET
	 */
	public record Scenario(String name, long cap, double backfillRate, long backfillMillis, int gets, double p50,
			double p99, double p999, double max) {

	}

	/**
	 * What one run of the benchmark measured.
	 *
	 * @param backfill the SETs of each backfill
	 * @param readers the reader threads
	 * @param scenarios the runs: baseline, full speed, capped
	 */
	public record Result(int backfill, int readers, List<Scenario> scenarios) {

		/**
		 * The report section.
		 * @return Markdown
		 */
		public String markdown() {
			StringBuilder md = new StringBuilder("## Polite mode: online GET latency during a backfill\n\n");
			md.append(String
				.format(Locale.ROOT, "%d threads issue single GETs, each on a Lettuce connection of its own, while one "
						+ "`BatchTemplate.execute` writes %,d SETs (chunks of 1,000, the default window): at full "
						+ "speed, then with `maxCommandsPerSecond` at half the rate the full-speed run reached. Only "
						+ "the GETs issued while the backfill ran are counted; latencies in microseconds.%n%n",
						this.readers, this.backfill));
			md.append(
					"| run | backfill cap (commands/s) | backfill rate (commands/s) | backfill time | GETs | p50 | p99 "
							+ "| p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
			for (Scenario s : this.scenarios) {
				md.append(
						String.format(Locale.ROOT, "| %s | %s | %s | %s | %,d | %.0f | %.0f | %.0f | %.0f |%n",
								s.name(), (s.cap() > 0) ? String.format(Locale.ROOT, "%,d", s.cap()) : "none",
								(s.backfillRate() > 0) ? String.format(Locale.ROOT, "%,.0f", s.backfillRate()) : "-",
								(s.backfillMillis() > 0)
										? String.format(Locale.ROOT, "%.1f s", s.backfillMillis() / 1000.0) : "-",
								s.gets(), s.p50(), s.p99(), s.p999(), s.max()));
			}
			md.append("\n![GET latency during a backfill](").append(SVG).append(")\n\n");
			return md.toString();
		}

		/**
		 * The plot: p99 and p99.9 of each run.
		 * @return SVG
		 */
		public String chart() {
			List<String> names = this.scenarios.stream().map(Scenario::name).toList();
			return Charts.bars(
					"GET latency during a " + String.format(Locale.ROOT, "%,d", this.backfill) + "-SET backfill ("
							+ this.readers + " threads)",
					"microseconds", names,
					List.of(new Charts.Series("p99", this.scenarios.stream().map(Scenario::p99).toList()),
							new Charts.Series("p99.9", this.scenarios.stream().map(Scenario::p999).toList())));
		}

	}

}
