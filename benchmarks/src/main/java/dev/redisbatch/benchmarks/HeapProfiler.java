package dev.redisbatch.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports what a {@link Watch} saw during the iteration's batch: the
 * peak heap used (sampled every 5 ms, and before each collection), the peak live heap (in
 * use right after a full collection, forced once a second: the heap in use after a young
 * collection overstates the live set, as commands in flight for a round trip or two reach
 * the old generation and stay there, dead, until G1 needs the room), and the server's
 * peak output buffer for the client's connections ({@code omem} of {@code CLIENT LIST},
 * polled every 20 ms).
 *
 * @since 0.1.0
 */
public final class HeapProfiler implements InternalProfiler {

	static final String PEAK_HEAP = "heap.peak.mb";

	static final String PEAK_LIVE = "heap.live.mb";

	static final String OMEM = "server.omem.mb";

	private static final double MB = 1024.0 * 1024.0;

	private static volatile @Nullable Watch last;

	static {
		Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans()
			.stream()
			.filter((pool) -> pool.getType() == MemoryType.HEAP)
			.map(MemoryPoolMXBean::getName)
			.collect(Collectors.toSet());
		for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
			((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
				Watch watch = last;
				if (watch != null && GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
					.equals(notification.getType())) {
					long used = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
						.getGcInfo()
						.getMemoryUsageBeforeGc()
						.entrySet()
						.stream()
						.filter((pool) -> heapPools.contains(pool.getKey()))
						.mapToLong((pool) -> pool.getValue().getUsed())
						.sum();
					watch.peakUsed.accumulateAndGet(used, Math::max);
				}
			}, null, null);
		}
	}

	/**
	 * Created by JMH in the benchmark's JVM.
	 */
	public HeapProfiler() {
	}

	/**
	 * Start watching a batch, from a thread of its own.
	 * @return the watch, to stop when the batch ends
	 */
	static Watch watch() {
		Watch watch = new Watch();
		last = watch;
		watch.thread.setDaemon(true);
		watch.thread.start();
		return watch;
	}

	@Override
	public String getDescription() {
		return "Peak heap, peak live heap and the server's peak output buffer during the batch";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		Watch watch = last;
		if (watch == null) {
			return List.of();
		}
		List<Result> results = new ArrayList<>(
				List.of(mb(PEAK_HEAP, watch.peakUsed.get()), mb(OMEM, watch.peakOmem.get())));
		if (watch.peakLive.get() >= 0) {
			// none when the batch ended before the first forced collection
			results.add(mb(PEAK_LIVE, watch.peakLive.get()));
		}
		return results;
	}

	private static ScalarResult mb(String label, long bytes) {
		return new ScalarResult(label, bytes / MB, "MB", AggregationPolicy.MAX);
	}

	/**
	 * Watches the heap and the server's output buffers during one batch.
	 */
	static final class Watch {

		private final AtomicLong peakUsed = new AtomicLong();

		private final AtomicLong peakLive = new AtomicLong(-1);

		private final AtomicLong peakOmem = new AtomicLong();

		private final Thread thread = new Thread(this::run, "heap-watch");

		private volatile boolean running = true;

		private void run() {
			Server server = BenchmarkEnvironment.server();
			long next = System.nanoTime() + 1_000_000_000L;
			for (int tick = 0; this.running; tick++) {
				this.peakUsed.accumulateAndGet(heapUsed(), Math::max);
				if (tick % 4 == 0) {
					this.peakOmem.accumulateAndGet(server.omemOfOthers(), Math::max);
				}
				if (System.nanoTime() - next > 0) {
					System.gc();
					this.peakLive.accumulateAndGet(heapUsed(), Math::max);
					next += 1_000_000_000L;
				}
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		private static long heapUsed() {
			return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		}

		void stop() {
			this.running = false;
			this.thread.interrupt();
		}

	}

}
