package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values read as UTF-8 strings ({@code StringRedisSerializer.UTF_8}, what
 * {@code StringBatchTemplate} uses) are decoded into their strings as they are read
 * ({@link StringValueOutput}): they must come out exactly as the serializer itself would
 * make them, whatever their bytes and length. Any other serializer still reads them.
 */
@ExtendWith(RedisServerExtension.class)
class StringValueTests {

	private static final String TEXT = "caf\u00e9 \u20ac \ud83d\ude00 \u65e5\u672c";

	private BatchConnectionPool pool;

	@BeforeEach
	void setUp(RedisProcess server) {
		server.call("FLUSHALL");
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build();
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void getHgetAndStringRepliesGiveTheStringsThatWereWrittenWhateverTheirLength() {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("empty", "");
		entries.put("text", TEXT);
		// around the length decoded through the thread's buffer, and far past it
		for (int length : new int[] { StringValueOutput.SCRATCH_BYTES - 1, StringValueOutput.SCRATCH_BYTES,
				StringValueOutput.SCRATCH_BYTES + 1, 70_000 }) {
			entries.put("ascii" + length, "a".repeat(length));
		}
		// a multi-byte character across the buffer's last byte
		entries.put("straddling", "b".repeat(StringValueOutput.SCRATCH_BYTES - 1) + "\u20ac");
		StringBatchTemplate template = new StringBatchTemplate(this.pool);
		template.execute((batch) -> entries.forEach((key, value) -> {
			batch.set(key, value);
			batch.hset("hash", key, value);
		}));
		List<String> keys = new ArrayList<>(entries.keySet());
		keys.add("missing");
		List<Response<@Nullable String>> fields = new ArrayList<>();
		List<Response<@Nullable String>> replies = new ArrayList<>();

		List<@Nullable String> values = template.getAll(keys);
		template.execute((batch) -> {
			for (String key : keys) {
				fields.add(batch.hget("hash", key));
				replies.add(batch.command("GET", CommandReply.string(), key));
			}
		});

		for (int i = 0; i < keys.size(); i++) {
			String expected = entries.get(keys.get(i));
			assertThat(values.get(i)).as(keys.get(i)).isEqualTo(expected);
			assertThat(fields.get(i).get()).as(keys.get(i)).isEqualTo(expected);
			assertThat(replies.get(i).get()).as(keys.get(i)).isEqualTo(expected);
		}
	}

	@Test
	void bytesThatAreNotUtf8ComeOutAsStringRedisSerializerMakesThem() {
		byte[] latin1 = { 'c', 'a', 'f', (byte) 0xE9 };
		BatchTemplate<String, byte[]> raw = new BatchTemplate<>(this.pool, RedisSerializer.string(),
				RedisSerializer.byteArray());
		raw.execute((batch) -> batch.set("latin1", latin1));

		String asUtf8 = new StringBatchTemplate(this.pool).getAll(List.of("latin1")).get(0);
		BatchTemplate<String, String> iso = new BatchTemplate<>(this.pool, RedisSerializer.string(),
				new StringRedisSerializer(StandardCharsets.ISO_8859_1));
		String asLatin1 = iso.getAll(List.of("latin1")).get(0);

		assertThat(asUtf8).isEqualTo(StringRedisSerializer.UTF_8.deserialize(latin1)).endsWith("\ufffd");
		assertThat(asLatin1).isEqualTo("caf\u00e9");
	}

	@Test
	void aSubclassOfStringRedisSerializerStillReadsTheValues() {
		StringRedisSerializer upperCase = new StringRedisSerializer() {

			@Override
			public String deserialize(byte @Nullable [] bytes) {
				return super.deserialize(bytes).toUpperCase();
			}

		};
		BatchTemplate<String, String> template = new BatchTemplate<>(this.pool, RedisSerializer.string(), upperCase);
		template.execute((batch) -> batch.set("word", "quiet"));

		assertThat(template.getAll(List.of("word"))).containsExactly("QUIET");
	}

	@Test
	void onlyStringRedisSerializerItselfWithUtf8DecodesAsItReads() {
		assertThat(BatchSerializers.isUtf8Strings(StringRedisSerializer.UTF_8)).isTrue();
		assertThat(BatchSerializers.isUtf8Strings(new StringRedisSerializer())).isTrue();
		assertThat(BatchSerializers.isUtf8Strings(new StringRedisSerializer(StandardCharsets.UTF_8))).isTrue();
		assertThat(BatchSerializers.isUtf8Strings(StringRedisSerializer.ISO_8859_1)).isFalse();
		assertThat(BatchSerializers.isUtf8Strings(StringRedisSerializer.US_ASCII)).isFalse();
		assertThat(BatchSerializers.isUtf8Strings(new StringRedisSerializer(StandardCharsets.UTF_16))).isFalse();
		assertThat(BatchSerializers.isUtf8Strings(new StringRedisSerializer() {
		})).isFalse();
		assertThat(BatchSerializers.isUtf8Strings(new JdkSerializationRedisSerializer())).isFalse();
	}

}
