package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The in-flight window, observed from outside: a proxy between the batch and the server
 * measures the requests outstanding on the connection (arrived, and not yet answered to
 * the client). What the batch keeps in flight is at least that, so the peak must stay
 * within the window; and the window must really be used: while the server is frozen, no
 * reply can come back, so the batch writes until its window is full, however fast or slow
 * the machine is.
 */
@BothPaths
@EveryLine
class WindowTests {

	// SET key:<7 digits> <20 bytes>: every request has the same length
	private static final String VALUE = "v".repeat(20);

	private static final int REQUEST_BYTES = "*3\r\n$3\r\nSET\r\n$11\r\nkey:0000000\r\n$20\r\n".length() + 20 + 2;

	private RedisProcess server;

	private TcpProxy proxy;

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start();
		this.proxy = TcpProxy.start(this.server.port());
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.proxy.port())).build();
		this.template = new StringBatchTemplate(this.pool);
		this.template.execute((batch) -> batch.get("warm-up"));
		this.proxy.resetPeaks();
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.proxy.close();
		this.server.close();
	}

	@Test
	void theRequestBytesInFlightNeverExceedTheWindowAndFillIt() {
		long window = 64 * 1024;
		int chunk = 100;

		BatchResults results = filledWhileFrozen(
				() -> this.proxy.peakOutstandingRequestBytes() > window - 2L * chunk * REQUEST_BYTES,
				() -> this.template.execute(BatchOptions.builder().chunkSize(chunk).maxInFlightBytes(window).build(),
						(batch) -> setAll(batch, 20_000)));

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
		assertThat(this.proxy.peakOutstandingRequestBytes()).isLessThanOrEqualTo(window);
	}

	@Test
	void theCommandsInFlightNeverExceedTheCommandWindowAndFillIt() {
		BatchResults results = filledWhileFrozen(() -> this.proxy.peakOutstandingRequests() >= 500,
				() -> this.template.execute(BatchOptions.builder().chunkSize(100).maxInFlightCommands(500).build(),
						(batch) -> setAll(batch, 20_000)));

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
		assertThat(this.proxy.peakOutstandingRequests()).isEqualTo(500);
	}

	@Test
	void aBatchSmallerThanTheWindowGoesOutInOneFlight() {
		BatchResults results = filledWhileFrozen(() -> this.proxy.peakOutstandingRequests() >= 10_000,
				() -> this.template.execute((batch) -> setAll(batch, 10_000)));

		// 10 chunks of 1,000, and the three smaller first ones (8, 16 and 32 KB)
		assertThat(results.chunks()).isEqualTo(13);
		// every request was on its way before the first reply came back
		assertThat(this.proxy.peakOutstandingRequests()).isEqualTo(10_000);
	}

	@Test
	void commandsRunInTheOrderTheyWereRecordedWithManyChunksInFlight() {
		List<Response<String>> reads = new ArrayList<>();

		BatchResults results = filledWhileFrozen(() -> this.proxy.peakOutstandingRequests() > 1_000,
				() -> this.template.execute(BatchOptions.builder().chunkSize(10).build(), (batch) -> {
					for (int i = 0; i < 10_000; i++) {
						batch.rpush("log", Integer.toString(i));
						batch.set("last", Integer.toString(i));
						reads.add(batch.get("last"));
					}
				}));

		assertThat(results.isSuccess()).isTrue();
		assertThat(this.server.call("LRANGE", "log", "0", "-1")).asList()
			.containsExactlyElementsOf(IntStream.range(0, 10_000).mapToObj(Integer::toString).toList());
		for (int i = 0; i < reads.size(); i++) {
			assertThat(reads.get(i).get()).isEqualTo(Integer.toString(i));
		}
	}

	@Test
	void templateCallsInABoundBatchKeepToTheWindowToo() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.server.port()));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			long window = 32 * 1024;
			BatchResults results = filledWhileFrozen(() -> this.proxy.peakOutstandingRequestBytes() > window / 2,
					() -> {
						try (BoundBatch batch = this.template.bind(
								BatchOptions.builder().chunkSize(50).maxInFlightBytes(window).build(),
								List.of(factory))) {
							for (int i = 0; i < 10_000; i++) {
								redis.opsForValue().set(String.format("key:%07d", i), VALUE);
							}
							return batch.complete();
						}
					});
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(10_000);
			assertThat(this.proxy.peakOutstandingRequestBytes()).isLessThanOrEqualTo(window);
			assertThat(this.server.call("DBSIZE")).isEqualTo(10_000L);
		}
		finally {
			factory.destroy();
		}
	}

	/**
	 * Run a batch while the server is frozen, so that no reply can come back, until the
	 * requests in flight have filled what they should (however fast the machine writes
	 * them); then resume the server and let the batch finish.
	 */
	private <T> T filledWhileFrozen(BooleanSupplier filled, Supplier<T> batch) {
		CompletableFuture<T> running;
		this.server.freeze();
		try {
			running = CompletableFuture.supplyAsync(batch);
			// well within the chunks' deadline of 10 s
			await().atMost(Duration.ofSeconds(8)).until(filled::getAsBoolean);
			assertThat(running).as("no reply can come while the server is frozen").isNotDone();
		}
		finally {
			this.server.resume();
		}
		return running.join();
	}

	private static void setAll(Batch<String, String> batch, int count) {
		for (int i = 0; i < count; i++) {
			batch.set(String.format("key:%07d", i), VALUE);
		}
	}

}
