package dev.redisbatch.springbatch;

import dev.redisbatch.Batch;

/**
 * Records the Redis commands that write one item: called by {@code RedisBatchItemWriter}
 * for every item of a chunk, inside the one batch that writes the chunk.
 *
 * <pre class="code">
 * RedisItemMapper&lt;String, String, Order&gt; mapper = (batch, order) -&gt; {
 *     batch.set("order:" + order.id(), order.json(), Duration.ofHours(1));
 *     batch.incr("orders:written");
 * };
 * </pre>
 *
 * A mapper must be deterministic: for the same item it records the same commands, with
 * the same keys and arguments, in the same order. The writer relies on it to recognise
 * the commands of an item it wrote before a failure, and to leave out those that already
 * ran.
 * <p>
 * Whether running the commands twice is harmless decides what the writer may send again
 * after a failure: a command whose outcome is {@code UNKNOWN} is sent again only if it is
 * idempotent. Declare the whole mapper idempotent with {@link #idempotent} (every
 * ready-made mapper in {@link RedisItemMappers} is), or mark single commands by recording
 * them through {@link Batch#idempotent()}.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 * @since 0.1.0
 */
@FunctionalInterface
public interface RedisItemMapper<K, V, T> {

	/**
	 * Record the commands that write an item.
	 * @param batch the batch of the chunk
	 * @param item the item
	 */
	void map(Batch<K, V> batch, T item);

	/**
	 * Whether running this mapper's commands twice for the same item has the same effect
	 * as running them once ({@code SET}, {@code HSET}, {@code SADD}, {@code ZADD},
	 * {@code DEL}, {@code EXPIRE}; not {@code INCR} or {@code LPUSH}).
	 * @return {@code false} unless declared with {@link #idempotent}
	 */
	default boolean isIdempotent() {
		return false;
	}

	/**
	 * Declare a mapper idempotent: every command it records may be sent again when its
	 * outcome is {@code UNKNOWN}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param mapper the mapper
	 * @return the same mapper, declared idempotent
	 */
	static <K, V, T> RedisItemMapper<K, V, T> idempotent(RedisItemMapper<K, V, T> mapper) {
		return new RedisItemMapper<>() {

			@Override
			public void map(Batch<K, V> batch, T item) {
				mapper.map(batch, item);
			}

			@Override
			public boolean isIdempotent() {
				return true;
			}

		};
	}

}
