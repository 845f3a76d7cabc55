package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

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

/**
 * The in-flight window, observed from outside: a proxy between the batch and the server
 * adds a round trip and measures the requests outstanding on the connection (arrived, and
 * not yet answered to the client). What the batch keeps in flight is at least that, so
 * the peak must stay within the window; and the window must really be used.
 */
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
		this.proxy = TcpProxy.start(this.server.port()).roundTrip(Duration.ofMillis(20));
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

		BatchResults results = this.template.execute(
				BatchOptions.builder().chunkSize(chunk).maxInFlightBytes(window).build(),
				(batch) -> setAll(batch, 20_000));

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
		assertThat(this.proxy.peakOutstandingRequestBytes()).isLessThanOrEqualTo(window)
			.isGreaterThan(window - 2L * chunk * REQUEST_BYTES);
	}

	@Test
	void theCommandsInFlightNeverExceedTheCommandWindowAndFillIt() {
		BatchResults results = this.template.execute(
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(500).build(),
				(batch) -> setAll(batch, 20_000));

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
		assertThat(this.proxy.peakOutstandingRequests()).isBetween(400L, 500L);
	}

	@Test
	void aBatchSmallerThanTheWindowGoesOutInOneFlight() {
		this.proxy.roundTrip(Duration.ofMillis(500));

		BatchResults results = this.template.execute((batch) -> setAll(batch, 10_000));

		assertThat(results.chunks()).isEqualTo(10);
		// every request was on its way before the first reply came back
		assertThat(this.proxy.peakOutstandingRequests()).isEqualTo(10_000);
	}

	@Test
	void commandsRunInTheOrderTheyWereRecordedWithManyChunksInFlight() {
		List<Response<String>> reads = new ArrayList<>();

		BatchResults results = this.template.execute(BatchOptions.builder().chunkSize(10).build(), (batch) -> {
			for (int i = 0; i < 10_000; i++) {
				batch.rpush("log", Integer.toString(i));
				batch.set("last", Integer.toString(i));
				reads.add(batch.get("last"));
			}
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(this.proxy.peakOutstandingRequests()).as("many chunks in flight at once").isGreaterThan(1_000);
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
			try (BoundBatch batch = this.template
				.bind(BatchOptions.builder().chunkSize(50).maxInFlightBytes(window).build(), List.of(factory))) {
				for (int i = 0; i < 10_000; i++) {
					redis.opsForValue().set(String.format("key:%07d", i), VALUE);
				}
				assertThat(batch.complete().count(Outcome.SUCCESS)).isEqualTo(10_000);
			}
			assertThat(this.proxy.peakOutstandingRequestBytes()).isLessThanOrEqualTo(window).isGreaterThan(window / 2);
			assertThat(this.server.call("DBSIZE")).isEqualTo(10_000L);
		}
		finally {
			factory.destroy();
		}
	}

	private static void setAll(Batch<String, String> batch, int count) {
		for (int i = 0; i < count; i++) {
			batch.set(String.format("key:%07d", i), VALUE);
		}
	}

}
