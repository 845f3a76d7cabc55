package dev.redisbatch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * The runs of the suite that are not timings, each in a JVM of its own that the suite's
 * {@link Main} starts. Each prints one {@code RESULT key=value ...} line.
 * <ul>
 * <li>{@code memory <strategy> <port> <commands>}: one batch of that many SETs with a
 * TTL, with keys generated on the fly (random, from a space of one million). Run with
 * {@code -Xmx128m} (and {@code -Xmx256m}). Reports the peak heap used, the peak heap live
 * after a collection, and checks on the server ({@code INFO commandstats}) that every SET
 * ran. A JVM that runs out of memory exits (with {@code -XX:+ExitOnOutOfMemoryError})
 * after printing {@code PROGRESS} lines that say how far it got.</li>
 * <li>{@code connections <strategy> <port> <batches> <batchSize>}: after ten warm-up
 * batches, the number of TCP connections the server accepted
 * ({@code total_connections_received}) during that many batches.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public final class Probe {

	/**
	 * The value of every SET of the memory run.
	 */
	static final String VALUE = "v".repeat(Workload.VALUE_SIZE);

	private static final int MEMORY_KEY_SPACE = 1_000_000;

	private static final double MB = 1024.0 * 1024.0;

	private Probe() {
	}

	/**
	 * Run one probe.
	 * @param args the mode and its arguments (see the class description)
	 */
	public static void main(String[] args) {
		if (args.length < 4) {
			throw new IllegalArgumentException(
					"usage: memory <strategy> <port> <commands> | connections <strategy> <port> <batches> <batchSize>");
		}
		String strategy = args[1];
		System.setProperty(BenchmarkEnvironment.PORT, args[2]);
		try {
			switch (args[0]) {
				case "memory" -> memory(strategy, Integer.parseInt(args[3]));
				case "connections" -> connections(strategy, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
				default -> throw new IllegalArgumentException("Unknown probe " + args[0]);
			}
		}
		catch (RuntimeException ex) {
			System.out.println("RESULT status=FAILED error=" + oneLine(ex));
			ex.printStackTrace();
			System.exit(2);
		}
		System.exit(0);
	}

	private static void memory(String id, int commands) {
		HeapWatch heap = new HeapWatch();
		AtomicInteger recorded = new AtomicInteger();
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort());
				Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct())) {
			server.flushAll();
			long writesBefore = server.stringWrites();
			heap.start(recorded);
			long start = System.nanoTime();
			strategy.setGenerated(commands, (i) -> {
				recorded.lazySet(i + 1);
				return Workload.key("key:", ThreadLocalRandom.current().nextInt(MEMORY_KEY_SPACE));
			}, VALUE);
			long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
			heap.stop();
			long writes = server.stringWrites() - writesBefore;
			String status = (writes == commands) ? "OK" : "INCOMPLETE";
			System.out.println("RESULT status=" + status + " commands=" + commands + " executed=" + writes
					+ " elapsedMs=" + elapsedMillis + " peakHeapMb=" + format(heap.peakUsed() / MB) + " peakLiveMb="
					+ format(heap.peakLive() / MB) + " maxHeapMb=" + format(Runtime.getRuntime().maxMemory() / MB));
			server.flushAll();
		}
	}

	private static void connections(String id, int batches, int batchSize) {
		Workload workload = Workload.create(batchSize, StrategyBenchmark.SEED);
		try (Strategy strategy = Strategies.create(id, BenchmarkEnvironment.direct());
				ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			for (int i = 0; i < 10; i++) {
				strategy.set(workload);
			}
			long before = server.connectionsReceived();
			for (int i = 0; i < batches; i++) {
				if (strategy.set(workload) != batchSize) {
					throw new IllegalStateException("a batch was not acknowledged in full");
				}
			}
			long after = server.connectionsReceived();
			System.out.println("RESULT status=OK batches=" + batches + " batchSize=" + batchSize + " newConnections="
					+ (after - before));
		}
	}

	private static String format(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

	private static String oneLine(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String text = ex.getClass().getSimpleName() + ": " + ex.getMessage()
				+ ((root != ex) ? " (cause " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")" : "");
		return text.replaceAll("\\s+", "_");
	}

	/**
	 * Tracks the peak heap: used (sampled every 5 ms, and at each collection before it
	 * ran) and live (used right after a full collection, forced once a second). Prints a
	 * {@code PROGRESS} line every second.
	 * <p>
	 * The heap in use after a young collection is no measure of the live set: objects
	 * that live for a round trip or two (a window of commands in flight) reach the old
	 * generation and stay there, dead, until G1 needs the room. A forced full collection
	 * reclaims them; it costs a pause of a few tens of milliseconds a second, and it
	 * lowers the peak heap a little.
	 */
	private static final class HeapWatch {

		private final AtomicLong peakUsed = new AtomicLong();

		private final AtomicLong peakLive = new AtomicLong(-1);

		private volatile boolean running;

		private Thread sampler;

		HeapWatch() {
			for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
				if (gc instanceof NotificationEmitter emitter) {
					emitter.addNotificationListener((notification, handback) -> {
						if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
							.equals(notification.getType())) {
							GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
								.from((CompositeData) notification.getUserData());
							record(info.getGcInfo().getMemoryUsageBeforeGc(), this.peakUsed);
						}
					}, null, null);
				}
			}
		}

		private static void record(Map<String, MemoryUsage> usage, AtomicLong peak) {
			long used = 0;
			for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
				MemoryUsage poolUsage = usage.get(pool.getName());
				if (pool.getType() == MemoryType.HEAP && poolUsage != null) {
					used += poolUsage.getUsed();
				}
			}
			peak.accumulateAndGet(used, Math::max);
		}

		void start(AtomicInteger recorded) {
			this.running = true;
			this.sampler = new Thread(() -> {
				long nextReport = System.nanoTime();
				while (this.running) {
					long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
					this.peakUsed.accumulateAndGet(used, Math::max);
					if (System.nanoTime() >= nextReport) {
						if (recorded.get() > 0) {
							System.gc();
							long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
							this.peakLive.accumulateAndGet(live, Math::max);
						}
						System.out.println("PROGRESS recorded=" + recorded.get() + " peakHeapMb="
								+ format(this.peakUsed.get() / MB) + " peakLiveMb=" + format(peakLive() / MB));
						nextReport += 1_000_000_000L;
					}
					try {
						Thread.sleep(5);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "heap-watch");
			this.sampler.setDaemon(true);
			this.sampler.start();
		}

		void stop() {
			this.running = false;
			this.sampler.interrupt();
		}

		long peakUsed() {
			return this.peakUsed.get();
		}

		/**
		 * The peak of the live samples, NaN when the run ended before the first.
		 */
		double peakLive() {
			long live = this.peakLive.get();
			return (live < 0) ? Double.NaN : live;
		}

	}

}
