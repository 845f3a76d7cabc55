package dev.redisbatch;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The serializers a template uses for keys, values, hash fields and hash values.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
record BatchSerializers<K, V>(RedisSerializer<K> key, RedisSerializer<V> value, RedisSerializer<?> hashKey,
		RedisSerializer<?> hashValue) {

}
