package dev.redisbatch.sample;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.sample.strategy.BatchTemplateStrategy;
import dev.redisbatch.sample.strategy.Deadline;
import dev.redisbatch.sample.strategy.DemoData;
import dev.redisbatch.sample.strategy.DemoStrategy;
import dev.redisbatch.sample.strategy.OneCommandPerRoundTripStrategy;
import dev.redisbatch.sample.strategy.TwoChunksBatchTemplateStrategy;
import dev.redisbatch.sample.timing.DemoTimer;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the comparison shows, counted instead of timed. A proxy of the test's own, between
 * the app and its Redis server, counts the requests a strategy has in flight at once
 * (written, their replies not yet passed back). While the server is frozen no reply can
 * come back, so what a strategy writes then is what it sends in one flight, whatever the
 * speed of the machine: the window sends a batch smaller than itself whole, where two
 * chunks in flight stop at two chunks and need a round trip per two chunks. How long each
 * takes is for the page and the benchmarks, where a busy machine cannot fail the build.
 */
@ExtendWith(RedisServerExtension.class)
@SpringBootTest(properties = "sample.proxy.enabled=false")
@DirtiesContext
class PipelineShapeTests {

	private static RedisProcess redis;

	private static TcpProxy proxy;

	@Autowired
	private OneCommandPerRoundTripStrategy oneByOne;

	@Autowired
	@Qualifier("batchTemplateStrategy")
	private BatchTemplateStrategy batchTemplate;

	@Autowired
	private TwoChunksBatchTemplateStrategy twoChunks;

	@BeforeAll
	static void proxy(RedisProcess server) {
		redis = server;
		proxy = TcpProxy.start(server.port());
	}

	@AfterAll
	static void closeProxy() {
		proxy.close();
	}

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> proxy.port());
	}

	@Test
	void oneCommandPerRoundTripNeverHasMoreThanOneRequestInFlight() {
		proxy.resetPeaks();

		assertThat(this.oneByOne.set(DemoData.of(100), DemoTimer.TTL, Deadline.none())).isEqualTo(100);

		assertThat(proxy.peakOutstandingRequests()).isOne();
	}

	@Test
	void theWindowSendsABatchSmallerThanItselfInOneFlight() throws Exception {
		// the window (4 MB, 100,000 commands) holds 10,000 SETs (1.2 MB): all are
		// written before the first reply
		assertThat(writtenWhileTheServerIsFrozen(this.batchTemplate, 10_000, 10_000)).isEqualTo(10_000);
	}

	@Test
	void aCommandWindowOfTwoChunksKeepsAtMostTwoThousandCommandsInFlight() throws Exception {
		// chunks of at most 1,000 (the first ones smaller: 8, 16, 32 KB, ...), at most
		// 2,000 commands in flight: more than one chunk goes before the first reply, and
		// never more than 2,000 commands
		assertThat(writtenWhileTheServerIsFrozen(this.twoChunks, 10_000, 1_001)).isBetween(1_001L, 2_000L);
	}

	/**
	 * Freeze the server, let the strategy write until it has at least {@code expected}
	 * requests in flight, then resume the server and let the strategy finish.
	 * @return the most requests the strategy had in flight at once, over the whole run
	 */
	private long writtenWhileTheServerIsFrozen(DemoStrategy strategy, int count, long expected) throws Exception {
		// connections open and code run once, before the freeze
		strategy.set(DemoData.of(10), DemoTimer.TTL, Deadline.none());
		proxy.resetPeaks();
		CompletableFuture<Integer> run;
		redis.freeze();
		try {
			run = CompletableFuture.supplyAsync(() -> strategy.set(DemoData.of(count), DemoTimer.TTL, Deadline.none()));
			await().atMost(Duration.ofSeconds(8)).until(() -> proxy.peakOutstandingRequests() >= expected);
			assertThat(run).as("no reply can come while the server is frozen").isNotDone();
		}
		finally {
			redis.resume();
		}
		assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(count);
		assertThat(redis.call("EXISTS", DemoData.key(count - 1))).isEqualTo(1L);
		return proxy.peakOutstandingRequests();
	}

}
