package dev.redisbatch.reactive;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.BlockHoundJvm;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * No blocking call on a Reactor or Netty thread, proven with BlockHound: it makes every
 * blocking call (parking, sleeping, blocking I/O) on a non-blocking thread throw. These
 * tests run in a JVM of their own (see the {@code blockhound} execution in the POM), so
 * the agent never touches the other tests.
 */
@ExtendWith(RedisServerExtension.class)
@BlockHoundJvm
class ReactiveBlockHoundTests {

	private final Queue<Throwable> dropped = new ConcurrentLinkedQueue<>();

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	private ReactiveBatchTemplate<String, String> reactive;

	@BeforeAll
	static void installBlockHound() {
		BlockHound.install();
	}

	@BeforeEach
	void setUp(RedisProcess server) {
		server.call("FLUSHALL");
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).maxActive(2).build();
		this.template = new StringBatchTemplate(this.pool);
		this.reactive = new ReactiveBatchTemplate<>(this.template);
		Hooks.onErrorDropped(this.dropped::add);
		Schedulers.onHandleError((thread, error) -> this.dropped.add(error));
	}

	@AfterEach
	void tearDown() {
		Hooks.resetOnErrorDropped();
		Schedulers.resetOnHandleError();
		this.pool.close();
	}

	@Test
	void theDetectorIsOnTheBlockingTemplateOnAReactorThreadIsCaught() {
		Mono<BatchResults> blocking = Mono.fromCallable(() -> this.template.execute((batch) -> batch.set("k", "v")))
			.subscribeOn(Schedulers.parallel());

		Throwable error = catchThrowable(() -> blocking.block(Duration.ofSeconds(30)));

		assertThat(causesAndSuppressed(error)).as("what the blocking template threw on a parallel thread")
			.anySatisfy((cause) -> assertThat(cause).isInstanceOf(BlockingOperationError.class)
				.hasMessageContaining("Blocking call!"));
	}

	@Test
	void aBatchPublishedAndSubscribedOnReactorThreadsNeverBlocksThem(RedisProcess server) {
		Flux<Map.Entry<String, String>> entries = Flux.range(0, 100_000)
			.publishOn(Schedulers.parallel())
			.map((i) -> Map.entry("key:" + i, "value-" + i));

		BatchResults results = this.reactive.setAll(entries, null)
			.subscribeOn(Schedulers.parallel())
			.publishOn(Schedulers.parallel())
			.block(Duration.ofSeconds(60));
		List<String> values = this.reactive.getAll(Flux.just("key:0", "key:99999").publishOn(Schedulers.single()))
			.subscribeOn(Schedulers.single())
			.block(Duration.ofSeconds(60));

		assertThat(results.size()).isEqualTo(100_000);
		assertThat(values).containsExactly("value-0", "value-99999");
		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
		assertThat(this.dropped).isEmpty();
	}

	@Test
	void cancellingOnAReactorThreadNeverBlocksIt(RedisProcess server) {
		AtomicBoolean upstreamCancelled = new AtomicBoolean();
		Flux<Map.Entry<String, String>> endless = Flux.range(0, Integer.MAX_VALUE)
			.publishOn(Schedulers.parallel())
			.map((i) -> Map.entry("key:" + i, "value"))
			.doOnCancel(() -> upstreamCancelled.set(true));
		Disposable running = this.reactive.setAll(endless, null).subscribeOn(Schedulers.parallel()).subscribe();
		await().atMost(Duration.ofSeconds(30)).until(() -> (Long) server.call("DBSIZE") > 20_000);

		Schedulers.parallel().schedule(running::dispose);

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(upstreamCancelled).isTrue();
			assertThat(this.pool.getActive()).isZero();
		});
		assertThat(this.dropped).isEmpty();
	}

	private static List<Throwable> causesAndSuppressed(Throwable error) {
		List<Throwable> all = new java.util.ArrayList<>();
		java.util.Deque<Throwable> pending = new java.util.ArrayDeque<>();
		pending.add(error);
		while (!pending.isEmpty() && all.size() < 100) {
			Throwable next = pending.poll();
			all.add(next);
			if (next.getCause() != null) {
				pending.add(next.getCause());
			}
			pending.addAll(List.of(next.getSuppressed()));
		}
		return all;
	}

}
