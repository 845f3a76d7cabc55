package dev.redisbatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The threads a pool runs async batches on when the application gives a template none:
 * daemon threads named {@code redis-batch-async-N}, one per batch that runs, idle ones
 * ending after a minute, so an unused pool holds no thread and an application can always
 * exit.
 * <p>
 * Not a fixed number: a batch that waits (for its publisher, or for a connection) must
 * not keep another from starting, or a batch whose input comes from another batch of the
 * same pool could wait for ever. A batch beyond the pool's connections waits for one, and
 * fails after the pool's {@code maxWait}, as {@code execute} does.
 */
final class AsyncBatches {

	private static final long KEEP_ALIVE_SECONDS = 60;

	private AsyncBatches() {
	}

	static ExecutorService executor() {
		CustomizableThreadFactory factory = new CustomizableThreadFactory("redis-batch-async-");
		factory.setDaemon(true);
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new SynchronousQueue<>(), factory);
	}

}
