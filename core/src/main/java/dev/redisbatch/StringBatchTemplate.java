package dev.redisbatch;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A {@link BatchTemplate} for {@code String} keys and values (UTF-8), like Spring Data
 * Redis's {@code StringRedisTemplate}.
 *
 * @since 0.1.0
 */
public class StringBatchTemplate extends BatchTemplate<String, String> {

	/**
	 * Create a template with the built-in default options.
	 * @param pool the connections batches run on
	 */
	public StringBatchTemplate(BatchConnectionPool pool) {
		this(pool, BatchOptions.defaults());
	}

	/**
	 * Create a template.
	 * @param pool the connections batches run on
	 * @param defaults the options used for values a batch does not set
	 */
	public StringBatchTemplate(BatchConnectionPool pool, BatchOptions defaults) {
		super(BatchTemplate.<String, String>builder(pool)
			.keySerializer(RedisSerializer.string())
			.valueSerializer(RedisSerializer.string())
			.defaults(defaults));
	}

}
