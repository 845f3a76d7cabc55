package dev.redisbatch.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Spring Data Redis's {@code executePipelined} on Boot's auto-configured
 * {@code StringRedisTemplate}, written the usual way: a {@link RedisCallback} that sends
 * the commands on the connection it is given.
 * <p>
 * The variants are Boot's defaults with commons-pool2 (pooled, the flush policy
 * {@code flushEachCommand}), Boot's defaults without commons-pool2 (no pool: a new
 * connection per pipeline), and the pooled factory with the flush policy set to
 * {@code flushOnClose} or {@code buffered(1000)}.
 */
final class ExecutePipelinedStrategy implements Strategy {

	private static final Expiration EXPIRATION = Expiration.from(Workload.TTL);

	private static final byte[] FIELD = bytes(Workload.FIELD);

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate template;

	private final String configuration;

	/**
	 * Create the strategy.
	 * @param endpoint where to connect
	 * @param pooled whether Boot's pool is enabled (the default with commons-pool2)
	 * @param flushPolicy the flush policy to set on Boot's factory, or {@code null} to
	 * keep the default
	 */
	ExecutePipelinedStrategy(Endpoint endpoint, boolean pooled, @Nullable PipeliningFlushPolicy flushPolicy) {
		this.context = pooled ? BootRedis.start(endpoint)
				: BootRedis.start(endpoint, "spring.data.redis.lettuce.pool.enabled=false");
		if (flushPolicy != null) {
			this.context.getBean(LettuceConnectionFactory.class).setPipeliningFlushPolicy(flushPolicy);
		}
		this.template = this.context.getBean(StringRedisTemplate.class);
		this.configuration = BootRedis.describe(this.context);
	}

	/**
	 * Which connection factory configuration Boot created.
	 * @return a description
	 */
	String configuration() {
		return this.configuration;
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		List<Object> results = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (int i = 0; i < keys.length; i++) {
				connection.stringCommands().set(bytes(keys[i]), bytes(values[i]), EXPIRATION, SetOption.upsert());
			}
			return null;
		});
		long acknowledged = 0;
		for (Object result : results) {
			if (Boolean.TRUE.equals(result)) {
				acknowledged++;
			}
		}
		return acknowledged;
	}

	@Override
	public long get(Workload workload) {
		String[] keys = workload.keys();
		List<Object> results = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (String key : keys) {
				connection.stringCommands().get(bytes(key));
			}
			return null;
		});
		return workload.matchingValues(results.size(), (i) -> results.get(i));
	}

	@Override
	public long mixed(Workload workload) {
		String[] counters = workload.counterKeys();
		String[] hashes = workload.hashKeys();
		String[] keys = workload.keys();
		String[] values = workload.values();
		List<Object> results = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (int i = 0; i < counters.length; i++) {
				byte[] hash = bytes(hashes[i]);
				connection.stringCommands().incr(bytes(counters[i]));
				connection.hashCommands().hSet(hash, FIELD, bytes(values[i]));
				connection.keyCommands().expire(hash, Workload.TTL);
				connection.stringCommands().get(bytes(keys[i]));
			}
			return null;
		});
		return workload.answeredMixed(results.size(), results::get);
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		byte[] valueBytes = bytes(value);
		this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (int i = 0; i < count; i++) {
				connection.stringCommands().set(bytes(keys.apply(i)), valueBytes, EXPIRATION, SetOption.upsert());
			}
			return null;
		});
	}

	@Override
	public void close() {
		this.context.close();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
