package dev.redisbatch.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntFunction;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Spring Data Redis's {@code executePipelined} on Boot's auto-configured
 * {@code StringRedisTemplate}, written the usual way: a {@link RedisCallback} that sends
 * the commands on the connection it is given. With commons-pool2 on the classpath Boot
 * pools the connections; without it (here
 * {@code spring.data.redis.lettuce.pool.enabled=false}) every {@code executePipelined}
 * opens a connection of its own.
 */
final class ExecutePipelinedStrategy implements Strategy {

	private static final Expiration EXPIRATION = Expiration.from(Workload.TTL);

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate template;

	/**
	 * Create the strategy.
	 * @param endpoint where to connect
	 * @param pooled whether Boot's pool is enabled (the default with commons-pool2)
	 */
	ExecutePipelinedStrategy(Endpoint endpoint, boolean pooled) {
		this.context = pooled ? BootRedis.start(endpoint, List.of())
				: BootRedis.start(endpoint, List.of(), "spring.data.redis.lettuce.pool.enabled=false");
		this.template = this.context.getBean(StringRedisTemplate.class);
	}

	/**
	 * Which connection factory configuration Boot created.
	 * @return a description
	 */
	String configuration() {
		return BootRedis.describe(this.context);
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
		return results.stream().filter(Boolean.TRUE::equals).count();
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
		return workload.matchingValues(results.size(), results::get);
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
