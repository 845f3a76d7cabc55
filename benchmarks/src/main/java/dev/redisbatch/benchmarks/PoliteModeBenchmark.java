package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;
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
 * Only the {@code GET}s issued while the backfill runs are counted, every one of them (no
 * sampling). It runs in the runner's JVM, against the run's server.
 */
final class PoliteModeBenchmark {

	private static final int ONLINE_KEYS = 1_000;

	private final StringBatchTemplate template;

	private final List<StatefulRedisConnection<String, String>> connections;

	private final Cell cell;

	private PoliteModeBenchmark(StringBatchTemplate template, List<StatefulRedisConnection<String, String>> connections,
			Cell cell) {
		this.template = template;
		this.connections = connections;
		this.cell = cell;
	}

	/**
	 * Measure the baseline and the two backfills.
	 * @param port the server's port on loopback
	 * @param cell {@code n}: the SETs of each backfill; {@code threads}: the readers
	 * @return the numbers of each run
	 * @throws InterruptedException if interrupted
	 */
	static List<Row> run(int port, Cell cell) throws InterruptedException {
		Endpoint endpoint = new Endpoint(port, 0);
		RedisClient client = RedisClient.create(RedisURI.create(endpoint.uri()));
		List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
		try (BatchTemplateStrategy backfill = BatchTemplateStrategy.pooled(endpoint, UnaryOperator.identity());
				Server server = new Server(port)) {
			for (int i = 0; i < cell.threads(); i++) {
				connections.add(client.connect());
			}
			server.reset(null);
			return new PoliteModeBenchmark(backfill.template(), connections, cell).measure(server);
		}
		finally {
			connections.forEach(StatefulRedisConnection::close);
			client.shutdown();
		}
	}

	private List<Row> measure(Server server) throws InterruptedException {
		this.template.execute((batch) -> {
			for (int i = 0; i < ONLINE_KEYS; i++) {
				batch.set("online:" + i, "value-" + i);
			}
		});
		Duration idle = Duration.ofSeconds(Math.max(1, this.cell.n() / 300_000));
		// warm-up, not recorded: the readers and a tenth of the backfill, compiled
		readDuring("warm-up", BatchOptions.NO_RATE_CAP, this.cell.n() / 10);
		readAlone(idle);
		List<Row> rows = new ArrayList<>(readAlone(idle));
		List<Row> full = readDuring("backfill at full speed", BatchOptions.NO_RATE_CAP, this.cell.n());
		rows.addAll(full);
		long cap = Math.max(1, Math
			.round(full.stream().filter((row) -> row.metric() == Metric.BACKFILL_PER_S).findFirst().orElseThrow().mean()
					/ 2));
		rows.addAll(readDuring("backfill capped at 50%", cap, this.cell.n()));
		server.reset(null);
		return rows;
	}

	private List<Row> readAlone(Duration duration) throws InterruptedException {
		Readers readers = new Readers(this.connections);
		readers.recording.set(true);
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
		readers.recording.set(false);
		return readers.stop(scenario("no backfill"));
	}

	private List<Row> readDuring(String name, long cap, int sets) throws InterruptedException {
		Readers readers = new Readers(this.connections);
		BatchOptions options = BatchOptions.builder().name("backfill").maxCommandsPerSecond(cap).build();
		long start = System.nanoTime();
		readers.recording.set(true);
		BatchResults results = this.template.execute(options, (batch) -> {
			for (int i = 0; i < sets; i++) {
				batch.set("backfill:" + i, "value-" + i);
			}
		});
		readers.recording.set(false);
		double seconds = (System.nanoTime() - start) / 1e9;
		if (!results.isSuccess()) {
			throw new IllegalStateException("The backfill did not succeed: " + results.summary());
		}
		Cell scenario = scenario(name);
		List<Row> rows = new ArrayList<>(readers.stop(scenario));
		rows.add(Row.of(Suite.POLITE, scenario, Metric.BACKFILL_PER_S, sets / seconds));
		rows.add(Row.of(Suite.POLITE, scenario, Metric.SECONDS, seconds));
		if (cap != BatchOptions.NO_RATE_CAP) {
			rows.add(Row.of(Suite.POLITE, scenario, Metric.CAP_PER_S, cap));
		}
		return rows;
	}

	private Cell scenario(String name) {
		return new Cell(this.cell.strategy(), name, this.cell.n(), this.cell.network(), this.cell.threads(), false);
	}

	/**
	 * The reader threads: each issues single GETs on its own connection, one after the
	 * other, and records each latency while recording is on.
	 */
	private static final class Readers {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicBoolean recording = new AtomicBoolean();

		private final List<Thread> threads = new ArrayList<>();

		private final long[][] latencies;

		private final int[] counts;

		Readers(List<StatefulRedisConnection<String, String>> connections) throws InterruptedException {
			this.latencies = new long[connections.size()][];
			this.counts = new int[connections.size()];
			CountDownLatch started = new CountDownLatch(connections.size());
			for (int t = 0; t < connections.size(); t++) {
				int reader = t;
				RedisCommands<String, String> commands = connections.get(t).sync();
				Thread thread = new Thread(() -> {
					started.countDown();
					read(reader, commands);
				}, "online-reader-" + t);
				this.threads.add(thread);
				thread.start();
			}
			started.await();
		}

		private void read(int reader, RedisCommands<String, String> commands) {
			long[] recorded = new long[1 << 16];
			int count = 0;
			for (int key = reader; this.running.get(); key++) {
				long start = System.nanoTime();
				commands.get("online:" + (key % ONLINE_KEYS));
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

		List<Row> stop(Cell scenario) throws InterruptedException {
			this.running.set(false);
			for (Thread thread : this.threads) {
				thread.join();
			}
			long[] all = new long[Arrays.stream(this.counts).sum()];
			int at = 0;
			for (int t = 0; t < this.latencies.length; t++) {
				System.arraycopy(this.latencies[t], 0, all, at, this.counts[t]);
				at += this.counts[t];
			}
			Arrays.sort(all);
			return List.of(Row.of(Suite.POLITE, scenario, Metric.GETS, all.length),
					Row.of(Suite.POLITE, scenario, Metric.P50_MS, millis(all, 0.50)),
					Row.of(Suite.POLITE, scenario, Metric.P99_MS, millis(all, 0.99)),
					Row.of(Suite.POLITE, scenario, Metric.P999_MS, millis(all, 0.999)),
					Row.of(Suite.POLITE, scenario, Metric.MAX_MS, millis(all, 1)));
		}

		private static double millis(long[] sorted, double quantile) {
			if (sorted.length == 0) {
				return Double.NaN;
			}
			int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
			return sorted[Math.max(0, index)] / 1e6;
		}

	}

}
