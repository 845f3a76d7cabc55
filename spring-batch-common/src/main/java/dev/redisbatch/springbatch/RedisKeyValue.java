package dev.redisbatch.springbatch;

/**
 * A key read by {@code RedisBatchItemReader} and its value.
 *
 * @param <K> the key type
 * @param <R> the value type
 * @param key the key
 * @param value the value, as its {@link KeyFetcher} read it
 * @since 0.1.0
 */
public record RedisKeyValue<K, R>(K key, R value) {

	@Override
	public String toString() {
		// Spring Batch logs items it cannot write: never key or value text
		return "RedisKeyValue[...]";
	}

}
