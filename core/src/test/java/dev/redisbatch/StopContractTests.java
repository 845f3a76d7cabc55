package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RespConnection;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a stop does to the recording code: a failure elsewhere in the batch never makes a
 * recording call throw; every command recorded after the stop is {@link Outcome#NOT_SENT}
 * at once, without being serialized or sent; {@code size()} is the number recorded and
 * the counts add up to it; the {@link BatchException} comes when the callback returns.
 * With retry on, a lost connection does not end the batch; a server that refuses commands
 * for now gets a pause. An empty batch is an empty success.
 */
@BothPaths
@EveryLine
class StopContractTests {

	private RedisProcess server;

	private TcpProxy proxy;

	private BatchConnectionPool pool;

	private final CountingSerializer values = new CountingSerializer();

	private BatchTemplate<String, String> template;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start();
		this.proxy = TcpProxy.start(this.server.port());
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.proxy.port())).build();
		this.template = BatchTemplate.<String, String>builder(this.pool)
			.keySerializer(RedisSerializer.string())
			.valueSerializer(this.values)
			.defaults(BatchOptions.builder().timeout(Duration.ofMillis(300)).build())
			.build();
		// open the pooled connection before replies are dropped
		this.template.execute((batch) -> batch.get("warm-up"));
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.proxy.close();
		this.server.close();
	}

	@Test
	void aStopNeverMakesRecordedCommandsVanishFromTheCounts() {
		// INCR replies are ":1\r\n": the first 20,000 come back, the rest are lost
		this.proxy.dropRepliesAfter(20_000 * 4);
		List<Response<Long>> responses = new ArrayList<>();

		// a window of 2,000 commands: most of the batch is still to be sent when it stops
		BatchOptions window = BatchOptions.builder().maxInFlightCommands(2_000).build();
		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> this.template.execute(window, (batch) -> {
					for (int i = 0; i < 100_000; i++) {
						responses.add(batch.incr("counter:" + i));
					}
				}));

		BatchResults results = failure.getResults();
		assertThat(responses).hasSize(100_000);
		assertThat(results.size()).isEqualTo(100_000);
		assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.FAILED) + results.count(Outcome.UNKNOWN)
				+ results.count(Outcome.NOT_SENT))
			.isEqualTo(100_000);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
		assertThat(results.count(Outcome.NOT_SENT)).isGreaterThan(70_000);
		assertThat(results.failures()).hasSize(80_000);
		assertThat(results.failures().get(79_999).index()).isEqualTo(99_999);
		assertThat(responses.get(99_999).outcome()).isEqualTo(Outcome.NOT_SENT);
		assertThat(responses).extracting(Response::outcome)
			.containsExactlyElementsOf(results.failures().isEmpty() ? List.of() : outcomesOf(results, 100_000));
		// nothing ran that is not accounted for: each counter is 1 if it succeeded or may
		// have run, and absent otherwise
		long present = (Long) this.server.call("DBSIZE");
		assertThat(present).isBetween(results.count(Outcome.SUCCESS),
				results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN) + 1);
	}

	@Test
	void commandsRecordedAfterTheStopAreNeitherSerializedNorSent() {
		this.proxy.dropRepliesAfter(0);
		long[] serializedAtStop = new long[1];
		long[] bytesAtStop = new long[1];

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			int i = 0;
			while (!batch.isStopped()) {
				batch.set("key:" + i, "value-" + i++);
			}
			serializedAtStop[0] = this.values.count.get();
			// the chunks written before the stop may still be on their way to the proxy
			long[] last = { -1 };
			await().pollInterval(Duration.ofMillis(50)).atMost(Duration.ofSeconds(10)).until(() -> {
				long now = this.proxy.clientBytes();
				boolean settled = now == last[0];
				last[0] = now;
				return settled;
			});
			bytesAtStop[0] = this.proxy.clientBytes();
			for (int j = 0; j < 50_000; j++) {
				batch.set("late:" + j, "value");
			}
		}));

		assertThat(this.values.count.get()).isEqualTo(serializedAtStop[0]);
		assertThat(this.proxy.clientBytes()).isEqualTo(bytesAtStop[0]);
		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.NOT_SENT)).isGreaterThanOrEqualTo(50_000);
		assertThat(results.failures().get(results.failures().size() - 1)).satisfies((last) -> {
			assertThat(last.index()).isEqualTo(results.size() - 1);
			assertThat(last.command()).isEqualTo("SET");
			assertThat(last.outcome()).isEqualTo(Outcome.NOT_SENT);
			assertThat(last.message()).startsWith("not sent: the batch stopped early (a chunk got no reply");
		});
	}

	@Test
	void aCallbackCanAskWhetherTheBatchStoppedAndEndEarly() {
		this.proxy.dropRepliesAfter(0);
		int[] recorded = new int[1];

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			for (int i = 0; i < 1_000_000 && !batch.isStopped(); i++) {
				batch.set("key:" + i, "value");
				recorded[0]++;
			}
		}));

		assertThat(recorded[0]).isLessThan(1_000_000);
		assertThat(failure.getResults().size()).isEqualTo(recorded[0]);
	}

	@Test
	void misuseStillThrowsAtOnceAfterAStop() {
		this.proxy.dropRepliesAfter(0);

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			while (!batch.isStopped()) {
				batch.set("key", "value");
			}
			assertThatIllegalArgumentException().isThrownBy(() -> batch.set(null, "value"))
				.withMessage("key must not be null");
			assertThatIllegalArgumentException().isThrownBy(() -> batch.expire("key", Duration.ZERO))
				.withMessageContaining("ttl must be at least 1 ms");
			batch.set("last", "value");
		}));

		assertThat(failure.getResults().failures().get(failure.getResults().failures().size() - 1).index())
			.isEqualTo(failure.getResults().size() - 1);
	}

	@Test
	void setAllAndGetAllAccountForEveryEntryWhenTheBatchStops() {
		this.proxy.dropRepliesAfter(0);
		Map<String, String> entries = new LinkedHashMap<>();
		IntStream.range(0, 10_000).forEach((i) -> entries.put("key:" + i, "value"));

		BatchException setAll = catchThrowableOfType(BatchException.class,
				() -> this.template.setAll(entries, Duration.ofMinutes(1)));
		// the lost connection left the pool: open the next one, then lose its replies too
		this.template.execute((batch) -> batch.get("warm-up"));
		this.proxy.dropRepliesAfter(0);
		BatchException getAll = catchThrowableOfType(BatchException.class,
				() -> this.template.getAll(entries.keySet()));

		assertThat(setAll.getResults().size()).isEqualTo(10_000);
		assertThat(getAll.getResults().size()).isEqualTo(10_000);
	}

	@Test
	void templateCallsInABoundBatchAfterAStopReturnAsQueuedCallsAndTheMethodEndReportsThem() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.server.port()));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			this.proxy.dropRepliesAfter(0);
			BatchException failure;
			try (BoundBatch batch = this.template
				.bind(BatchOptions.builder().chunkSize(100).maxInFlightCommands(200).build(), List.of(factory))) {
				for (int i = 0; i < 5_000; i++) {
					redis.opsForValue().set("key:" + i, "value");
				}
				failure = catchThrowableOfType(BatchException.class, batch::complete);
			}
			assertThat(failure.getResults().size()).isEqualTo(5_000);
			assertThat(failure.getResults().count(Outcome.NOT_SENT)).isGreaterThan(4_000);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void anEmptyBatchIsAnEmptySuccessWithNoObservationAndNoIo() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.template.setObservationRegistry(registry);
		long reads = this.proxy.clientReads();

		BatchResults results = this.template.execute((batch) -> {
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.size()).isZero();
		assertThat(this.proxy.clientReads()).isEqualTo(reads);
		TestObservationRegistryAssert.assertThat(registry).doesNotHaveAnyObservation();
		assertThat(this.template.getAll(List.of())).isEmpty();
		this.template.setAll(Map.of(), null);
	}

	@Test
	void withRetryALostConnectionDoesNotEndTheBatch() {
		List<Response<?>> sets = new ArrayList<>();
		List<Response<Long>> increments = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template
			.execute(BatchOptions.builder().chunkSize(100).retry(3, Duration.ofMillis(50)).build(), (batch) -> {
				for (int i = 0; i < 20_000; i++) {
					if (i == 5_000) {
						this.proxy.closeConnections();
					}
					sets.add(batch.idempotent().set("key:" + i, "value"));
					increments.add(batch.incr("counter:" + i));
				}
			}));

		BatchResults results = (failure != null) ? failure.getResults() : null;
		// the stream went on after the lost connection: nothing is left unsent
		if (results != null) {
			assertThat(results.size()).isEqualTo(40_000);
			assertThat(results.count(Outcome.NOT_SENT)).isZero();
			assertThat(results.count(Outcome.FAILED)).isZero();
			assertThat(results.failures()).extracting(BatchFailure::command).containsOnly("INCR");
		}
		assertThat(sets).extracting(Response::outcome).containsOnly(Outcome.SUCCESS);
		assertThat(this.server.call("GET", "key:19999")).isEqualTo("value");
		for (int i = 0; i < 20_000; i++) {
			Object counter = this.server.call("GET", "counter:" + i);
			Outcome outcome = increments.get(i).outcome();
			// no INCR ran twice; an unknown one ran at most once
			assertThat(counter).isIn((outcome == Outcome.SUCCESS) ? List.of("1") : java.util.Arrays.asList(null, "1"));
		}
	}

	@Test
	void withRetryABusyServerGetsAPauseInsteadOfFailingTheBatch() throws Exception {
		// lua-time-limit: busy-reply-threshold's name on Redis 6.2, an alias of it since
		// 7.0
		this.server.call("CONFIG", "SET", "lua-time-limit", "20");
		try (RespConnection blocker = RespConnection.open(this.server.port(), Duration.ofSeconds(60))) {
			Thread script = new Thread(() -> {
				try {
					blocker.call("EVAL", "while true do end", "0");
				}
				catch (RuntimeException ex) {
					// SCRIPT KILL ends it with an error reply
				}
			});
			script.start();
			await().atMost(Duration.ofSeconds(10)).until(this::serverIsBusy);
			long replies = this.proxy.replyBytes();
			// once the batch's first chunk got its replies (BUSY), end the script
			Thread killer = new Thread(() -> {
				await().atMost(Duration.ofSeconds(10)).until(() -> this.proxy.replyBytes() > replies);
				RespConnection.call(this.server.port(), "SCRIPT", "KILL");
			});
			killer.start();

			BatchResults results = this.template.execute(
					BatchOptions.builder().timeout(Duration.ofSeconds(5)).retry(10, Duration.ofMillis(200)).build(),
					(batch) -> {
						for (int i = 0; i < 1_000; i++) {
							batch.incr("counter:" + i);
						}
					});

			killer.join(10_000);
			script.join(10_000);
			assertThat(results.isSuccess()).isTrue();
			assertThat(results.size()).isEqualTo(1_000);
			assertThat(this.server.call("GET", "counter:0")).isEqualTo("1");
			assertThat(this.server.call("GET", "counter:999")).isEqualTo("1");
			assertThat(String.valueOf(this.server.call("INFO", "commandstats"))).contains("cmdstat_incr:calls=1000,");
		}
	}

	private boolean serverIsBusy() {
		try {
			RespConnection.call(this.server.port(), "PING");
			return false;
		}
		catch (RuntimeException ex) {
			return String.valueOf(ex.getMessage()).contains("BUSY");
		}
	}

	private static List<Outcome> outcomesOf(BatchResults results, int size) {
		List<Outcome> outcomes = new ArrayList<>();
		for (int i = 0; i < size; i++) {
			outcomes.add(Outcome.SUCCESS);
		}
		for (BatchFailure failure : results.failures()) {
			outcomes.set(failure.index(), failure.outcome());
		}
		return outcomes;
	}

	/**
	 * The string serializer, counting what it serializes.
	 */
	private static final class CountingSerializer implements RedisSerializer<String> {

		private final AtomicLong count = new AtomicLong();

		@Override
		public byte[] serialize(String value) {
			this.count.incrementAndGet();
			return RedisSerializer.string().serialize(value);
		}

		@Override
		public String deserialize(byte[] bytes) {
			return RedisSerializer.string().deserialize(bytes);
		}

	}

}
