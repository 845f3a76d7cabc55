package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in retry: commands that were not sent are sent again, unknown ones only when
 * marked idempotent, failed ones never; every command still ends in exactly one outcome.
 */
@BothPaths
@EveryLine
class RetryTests {

	private RedisProcess server;

	private TcpProxy proxy;

	private BatchConnectionPool pool;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start();
		this.proxy = TcpProxy.start(this.server.port());
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.proxy.port()))
			.maxActive(1)
			.maxIdle(1)
			.maxWait(Duration.ofMillis(100))
			.build();
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.proxy.close();
		this.server.close();
	}

	@Test
	void commandsThatWereNotSentAreSentAgainAfterTheBackoff() throws Exception {
		StringBatchTemplate template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().timeout(Duration.ofSeconds(5)).build());
		template.execute((batch) -> batch.get("warm-up"));
		// another batch holds the only connection for 300 ms
		this.proxy.roundTrip(Duration.ofMillis(300));
		CompletableFuture<BatchResults> holder = CompletableFuture
			.supplyAsync(() -> template.execute((batch) -> batch.get("held")));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.pool.getActive() == 1);
		List<Response<Long>> responses = new ArrayList<>();

		BatchResults results = template.execute(BatchOptions.builder().retry(3, Duration.ofMillis(400)).build(),
				(batch) -> incrementTenCounters(batch, responses));

		holder.get(10, TimeUnit.SECONDS);
		assertEveryCounterIncrementedOnce(results, responses);
	}

	@Test
	void aTemplateBuiltWithARetryRetriesBatchesRunWithoutOptions() throws Exception {
		BatchTemplate<String, String> template = templateWithDefaults(
				BatchOptions.builder().timeout(Duration.ofSeconds(5)).retry(3, Duration.ofMillis(400)).build());
		template.execute((batch) -> batch.get("warm-up"));
		CompletableFuture<BatchResults> holder = holdTheOnlyConnection(template, Duration.ofMillis(300));
		List<Response<Long>> responses = new ArrayList<>();

		BatchResults results = template.execute((batch) -> incrementTenCounters(batch, responses));

		holder.get(10, TimeUnit.SECONDS);
		assertEveryCounterIncrementedOnce(results, responses);
	}

	@Test
	void aTemplateBuiltWithARetryReportsItInItsDefaultOptions() {
		BatchTemplate<String, String> template = templateWithDefaults(
				BatchOptions.builder().retry(3, Duration.ofMillis(400)).build());

		assertThat(template.getDefaultOptions().retryAttempts()).isEqualTo(3);
		assertThat(template.getDefaultOptions().retryBackoff()).isEqualTo(Duration.ofMillis(400));
	}

	@Test
	void aBatchThatTurnsRetryOffIsNotRetriedByATemplateBuiltWithARetry() throws Exception {
		BatchTemplate<String, String> template = templateWithDefaults(
				BatchOptions.builder().timeout(Duration.ofSeconds(5)).retry(3, Duration.ofMillis(400)).build());
		template.execute((batch) -> batch.get("warm-up"));
		CompletableFuture<BatchResults> holder = holdTheOnlyConnection(template, Duration.ofMillis(300));

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute(BatchOptions.builder().retry(0, Duration.ZERO).build(), (batch) -> {
					for (int i = 0; i < 10; i++) {
						batch.incr("counter:" + i);
					}
				}));

		holder.get(10, TimeUnit.SECONDS);
		assertThat(failure.getResults().count(Outcome.NOT_SENT)).isEqualTo(10);
		assertThat(this.server.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void unknownCommandsAreSentAgainOnlyWhenMarkedIdempotent() {
		StringBatchTemplate template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().timeout(Duration.ofMillis(500)).build());
		template.execute((batch) -> batch.get("warm-up"));
		// the open connection loses every reply; a new one works
		this.proxy.dropRepliesAfter(0);
		List<Response<?>> sets = new ArrayList<>();
		List<Response<?>> increments = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute(BatchOptions.builder().retry(2, Duration.ofMillis(50)).build(), (batch) -> {
					for (int i = 0; i < 5; i++) {
						sets.add(batch.idempotent().set("key:" + i, "value-" + i));
						increments.add(batch.incr("counter:" + i));
					}
				}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(10);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(5);
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(5);
		assertThat(sets).allSatisfy((set) -> assertThat(set.outcome()).isEqualTo(Outcome.SUCCESS));
		assertThat(increments).allSatisfy((incr) -> assertThat(incr.outcome()).isEqualTo(Outcome.UNKNOWN));
		assertThat(results.failures()).extracting(BatchFailure::command).containsOnly("INCR");
		for (int i = 0; i < 5; i++) {
			// each INCR ran exactly once: its reply was lost, and it was not sent again
			assertThat(this.server.call("GET", "counter:" + i)).isEqualTo("1");
			assertThat(this.server.call("GET", "key:" + i)).isEqualTo("value-" + i);
		}
	}

	@Test
	void failedCommandsAreNeverSentAgain() {
		this.server.call("LPUSH", "list", "x");
		StringBatchTemplate template = new StringBatchTemplate(this.pool);

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute(BatchOptions.builder().retry(3, Duration.ZERO).build(),
						(batch) -> batch.idempotent().incr("list")));

		assertThat(failure.getResults().count(Outcome.FAILED)).isEqualTo(1);
		assertThat(String.valueOf(this.server.call("INFO", "commandstats"))).contains("cmdstat_incr:calls=1,");
	}

	@Test
	void withoutRetryNothingIsSentAgain() {
		StringBatchTemplate template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().timeout(Duration.ofMillis(300)).build());
		template.execute((batch) -> batch.get("warm-up"));
		this.proxy.dropRepliesAfter(0);

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute((batch) -> batch.idempotent().set("k", "v")));

		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(String.valueOf(this.server.call("INFO", "commandstats"))).contains("cmdstat_set:calls=1,");
	}

	private BatchTemplate<String, String> templateWithDefaults(BatchOptions defaults) {
		return BatchTemplate.<String, String>builder(this.pool)
			.keySerializer(RedisSerializer.string())
			.valueSerializer(RedisSerializer.string())
			.defaults(defaults)
			.build();
	}

	/**
	 * Start a batch that holds the pool's only connection for about one round trip of the
	 * given length, and wait until it has borrowed it.
	 */
	private CompletableFuture<BatchResults> holdTheOnlyConnection(BatchTemplate<String, String> template,
			Duration roundTrip) {
		this.proxy.roundTrip(roundTrip);
		CompletableFuture<BatchResults> holder = CompletableFuture
			.supplyAsync(() -> template.execute((batch) -> batch.get("held")));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.pool.getActive() == 1);
		return holder;
	}

	private static void incrementTenCounters(Batch<String, String> batch, List<Response<Long>> responses) {
		for (int i = 0; i < 10; i++) {
			responses.add(batch.incr("counter:" + i));
		}
	}

	/**
	 * The ten counters went through the retry: each incremented exactly once, after one
	 * exhausted wait for the held connection.
	 */
	private void assertEveryCounterIncrementedOnce(BatchResults results, List<Response<Long>> responses) {
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(10);
		assertThat(results.size()).isEqualTo(10);
		assertThat(responses).allSatisfy((response) -> assertThat(response.get()).isEqualTo(1L));
		assertThat(this.pool.getExhaustedCount()).isEqualTo(1);
		for (int i = 0; i < 10; i++) {
			assertThat(this.server.call("GET", "counter:" + i)).isEqualTo("1");
		}
	}

}