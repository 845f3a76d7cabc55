package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

/**
 * The serializers a template uses for keys, values, hash fields and hash values.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param key the key serializer
 * @param value the value serializer
 * @param hashKey the hash field serializer
 * @param hashValue the hash value serializer
 * @param utf8Values whether values are read as UTF-8 strings by
 * {@code StringRedisSerializer} itself: then they are decoded into strings as they are
 * read ({@link StringValueOutput})
 * @param utf8HashValues the same for hash values
 */
record BatchSerializers<K, V>(RedisSerializer<K> key, RedisSerializer<V> value, RedisSerializer<?> hashKey,
		RedisSerializer<?> hashValue, boolean utf8Values, boolean utf8HashValues) {

	/**
	 * Characters that UTF-8 and every other charset encode differently (two, three and
	 * four bytes in UTF-8).
	 */
	private static final String PROBE = "\u00e9\u20ac\ud83d\ude00";

	BatchSerializers(RedisSerializer<K> key, RedisSerializer<V> value, RedisSerializer<?> hashKey,
			RedisSerializer<?> hashValue) {
		this(key, value, hashKey, hashValue, isUtf8Strings(value), isUtf8Strings(hashValue));
	}

	/**
	 * Whether the serializer is {@code StringRedisSerializer} itself (not a subclass,
	 * which may read differently) with the UTF-8 charset, the one
	 * {@code RedisSerializer.string()} returns.
	 */
	static boolean isUtf8Strings(RedisSerializer<?> serializer) {
		if (serializer == StringRedisSerializer.UTF_8) {
			return true;
		}
		if (serializer.getClass() != StringRedisSerializer.class) {
			return false;
		}
		// its charset is private: what it makes of characters each charset encodes its
		// own way tells
		return Arrays.equals(((StringRedisSerializer) serializer).serialize(PROBE),
				PROBE.getBytes(StandardCharsets.UTF_8));
	}

}
