package dev.redisbatch;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

import io.lettuce.core.RedisURI;

/**
 * Runs one batch of ten million SET commands against the server on the given port and
 * prints the results and the peak heap. Started in its own JVM with a small heap by
 * {@link BoundedMemoryTests}.
 */
public final class TenMillionCommandsMain {

	static final int COMMANDS = 10_000_000;

	private TenMillionCommandsMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			BatchResults results = template.execute((batch) -> {
				for (int i = 0; i < COMMANDS; i++) {
					batch.set("key:" + (i % 100_000), "value-" + i);
				}
			});
			printResult(results);
		}
	}

	/**
	 * Print the results and the peak heap on the line the tests read.
	 */
	static void printResult(BatchResults results) {
		long peakHeap = 0;
		for (MemoryPoolMXBean memoryPool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (memoryPool.getType() == MemoryType.HEAP) {
				peakHeap += memoryPool.getPeakUsage().getUsed();
			}
		}
		System.out.println("RESULT success=" + results.count(Outcome.SUCCESS) + " size=" + results.size() + " chunks="
				+ results.chunks() + " peakHeapMb=" + (peakHeap >> 20) + " maxHeapMb="
				+ (Runtime.getRuntime().maxMemory() >> 20) + " millis=" + results.elapsed().toMillis());
	}

}
