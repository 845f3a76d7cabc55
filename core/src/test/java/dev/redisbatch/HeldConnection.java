package dev.redisbatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch on another thread that holds a connection of its pool until it is let go: it
 * sends one {@code INCR} of its key in a chunk of its own (so the chunk, and the lease,
 * start at once) and then waits. For tests of a pool whose connections are all leased.
 */
final class HeldConnection implements AutoCloseable {

	private final CountDownLatch release = new CountDownLatch(1);

	private final CompletableFuture<BatchResults> batch;

	private HeldConnection(BatchConnectionPool pool, String key) throws InterruptedException {
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(1).build());
		CountDownLatch leased = new CountDownLatch(1);
		this.batch = CompletableFuture.supplyAsync(() -> template.execute((batch) -> {
			// a full chunk goes out at once: the batch holds a connection now
			batch.incr(key);
			leased.countDown();
			awaitRelease();
		}));
		assertThat(leased.await(10, TimeUnit.SECONDS)).as("the holding batch leased a connection").isTrue();
	}

	/**
	 * Start a batch that holds one of the pool's connections, and wait until it does.
	 * @param pool the pool
	 * @param key the key the batch increments
	 * @return the held connection, to let go with {@link #close()}
	 */
	static HeldConnection hold(BatchConnectionPool pool, String key) throws InterruptedException {
		return new HeldConnection(pool, key);
	}

	/**
	 * Let the batch end, and give its results.
	 * @return the results of the holding batch
	 */
	BatchResults letGo() throws Exception {
		close();
		return this.batch.get(10, TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		this.release.countDown();
	}

	private void awaitRelease() {
		try {
			this.release.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
