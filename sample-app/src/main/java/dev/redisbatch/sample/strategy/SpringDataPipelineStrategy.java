package dev.redisbatch.sample.strategy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.Order;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.stereotype.Component;

/**
 * Spring Data Redis's {@code executePipelined} with Spring Boot's defaults: without a
 * connection pool, every call opens a new dedicated connection, and each command is
 * flushed on its own. All commands go in one pipeline; the deadline is not checked.
 *
 * @since 0.1.0
 */
@Component
@Order(20)
public class SpringDataPipelineStrategy implements DemoStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "spring-data-pipeline";

	private final StringRedisTemplate redisTemplate;

	/**
	 * Create the strategy.
	 * @param redisTemplate the application's template
	 */
	public SpringDataPipelineStrategy(StringRedisTemplate redisTemplate) {
		this.redisTemplate = redisTemplate;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String description() {
		return "StringRedisTemplate.executePipelined with Boot's defaults: a new connection per call, one flush per command, results as List<Object>.";
	}

	@Override
	public int set(DemoData data, Duration ttl, Deadline deadline) {
		Expiration expiration = Expiration.from(ttl);
		this.redisTemplate.executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
			for (int i = 0; i < data.size(); i++) {
				connection.stringCommands()
					.set(bytes(data.keys().get(i)), bytes(data.values().get(i)), SetCondition.upsert(), expiration);
			}
			return null;
		});
		return data.size();
	}

	@Override
	public List<@Nullable String> get(List<String> keys, Deadline deadline) {
		List<Object> replies = this.redisTemplate.executePipelined((RedisCallback<@Nullable Object>) (connection) -> {
			for (String key : keys) {
				connection.stringCommands().get(bytes(key));
			}
			return null;
		});
		List<@Nullable String> results = new ArrayList<>(replies.size());
		for (Object reply : replies) {
			results.add((String) reply);
		}
		return results;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
