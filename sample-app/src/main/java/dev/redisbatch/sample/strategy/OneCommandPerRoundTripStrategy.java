package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.Order;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Component;

/**
 * One command per round trip: each {@code SET} or {@code GET} waits for its reply before
 * the next one is sent, on the application's shared {@link StringRedisTemplate}
 * connection. Its rate is bound to one command per round-trip time.
 *
 * @since 0.1.0
 */
@Component
@Order(10)
public class OneCommandPerRoundTripStrategy implements DemoStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "one-per-round-trip";

	private final ValueOperations<String, String> values;

	/**
	 * Create the strategy.
	 * @param redisTemplate the application's template
	 */
	public OneCommandPerRoundTripStrategy(StringRedisTemplate redisTemplate) {
		this.values = redisTemplate.opsForValue();
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String description() {
		return "StringRedisTemplate, one SET or GET at a time: every command waits a full round trip for its reply.";
	}

	@Override
	public int set(DemoData data, Duration ttl, Deadline deadline) {
		int done = 0;
		for (int i = 0; i < data.size() && !deadline.hasPassed(); i++) {
			this.values.set(data.keys().get(i), data.values().get(i), ttl);
			done++;
		}
		return done;
	}

	@Override
	public List<@Nullable String> get(List<String> keys, Deadline deadline) {
		List<@Nullable String> results = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size() && !deadline.hasPassed(); i++) {
			results.add(this.values.get(keys.get(i)));
		}
		return results;
	}

}
