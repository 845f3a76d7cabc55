package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.RespConnection;

/**
 * What the exactly-once mode's markers hold in the server: not JMH, it runs in the
 * runner's JVM against the run's {@code redis-server}. For a chunk of {@code n}
 * {@code INCR}s or {@code SET}s (the cell's workload and N):
 * <ul>
 * <li>the marker a lost chunk leaves: the mode's own script is sent as one {@code EVAL}
 * of {@code n} commands, as the batch frames a chunk, and the marker it writes is
 * measured with {@code MEMORY USAGE} (the reply text, {@code STRLEN}, and Redis's
 * overhead);</li>
 * <li>while a batch of {@value #BATCH} commands runs with {@code chunkSize(n)}, once
 * exactly-once and once plain: the most markers present at once and the most memory above
 * the batch's start ({@code used_memory}, which also counts the query buffer of the chunk
 * being read), sampled by a thread of its own over {@code DBSIZE} and
 * {@code INFO memory}; and the markers left a second after the batch returned (counted
 * with {@code SCAN}).</li>
 * </ul>
 * {@code SET}s overwrite keys that exist, with 16-byte keys and 64-byte values and a TTL,
 * as the other suites; {@code INCR}s go to 1,000 counters that exist. So the keys the
 * server holds beyond those are markers.
 */
final class ExactlyOnceMarkers {

	/**
	 * The commands of the batch whose markers are sampled.
	 */
	static final int BATCH = 100_000;

	private static final int COUNTERS = 1_000;

	/**
	 * How long after the batch returned the markers left are counted.
	 */
	private static final Duration LEFT_AFTER = Duration.ofSeconds(1);

	private static final String MARKER = "redis-batch:eo:measuredMarker0123456789a";

	private ExactlyOnceMarkers() {
	}

	static List<Row> run(int port, Cell cell) throws Exception {
		boolean incr = "INCR".equals(cell.workload());
		if (!incr && !"SET".equals(cell.workload())) {
			throw new IllegalArgumentException("INCR or SET, not " + cell.workload());
		}
		Workload data = Workload.create(incr ? COUNTERS : BATCH, BatchBenchmark.SEED);
		List<Row> rows = new ArrayList<>();
		BatchTemplateStrategy strategy = BatchTemplateStrategy.pooled(new Endpoint(port, 0), (pool) -> pool);
		try (RespConnection redis = RespConnection.open(port, Duration.ofSeconds(30))) {
			prepare(redis, strategy, data, incr);
			// one lost chunk's marker: the script, as the batch frames a chunk of n
			// commands
			List<String> eval = new ArrayList<>(List.of("EVAL", script(), "1", MARKER, "300", "0"));
			for (int i = 0; i < cell.n(); i++) {
				String key = data.keys()[i % data.size()];
				if (incr) {
					eval.addAll(List.of("2", "INCR", key));
				}
				else {
					eval.addAll(
							List.of("5", "SET", key, data.values()[i], "EX", String.valueOf(Workload.TTL.toSeconds())));
				}
			}
			redis.call(eval.toArray(String[]::new));
			long bytes = (Long) redis.call("MEMORY", "USAGE", MARKER, "SAMPLES", "0");
			long text = (Long) redis.call("STRLEN", MARKER);
			redis.call("DEL", MARKER);
			rows.add(Row.of(Suite.MARKERS, cell, Metric.MARKER_BYTES, bytes));
			rows.add(Row.of(Suite.MARKERS, cell, Metric.MARKER_TEXT_BYTES, text));
			rows.add(Row.of(Suite.MARKERS, cell, Metric.MARKER_BYTES_PER_COMMAND, (double) bytes / cell.n()));
			// a batch each way, sampled
			for (boolean once : new boolean[] { true, false }) {
				prepare(redis, strategy, data, incr);
				long[] held = batch(port, redis, strategy.template(), data, incr,
						BatchOptions.builder().chunkSize(cell.n()).exactlyOnce(once).build());
				if (once) {
					rows.add(Row.of(Suite.MARKERS, cell, Metric.PEAK_MARKERS, held[0]));
					rows.add(Row.of(Suite.MARKERS, cell, Metric.MARKERS_LEFT, held[2]));
					rows.add(Row.of(Suite.MARKERS, cell, Metric.PEAK_MEMORY_KB, held[1] / 1024.0));
				}
				else {
					rows.add(Row.of(Suite.MARKERS, cell, Metric.PLAIN_PEAK_MEMORY_KB, held[1] / 1024.0));
				}
			}
			redis.call("FLUSHALL");
		}
		finally {
			strategy.close();
		}
		return rows;
	}

	/**
	 * Empty the server and write the keys the batch overwrites or increments.
	 */
	private static void prepare(RespConnection redis, BatchTemplateStrategy strategy, Workload data, boolean incr) {
		redis.call("FLUSHALL");
		if (incr) {
			strategy.template().execute((batch) -> {
				for (String key : data.keys()) {
					batch.set(key, "0");
				}
			});
		}
		else {
			strategy.set(data);
		}
	}

	/**
	 * Run one batch while a thread samples the server.
	 * @return the most markers at once, the most bytes above the start, and the markers
	 * left after
	 */
	private static long[] batch(int port, RespConnection redis, StringBatchTemplate template, Workload data,
			boolean incr, BatchOptions options) throws InterruptedException {
		long keys = (Long) redis.call("DBSIZE");
		long memory = usedMemory(redis);
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong peakKeys = new AtomicLong(keys);
		AtomicLong peakMemory = new AtomicLong(memory);
		Thread sampler = new Thread(() -> {
			try (RespConnection sampling = RespConnection.open(port, Duration.ofSeconds(30))) {
				while (running.get()) {
					peakKeys.accumulateAndGet((Long) sampling.call("DBSIZE"), Math::max);
					peakMemory.accumulateAndGet(usedMemory(sampling), Math::max);
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}, "marker-sampler");
		sampler.start();
		BatchResults results;
		try {
			results = template.execute(options, (batch) -> {
				for (int i = 0; i < BATCH; i++) {
					if (incr) {
						batch.incr(data.keys()[i % data.size()]);
					}
					else {
						batch.set(data.keys()[i], data.values()[i], Workload.TTL);
					}
				}
			});
		}
		finally {
			running.set(false);
			sampler.join();
		}
		if (!results.isSuccess()) {
			throw new IllegalStateException(results.summary());
		}
		// the batch's last markers go in an UNLINK whose reply it does not await
		Thread.sleep(LEFT_AFTER.toMillis());
		long left = markers(redis);
		return new long[] { peakKeys.get() - keys, peakMemory.get() - memory, left };
	}

	/**
	 * The markers in the server, counted with {@code SCAN}.
	 */
	private static long markers(RespConnection redis) {
		long count = 0;
		String cursor = "0";
		do {
			List<?> page = (List<?>) redis.call("SCAN", cursor, "MATCH", "redis-batch:eo:*", "COUNT", "10000");
			cursor = (String) page.get(0);
			count += ((List<?>) page.get(1)).size();
		}
		while (!"0".equals(cursor));
		return count;
	}

	private static long usedMemory(RespConnection redis) {
		String info = (String) redis.call("INFO", "memory");
		for (String line : info.split("\r\n")) {
			if (line.startsWith("used_memory:")) {
				return Long.parseLong(line.substring("used_memory:".length()).trim());
			}
		}
		throw new IllegalStateException("INFO memory has no used_memory");
	}

	/**
	 * The exactly-once mode's script, as the library sends it (package-private there).
	 */
	private static String script() throws ReflectiveOperationException {
		Field field = Class.forName("dev.redisbatch.ExactlyOnce").getDeclaredField("SCRIPT");
		field.setAccessible(true);
		return (String) field.get(null);
	}

}
