package dev.redisbatch;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;

import io.lettuce.core.RedisURI;

import org.springframework.data.redis.core.ScanOptions;

/**
 * Runs {@code scan(match("match:*")).unlink()} on the cluster whose nodes are given as
 * {@code redis://} URIs, and prints the results and the peak heap. Started in its own JVM
 * with a small heap by {@link ClusterBulkTests}.
 */
public final class ClusterBulkUnlinkMain {

	private ClusterBulkUnlinkMain() {
	}

	public static void main(String[] args) {
		try (BatchConnectionPool pool = BatchConnectionPool
			.clusterBuilder(Arrays.stream(args).map(RedisURI::create).toList())
			.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			// the window, not the number of matching keys, bounds the memory
			BatchOptions window = BatchOptions.builder().maxInFlightCommands(10_000).build();
			BulkResults results = template.scan(ScanOptions.scanOptions().match("match:*").count(1000).build())
				.options(window)
				.unlink();
			long peakHeap = 0;
			for (MemoryPoolMXBean memoryPool : ManagementFactory.getMemoryPoolMXBeans()) {
				if (memoryPool.getType() == MemoryType.HEAP) {
					peakHeap += memoryPool.getPeakUsage().getUsed();
				}
			}
			System.out.println("RESULT matched=" + results.keysMatched() + " changed=" + results.keysChanged()
					+ " success=" + results.commands().count(Outcome.SUCCESS) + " size=" + results.commands().size()
					+ " complete=" + results.isComplete() + " peakHeapMb=" + (peakHeap >> 20) + " maxHeapMb="
					+ (Runtime.getRuntime().maxMemory() >> 20) + " millis=" + results.commands().elapsed().toMillis());
		}
	}

}
