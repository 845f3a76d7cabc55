package dev.redisbatch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.redisbatch.docs.AsyncExamples;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * {@link BatchTemplate#executeAsync(BatchOptions, BatchCallback)}: the same batch as
 * {@code execute}, on another thread, with the same results and exceptions.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class AsyncBatchTests {

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		server.call("FLUSHALL");
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).maxActive(2).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void theBatchRunsOnAnotherThreadAndTheFutureHoldsItsResults(RedisProcess server) throws Exception {
		Map<String, String> sessions = new LinkedHashMap<>();
		for (int i = 0; i < 5000; i++) {
			sessions.put(String.valueOf(i), "{}");
		}
		Thread caller = Thread.currentThread();
		Thread[] ranOn = new Thread[1];

		CompletableFuture<BatchResults> future = this.template.executeAsync((batch) -> {
			ranOn[0] = Thread.currentThread();
			batch.set("probe", "1");
		});
		long saved = new AsyncExamples(this.template).saveSessions(sessions).get();

		assertThat(future.get().count(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(ranOn[0]).isNotSameAs(caller);
		assertThat(ranOn[0].getName()).startsWith("redis-batch-async-");
		assertThat(ranOn[0].isDaemon()).isTrue();
		assertThat(saved).isEqualTo(5000);
		assertThat(server.call("DBSIZE")).isEqualTo(5001L);
	}

	@Test
	void aFailedCommandCompletesTheFutureWithTheSameBatchException(RedisProcess server) {
		server.call("SET", "text", "x");
		CompletableFuture<BatchResults> future = this.template.executeAsync((batch) -> {
			batch.incr("text");
			batch.set("other", "1");
		});

		Throwable failure = catchThrowable(future::get);

		assertThat(failure).isInstanceOf(ExecutionException.class).cause().isInstanceOf(BatchException.class);
		BatchResults results = ((BatchException) failure.getCause()).getResults();
		assertThat(results.count(Outcome.FAILED)).isEqualTo(1);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(BatchTemplate.unwrap(catchThrowable(() -> future.thenApply(BatchResults::size).join())))
			.isSameAs(failure.getCause());
	}

	@Test
	void anExceptionOfTheCallbackCompletesTheFutureWithIt() {
		IllegalStateException thrown = new IllegalStateException("from the callback");
		CompletableFuture<BatchResults> future = this.template.executeAsync((batch) -> {
			batch.set("a", "1");
			throw thrown;
		});

		assertThat(catchThrowable(future::get)).cause().isSameAs(thrown);
		await().untilAsserted(() -> assertThat(this.pool.getActive()).isZero());
	}

	@Test
	void badArgumentsAreRefusedAtOnceOnTheCallersThread() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.executeAsync(null))
			.withMessage("callback must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.executeAsync(null, (batch) -> batch.set("a", "1")))
			.withMessage("options must not be null");
	}

	@Test
	void moreBatchesThanConnectionsWaitForOneAndAllComplete(RedisProcess server) {
		Set<String> threads = ConcurrentHashMap.newKeySet();
		List<CompletableFuture<BatchResults>> futures = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			int n = i;
			futures.add(this.template.executeAsync((batch) -> {
				threads.add(Thread.currentThread().getName());
				for (int j = 0; j < 1000; j++) {
					batch.set("k:" + n + ":" + j, "v");
				}
			}));
		}

		CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();

		assertThat(server.call("DBSIZE")).isEqualTo(50_000L);
		assertThat(threads).allMatch((name) -> name.startsWith("redis-batch-async-"));
		assertThat(this.pool.getCreatedCount()).as("connections").isLessThanOrEqualTo(this.pool.getMaxActive());
		assertThat(this.pool.getActive()).isZero();
	}

	@Test
	void batchesRunOnTheExecutorTheApplicationSets() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor((task) -> new Thread(task, "app-batches"));
		try {
			this.template.setAsyncExecutor(executor);
			String[] ranOn = new String[1];

			this.template.executeAsync((batch) -> {
				ranOn[0] = Thread.currentThread().getName();
				batch.set("a", "1");
			}).get();

			assertThat(ranOn[0]).isEqualTo("app-batches");
		}
		finally {
			executor.shutdownNow();
		}
	}

}
