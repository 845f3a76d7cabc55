package dev.redisbatch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The threads a pool runs async batches on when the application gives a template none:
 * daemon threads named {@code redis-batch-async-N}, made when the first async batch runs,
 * one per batch that runs, idle ones ending after a minute, so an unused pool holds no
 * thread and an application can always exit.
 * <p>
 * Not a fixed number: a batch that waits (for its publisher, or for a connection) must
 * not keep another from starting, or a batch whose input comes from another batch of the
 * same pool could wait for ever. A batch beyond the pool's connections waits for one, and
 * fails after the pool's {@code maxWait}, as {@code execute} does.
 */
final class AsyncBatches {

	private static final long KEEP_ALIVE_SECONDS = 60;

	private final AtomicReference<@Nullable ExecutorService> executor = new AtomicReference<>();

	ExecutorService executor() {
		ExecutorService current = this.executor.get();
		if (current != null) {
			return current;
		}
		ExecutorService created = create();
		ExecutorService raced = this.executor.compareAndExchange(null, created);
		if (raced == null) {
			return created;
		}
		created.shutdown();
		return raced;
	}

	/**
	 * Let the batches that run finish, and start no more threads.
	 */
	void shutdown() {
		ExecutorService current = this.executor.getAndSet(null);
		if (current != null) {
			current.shutdown();
		}
	}

	private static ExecutorService create() {
		CustomizableThreadFactory factory = new CustomizableThreadFactory("redis-batch-async-");
		factory.setDaemon(true);
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new SynchronousQueue<>(), factory);
	}

}
