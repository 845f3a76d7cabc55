package dev.redisbatch.reactive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.redisbatch.BatchCallback;
import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.docs.ReactiveExamples;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ReactiveBatchTemplate} against a real server: order, outcomes, errors,
 * cancellation, and connections that all go back. Blocking detection is in
 * {@link ReactiveBlockHoundTests}, the cluster in {@code ClusterTests}, ten million
 * elements in {@code BoundedMemoryTests}.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class ReactiveBatchTemplateTests {

	private BatchConnectionPool pool;

	private ReactiveBatchTemplate<String, String> reactive;

	@BeforeEach
	void setUp(RedisProcess server) {
		server.call("FLUSHALL");
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).maxActive(2).build();
		this.reactive = new ReactiveBatchTemplate<>(new StringBatchTemplate(this.pool));
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void theCommandsOfEveryPublishedFunctionRunInOrderWithTypedResponses(RedisProcess server) {
		List<Response<Long>> counters = new ArrayList<>();
		Flux<BatchCallback<String, String>> callbacks = Flux.range(1, 3000)
			.map((i) -> (batch) -> counters.add(batch.incr("counter")));

		StepVerifier.create(this.reactive.execute(callbacks))
			.assertNext((results) -> assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3000))
			.verifyComplete();

		assertThat(counters).extracting(Response::get)
			.containsExactlyElementsOf(Flux.range(1, 3000).map(Long::valueOf).collectList().block());
		assertThat(server.call("GET", "counter")).isEqualTo("3000");
		assertNoConnectionLeft(server);
	}

	@Test
	void setAllAndGetAllKeepTheOrderOfTheKeys(RedisProcess server) {
		ReactiveExamples examples = new ReactiveExamples(this.reactive);

		StepVerifier.create(examples.saveOrders(Flux.range(0, 5000).map((i) -> new ReactiveExamples.Order(i, "o" + i))))
			.assertNext((results) -> assertThat(results.size()).isEqualTo(5000))
			.verifyComplete();
		StepVerifier.create(examples.loadOrders(Flux.just(4999L, 123_456L, 0L)))
			.assertNext((values) -> assertThat(values).containsExactly("o4999", null, "o0"))
			.verifyComplete();

		assertThat(server.call("DBSIZE")).isEqualTo(5000L);
		assertThat((Long) server.call("PTTL", "order:7")).isPositive();
		assertNoConnectionLeft(server);
	}

	@Test
	void anErrorReplyFailsTheMonoWithTheSameBatchExceptionAsExecute(RedisProcess server) {
		server.call("SET", "text", "not a number");
		Flux<BatchCallback<String, String>> callbacks = Flux.just((batch) -> batch.set("a", "1"),
				(batch) -> batch.incr("text"), (batch) -> batch.set("b", "2"));

		StepVerifier.create(this.reactive.execute(callbacks)).expectErrorSatisfies((error) -> {
			assertThat(error).isInstanceOf(BatchException.class);
			BatchResults results = ((BatchException) error).getResults();
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(2);
			assertThat(results.failures()).singleElement()
				.satisfies((failure) -> assertThat(failure.index()).isEqualTo(1));
		}).verify(Duration.ofSeconds(30));

		assertThat(server.call("GET", "b")).isEqualTo("2");
		assertNoConnectionLeft(server);
	}

	@Test
	void anErrorOfThePublisherEndsTheBatchWithThatErrorAndEveryOutcomeAttached(RedisProcess server) {
		Flux<Map.Entry<String, String>> broken = Flux.concat(Flux.range(0, 5000).map((i) -> Map.entry("key:" + i, "v")),
				Flux.error(new IllegalStateException("the source broke")));

		StepVerifier.create(this.reactive.setAll(broken, null)).expectErrorSatisfies((error) -> {
			assertThat(error).isInstanceOf(IllegalStateException.class).hasMessage("the source broke");
			BatchResults results = Arrays.stream(error.getSuppressed())
				.filter(BatchException.class::isInstance)
				.map((suppressed) -> ((BatchException) suppressed).getResults())
				.findFirst()
				.orElseThrow();
			assertThat(results.size()).isEqualTo(5000);
			assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.NOT_SENT)).isEqualTo(5000);
			assertThat((Long) server.call("DBSIZE")).isEqualTo(results.count(Outcome.SUCCESS));
		}).verify(Duration.ofSeconds(30));

		assertNoConnectionLeft(server);
	}

	@Test
	void anExceptionOfTheRecorderFailsTheMonoAndCancelsThePublisher(RedisProcess server) {
		AtomicBoolean cancelled = new AtomicBoolean();
		Flux<Integer> numbers = Flux.range(0, 1_000_000).doOnCancel(() -> cancelled.set(true));

		StepVerifier.create(this.reactive.execute(numbers, (batch, i) -> {
			if (i == 2500) {
				throw new IllegalArgumentException("bad element");
			}
			batch.set("key:" + i, "v");
		})).expectErrorMessage("bad element").verify(Duration.ofSeconds(30));

		assertThat(cancelled).isTrue();
		assertThat((Long) server.call("DBSIZE")).isLessThanOrEqualTo(2500);
		assertNoConnectionLeft(server);
	}

	@Test
	void cancellingMidStreamStopsSendingAndEveryConnectionGoesBack(RedisProcess server) {
		AtomicBoolean upstreamCancelled = new AtomicBoolean();
		Flux<Map.Entry<String, String>> endless = Flux.range(0, Integer.MAX_VALUE)
			.map((i) -> Map.entry("key:" + i, "value"))
			.doOnCancel(() -> upstreamCancelled.set(true));

		StepVerifier.create(this.reactive.setAll(endless, null))
			.expectSubscription()
			.then(() -> await().atMost(Duration.ofSeconds(30)).until(() -> (Long) server.call("DBSIZE") > 20_000))
			.thenCancel()
			.verify(Duration.ofSeconds(30));

		// the Flux is endless: only a batch that stopped gives its connection back
		assertNoConnectionLeft(server);
		assertThat(upstreamCancelled).isTrue();
	}

	@Test
	void aSlowPublisherIsNotHeldBackUntilAChunkFills(RedisProcess server) {
		Flux<Map.Entry<String, String>> trickle = Flux.concat(Flux.range(0, 10).map((i) -> Map.entry("slow:" + i, "v")),
				Flux.never());

		StepVerifier.create(this.reactive.setAll(trickle, null))
			.expectSubscription()
			.then(() -> await().atMost(Duration.ofSeconds(10)).until(() -> (Long) server.call("DBSIZE") == 10))
			.thenCancel()
			.verify(Duration.ofSeconds(30));

		assertNoConnectionLeft(server);
	}

	@Test
	void anInterruptedBatchThreadFailsTheMonoInsteadOfLeavingItHanging() {
		java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newSingleThreadExecutor();
		this.reactive.getBatchTemplate().setAsyncExecutor(executor);

		StepVerifier.create(this.reactive.setAll(Flux.never(), null))
			.expectSubscription()
			.then(executor::shutdownNow)
			.expectErrorSatisfies(
					(error) -> assertThat(error).isInstanceOfAny(java.util.concurrent.CancellationException.class,
							java.util.concurrent.RejectedExecutionException.class))
			.verify(Duration.ofSeconds(30));
	}

	@Test
	void anEmptyPublisherIsAnEmptySuccessThatBorrowsNothing(RedisProcess server) {
		StepVerifier.create(this.reactive.setAll(Flux.empty(), null))
			.assertNext((results) -> assertThat(results.size()).isZero())
			.verifyComplete();

		assertThat(this.pool.getCreatedCount()).isZero();
	}

	@Test
	void eachSubscriptionRunsTheBatchAgain(RedisProcess server) {
		var mono = this.reactive.execute(Flux.range(0, 10), (batch, i) -> batch.incr("runs"));

		mono.block(Duration.ofSeconds(30));
		mono.block(Duration.ofSeconds(30));

		assertThat(server.call("GET", "runs")).isEqualTo("20");
	}

	private void assertNoConnectionLeft(RedisProcess server) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.pool.getActive()).as("connections lent").isZero();
			// the server sees only the idle connections of the pool
			assertThat(server.connectedClients()).isLessThanOrEqualTo(this.pool.getIdle());
		});
	}

}
