package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link BatchTemplate} against a real redis-server: typed results, positions, outcome
 * accounting, chunking and the conveniences.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class BatchTemplateTests {

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	private RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private RedisCommands<String, String> redis;

	@BeforeEach
	void setUp(RedisProcess server) {
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build();
		this.template = new StringBatchTemplate(this.pool);
		this.client = RedisClient.create(server.uri());
		this.connection = this.client.connect();
		this.redis = this.connection.sync();
	}

	@AfterEach
	void tearDown() {
		this.connection.close();
		this.client.shutdown();
		this.pool.close();
	}

	@Test
	void flushSendsWhatWasRecordedWithoutWaitingForTheChunkToFillOrTheCallbackToReturn() {
		long[] seenWhileRecording = new long[1];

		BatchResults results = this.template.execute((batch) -> {
			for (int i = 0; i < 10; i++) {
				batch.set("early:" + i, "v");
			}
			batch.flush();
			// still inside the callback: the ten SETs reach the server all the same
			await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.dbsize() == 10);
			seenWhileRecording[0] = this.redis.dbsize();
			batch.set("late", "v");
			batch.flush();
			batch.flush();
		});

		assertThat(seenWhileRecording[0]).isEqualTo(10);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(11);
		assertThat(results.chunks()).isEqualTo(2);
	}

	@Test
	void setsEveryKeyWithItsTtlInChunksOfTheChunkSize() {
		BatchResults results = this.template.execute(BatchOptions.builder().chunkSize(1000).build(), (batch) -> {
			for (int i = 0; i < 10_000; i++) {
				batch.set("order:" + i, "json-" + i, Duration.ofHours(1));
			}
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.size()).isEqualTo(10_000);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(10_000);
		// chunks of 1,000 commands, after the first ones, which go out at 8, 16 and 32 KB
		assertThat(results.chunks()).isEqualTo(13);
		assertThat(results.failures()).isEmpty();
		assertThat(this.redis.dbsize()).isEqualTo(10_000);
		assertThat(this.redis.get("order:9999")).isEqualTo("json-9999");
		assertThat(this.redis.ttl("order:0")).isBetween(3590L, 3600L);
	}

	@Test
	void everyCommandGetsATypedResult() {
		this.redis.set("text", "hello");
		this.redis.hset("user:1", Map.of("name", "Ada", "lang", "en"));
		this.redis.rpush("list", "a", "b", "c");
		List<Response<?>> all = new ArrayList<>();
		Response<String>[] get = new Response[1];
		Response<Long>[] incr = new Response[1];
		Response<Map<String, String>>[] hash = new Response[1];
		Response<List<String>>[] range = new Response[1];
		Response<Double>[] score = new Response[1];
		Response<Boolean>[] absent = new Response[1];
		Response<Long>[] script = new Response[1];
		Response<Long>[] ttl = new Response[1];

		this.template.execute((batch) -> {
			get[0] = batch.get("text");
			incr[0] = batch.incr("counter");
			hash[0] = batch.hgetAll("user:1");
			range[0] = batch.lrange("list", 0, -1);
			batch.zadd("board", 2.5, "ada");
			score[0] = batch.zscore("board", "ada");
			absent[0] = batch.setIfAbsent("text", "other");
			script[0] = batch.eval(RedisScript.of("return redis.call('INCRBY', KEYS[1], ARGV[1])", Long.class),
					List.of("counter"), "41");
			ttl[0] = batch.ttl("text");
		});

		assertThat(get[0].get()).isEqualTo("hello");
		assertThat(incr[0].get()).isEqualTo(1L);
		assertThat(hash[0].get()).containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ada", "lang", "en"));
		assertThat(range[0].get()).containsExactly("a", "b", "c");
		assertThat(score[0].get()).isEqualTo(2.5);
		assertThat(absent[0].get()).isFalse();
		assertThat(script[0].get()).isEqualTo(42L);
		assertThat(ttl[0].get()).isEqualTo(-1L);
		assertThat(this.redis.get("counter")).isEqualTo("42");
	}

	@Test
	void statusRepliesKeepTheirPlaceSoResultsNeverDrift() {
		List<Response<?>> responses = new ArrayList<>();
		this.template.execute((batch) -> {
			for (int i = 0; i < 3; i++) {
				responses.add(batch.set("k" + i, "v" + i));
				responses.add(batch.get("k" + i));
				responses.add(batch.expire("k" + i, Duration.ofMinutes(1)));
			}
		});

		assertThat(responses).hasSize(9);
		for (int i = 0; i < 3; i++) {
			assertThat(responses.get(3 * i).get()).isEqualTo(true);
			assertThat(responses.get(3 * i + 1).get()).isEqualTo("v" + i);
			assertThat(responses.get(3 * i + 2).get()).isEqualTo(true);
		}
	}

	@Test
	void aFailedCommandFailsAloneAndTheBatchReportsIt() {
		this.redis.set("text", "not a number");
		List<Response<Long>> increments = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			increments.add(batch.incr("a"));
			increments.add(batch.incr("text"));
			increments.add(batch.incr("b"));
			batch.lpush("text", "x");
		}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(4);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(results.count(Outcome.FAILED)).isEqualTo(2);
		assertThat(results.failures()).extracting(BatchFailure::index, BatchFailure::command, BatchFailure::outcome)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(1, "INCR", Outcome.FAILED),
					org.assertj.core.groups.Tuple.tuple(3, "LPUSH", Outcome.FAILED));
		assertThat(results.failures().get(0).message()).startsWith("ERR value is not an integer");
		assertThat(results.failures().get(1).message()).startsWith("WRONGTYPE");
		assertThat(failure.getMessage()).contains("2 FAILED").contains("#1 INCR FAILED").doesNotContain("text");
		assertThat(increments.get(0).get()).isEqualTo(1L);
		assertThat(increments.get(2).get()).isEqualTo(1L);
		assertThat(increments.get(1).outcome()).isEqualTo(Outcome.FAILED);
		assertThatExceptionOfType(BatchCommandException.class).isThrownBy(() -> increments.get(1).get())
			.withMessageContaining("ERR value is not an integer");
		assertThat(this.redis.get("a")).isEqualTo("1");
		assertThat(this.redis.get("b")).isEqualTo("1");
	}

	@Test
	void getAllIsAlignedWithTheKeysWithNullForMissingOnes() {
		this.redis.set("k1", "one");
		this.redis.set("k3", "three");

		List<String> values = this.template.getAll(List.of("k1", "k2", "k3"));

		assertThat(values).containsExactly("one", null, "three");
	}

	@Test
	void setAllWritesEveryEntryWithTheTtl() {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < 2500; i++) {
			entries.put("user:" + i, "name-" + i);
		}

		this.template.setAll(entries, Duration.ofMinutes(5));

		assertThat(this.redis.dbsize()).isEqualTo(2500);
		assertThat(this.redis.get("user:2499")).isEqualTo("name-2499");
		assertThat(this.redis.pttl("user:7")).isBetween(290_000L, 300_000L);
	}

	@Test
	void setAllWithoutTtlWritesKeysThatDoNotExpire() {
		this.template.setAll(Map.of("a", "1", "b", "2"), null);

		assertThat(this.redis.ttl("a")).isEqualTo(-1L);
		assertThat(this.redis.mget("a", "b")).extracting((kv) -> kv.getValue()).containsExactly("1", "2");
	}

	@Test
	void aNullKeyOrValueIsRejectedBeforeAnythingIsSent() {
		Map<String, String> withNull = new LinkedHashMap<>();
		withNull.put("a", "1");
		withNull.put("b", null);
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.setAll(withNull, null))
			.withMessageContaining("null value");
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.getAll(java.util.Arrays.asList("a", null)))
			.withMessageContaining("null");
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.execute((batch) -> batch.set(null, "v")))
			.withMessageContaining("key must not be null");
		assertThat(this.redis.dbsize()).isZero();
		assertThat(this.pool.getCreatedCount()).isZero();
	}

	@Test
	void anEmptyBatchIsAnEmptySuccessThatBorrowsNoConnection() {
		BatchResults results = this.template.execute((batch) -> {
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.size()).isZero();
		assertThat(results.chunks()).isZero();
		assertThat(results.failures()).isEmpty();
		assertThat(this.pool.getCreatedCount()).isZero();
		assertThat(this.template.getAll(List.of())).isEmpty();
		this.template.setAll(Map.of(), null);
		assertThat(this.pool.getCreatedCount()).isZero();
	}

	@Test
	void invalidOptionsAreRejectedBeforeAnyIo() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().chunkSize(0))
			.withMessage("chunkSize must be between 1 and 1000000 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().chunkSize(-5));
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().chunkSize(50_000_000));
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxInFlightCommands(0))
			.withMessageContaining("maxInFlightCommands must be between 1 and 10000000");
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().timeout(Duration.ofSeconds(-1)))
			.withMessageContaining("timeout must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().name("user:42 key"))
			.withMessageContaining("metrics tag");
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxInFlightBytes(1023))
			.withMessageContaining("maxInFlightBytes must be at least 1024 bytes");
		assertThat(this.pool.getCreatedCount()).isZero();
	}

	@Test
	void responsesCannotBeReadInsideTheCallback() {
		this.template.execute((batch) -> {
			Response<String> response = batch.get("a");
			assertThatIllegalStateException().isThrownBy(response::get).withMessageContaining("not complete yet");
		});
	}

	@Test
	void theBatchCannotBeUsedAfterTheCallbackReturned() {
		Batch<String, String>[] escaped = new Batch[1];
		this.template.execute((batch) -> {
			escaped[0] = batch;
			batch.set("a", "1");
		});

		assertThatIllegalStateException().isThrownBy(() -> escaped[0].set("b", "2")).withMessageContaining("complete");
	}

	@Test
	void whenTheCallbackThrowsItsExceptionWinsAndWhatWasSentIsAccountedFor() {
		IllegalStateException thrown = new IllegalStateException("boom");

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.template.execute(BatchOptions.builder().chunkSize(10).build(), (batch) -> {
				for (int i = 0; i < 25; i++) {
					batch.set("k" + i, "v");
				}
				throw thrown;
			}))
			.isSameAs(thrown)
			.satisfies((ex) -> {
				assertThat(ex.getSuppressed()).hasSize(1);
				BatchResults results = ((BatchException) ex.getSuppressed()[0]).getResults();
				assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20);
				assertThat(results.count(Outcome.NOT_SENT)).isEqualTo(5);
				assertThat(results.size()).isEqualTo(25);
			});
		assertThat(this.redis.dbsize()).isEqualTo(20);
		assertThat(this.pool.getActive()).isZero();
	}

	@Test
	void aValueTheSerializerRejectsFailsAloneAndIsNeverSent(RedisProcess server) {
		RedisSerializer<String> picky = new RedisSerializer<>() {

			@Override
			public byte[] serialize(String value) {
				if (value.startsWith("bad")) {
					throw new SerializationException("cannot write " + value);
				}
				return value.getBytes(StandardCharsets.UTF_8);
			}

			@Override
			public String deserialize(byte[] bytes) {
				return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : null;
			}

		};
		BatchTemplate<String, String> template = BatchTemplate.<String, String>builder(this.pool)
			.keySerializer(RedisSerializer.string())
			.valueSerializer(picky)
			.build();
		List<Response<Boolean>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute(BatchOptions.builder().chunkSize(3).build(), (batch) -> {
					responses.add(batch.set("k1", "good"));
					responses.add(batch.set("k2", "bad value"));
					responses.add(batch.set("k3", "good"));
					responses.add(batch.set("k4", "good"));
				}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(4);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3);
		assertThat(results.failures()).singleElement().satisfies((f) -> {
			assertThat(f.index()).isEqualTo(1);
			assertThat(f.command()).isEqualTo("SET");
			assertThat(f.outcome()).isEqualTo(Outcome.FAILED);
			assertThat(f.message())
				.isEqualTo("the value could not be serialized (SerializationException); it was not sent")
				.doesNotContain("bad value");
		});
		assertThatExceptionOfType(BatchCommandException.class).isThrownBy(() -> responses.get(1).get())
			.withCauseInstanceOf(SerializationException.class);
		assertThat(this.redis.exists("k1", "k2", "k3", "k4")).isEqualTo(3);
	}

}
