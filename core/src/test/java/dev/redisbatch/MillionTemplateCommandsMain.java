package dev.redisbatch;

import java.util.List;

import io.lettuce.core.RedisURI;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs one bound batch (what {@code @RedisBatch} does) of a million
 * {@code StringRedisTemplate} SETs against the server on the given port, and prints the
 * results. Started in its own JVM with a small heap by {@link BoundedMemoryTests}.
 */
public final class MillionTemplateCommandsMain {

	static final int COMMANDS = 1_000_000;

	private MillionTemplateCommandsMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.build()) {
			StringRedisTemplate redisTemplate = new StringRedisTemplate(connectionFactory);
			StringBatchTemplate batchTemplate = new StringBatchTemplate(pool);
			BatchResults results;
			try (BoundBatch batch = batchTemplate.bind(BatchOptions.defaults(), List.of(connectionFactory))) {
				for (int i = 0; i < COMMANDS; i++) {
					redisTemplate.opsForValue().set("key:" + (i % 100_000), "value-" + i);
				}
				results = batch.complete();
			}
			System.out.println("RESULT success=" + results.count(Outcome.SUCCESS) + " size=" + results.size()
					+ " chunks=" + results.chunks() + " millis=" + results.elapsed().toMillis());
		}
		finally {
			connectionFactory.destroy();
		}
	}

}
