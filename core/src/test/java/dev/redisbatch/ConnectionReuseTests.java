package dev.redisbatch;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.Closeables;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection a batch gives back is kept for the next batch outside commons-pool2, as
 * long as no other batch is waiting for one: against a real server, the next batch gets
 * it, a batch that waits for it is handed it, one the server closed meanwhile is replaced
 * before anything is sent on it, and the pool's counts show it as idle.
 */
@BothPaths
class ConnectionReuseTests {

	@AutoClose
	private final Closeables resources = new Closeables();

	private final RedisProcess server = this.resources.track(RedisProcess.start());

	@Test
	void batchesOneAfterAnotherShareOneConnectionThatCountsAsIdleBetweenThem() {
		BatchConnectionPool pool = pool(4, Duration.ofSeconds(5));
		StringBatchTemplate template = new StringBatchTemplate(pool);

		for (int i = 0; i < 5; i++) {
			assertThat(template.execute((batch) -> batch.incr("counter")).isSuccess()).isTrue();
			assertThat(pool.getActive()).isZero();
			assertThat(pool.getIdle()).isOne();
		}

		assertThat(this.server.call("GET", "counter")).isEqualTo("5");
		assertThat(pool.getCreatedCount()).isOne();
		assertThat(this.server.connectedClients()).isEqualTo(1);
	}

	@Test
	void aBatchWaitingForThePoolsOnlyConnectionIsHandedItWhenTheBatchHoldingItEnds() throws Exception {
		BatchConnectionPool pool = pool(1, Duration.ofSeconds(30));
		StringBatchTemplate template = new StringBatchTemplate(pool);
		CompletableFuture<BatchResults> waiter;
		HeldConnection held = HeldConnection.hold(pool, "held");
		try (held) {
			waiter = CompletableFuture.supplyAsync(() -> template.execute((batch) -> batch.incr("waited")));
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.getWaiting() == 1);
		}

		// well within the 30 s the waiter may wait: the holder's end hands the
		// connection over rather than keeping it for a next batch of its own
		assertThat(held.letGo().isSuccess()).isTrue();
		assertThat(waiter.get(10, TimeUnit.SECONDS).isSuccess()).isTrue();
		assertThat(this.server.call("GET", "waited")).isEqualTo("1");
		assertThat(pool.getExhaustedCount()).isZero();
		assertThat(pool.getCreatedCount()).isOne();
		assertThat(pool.getActive()).isZero();
		assertThat(pool.getIdle()).isOne();
	}

	@Test
	void aKeptConnectionTheServerClosedIsReplacedBeforeTheNextBatchSendsAnything() {
		BatchConnectionPool pool = pool(4, Duration.ofSeconds(5));
		StringBatchTemplate template = new StringBatchTemplate(pool);
		assertThat(template.execute((batch) -> batch.incr("counter")).isSuccess()).isTrue();

		assertThat(this.server.call("CLIENT", "KILL", "TYPE", "normal")).isEqualTo(1L);
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> this.server.connectedClients() == 0);
		BatchResults next = template.execute((batch) -> {
			for (int i = 0; i < 10; i++) {
				batch.incr("counter");
			}
		});

		assertThat(next.isSuccess()).isTrue();
		assertThat(next.count(Outcome.SUCCESS)).isEqualTo(10);
		assertThat(this.server.call("GET", "counter")).isEqualTo("11");
		assertThat(pool.getCreatedCount()).isEqualTo(2);
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.getDestroyedCount() == 1);
		assertThat(pool.getActive()).isZero();
		assertThat(pool.getIdle()).isOne();
	}

	private BatchConnectionPool pool(int maxActive, Duration maxWait) {
		return this.resources
			.track(BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.server.port()))
				.maxActive(maxActive)
				.maxIdle(maxActive)
				.maxWait(maxWait)
				.build());
	}

}
