package dev.redisbatch;

import java.time.Duration;

import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;

/**
 * Records ten million SET commands into one batch that stops early (its connection loses
 * every reply), keeps the results, and prints them with the live heap. Started in its own
 * JVM with a small heap by {@link BoundedMemoryTests}.
 */
public final class StoppedEarlyMain {

	static final int COMMANDS = 10_000_000;

	private StoppedEarlyMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		try (TcpProxy proxy = TcpProxy.start(port);
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + proxy.port()))
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool,
					BatchOptions.builder().timeout(Duration.ofMillis(500)).build());
			template.execute((batch) -> batch.get("warm-up"));
			proxy.dropRepliesAfter(0);
			BatchResults results;
			try {
				results = template.execute((batch) -> {
					for (int i = 0; i < COMMANDS; i++) {
						batch.set("key:" + (i % 100_000), "value-" + i);
					}
				});
			}
			catch (BatchException ex) {
				results = ex.getResults();
			}
			long listed = 0;
			int previous = -1;
			for (BatchFailure failure : results.failures()) {
				if (failure.index() <= previous || !failure.command().equals("SET")) {
					throw new IllegalStateException("failures out of order or misnamed at " + failure);
				}
				previous = failure.index();
				listed++;
			}
			System.gc();
			Runtime runtime = Runtime.getRuntime();
			long live = runtime.totalMemory() - runtime.freeMemory();
			System.out.println("RESULT size=" + results.size() + " success=" + results.count(Outcome.SUCCESS)
					+ " notSent=" + results.count(Outcome.NOT_SENT) + " listed=" + listed + " lastIndex=" + previous
					+ " liveHeapMb=" + (live >> 20) + " maxHeapMb=" + (runtime.maxMemory() >> 20) + " results="
					+ results.summary());
		}
	}

}
