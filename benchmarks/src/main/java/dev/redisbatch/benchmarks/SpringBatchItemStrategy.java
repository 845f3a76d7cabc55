package dev.redisbatch.benchmarks;

import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.redis.RedisItemReader;
import org.springframework.batch.infrastructure.item.redis.RedisItemWriter;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Spring Batch's own {@code RedisItemWriter} and {@code RedisItemReader} on Boot's
 * auto-configured {@code StringRedisTemplate}: one round trip per item. SET writes the
 * workload in chunks of {@link #CHUNK} items, as a chunk-oriented step calls
 * {@code write}; GET reads every key of the server with the reader ({@code SCAN COUNT}
 * {@value #CHUNK}, then one {@code GET} per key). {@code RedisItemWriter} cannot set a
 * TTL, so the Spring Batch strategies write without one. The mixed batch and the memory
 * runs do not apply.
 */
final class SpringBatchItemStrategy implements Strategy {

	/**
	 * Items per chunk (and {@code SCAN COUNT}) of both Spring Batch strategies.
	 */
	static final int CHUNK = 1000;

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate template;

	SpringBatchItemStrategy(Endpoint endpoint) {
		this.context = BootRedis.start(endpoint);
		this.template = this.context.getBean(StringRedisTemplate.class);
	}

	/**
	 * How many items one operation writes or reads for a workload of {@code requested}:
	 * one round trip per item makes a 100,000-item operation take minutes once the proxy
	 * adds a round trip, so it is capped there (items per second do not depend on it).
	 * @param requested the workload size
	 * @param rttMillis the round trip the proxy adds
	 * @return the number of items
	 */
	static int items(int requested, int rttMillis) {
		return (rttMillis == 0) ? requested : Math.min(requested, Math.max(500, 5000 / rttMillis));
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		// the writer's items are the values; its key mapper finds each one's key
		Map<String, String> keyOf = new IdentityHashMap<>(keys.length * 2);
		for (int i = 0; i < keys.length; i++) {
			keyOf.put(values[i], keys[i]);
		}
		RedisItemWriter<String, String> writer = new RedisItemWriter<>(keyOf::get, this.template);
		List<String> items = Arrays.asList(values);
		try {
			for (int from = 0; from < items.size(); from += CHUNK) {
				writer.write(new Chunk<>(items.subList(from, Math.min(items.size(), from + CHUNK))));
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		// write(...) throws when a command fails
		return keys.length;
	}

	@Override
	public long get(Workload workload) {
		Set<String> expected = new HashSet<>(Arrays.asList(workload.values()));
		RedisItemReader<String, String> reader = new RedisItemReader<>(this.template,
				ScanOptions.scanOptions().count(CHUNK).build());
		reader.open(new ExecutionContext());
		long matching = 0;
		try {
			for (String value = read(reader); value != null; value = read(reader)) {
				matching += expected.contains(value) ? 1 : 0;
			}
		}
		finally {
			reader.close();
		}
		return matching;
	}

	private static String read(RedisItemReader<String, String> reader) {
		try {
			return reader.read();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public long mixed(Workload workload) {
		throw new UnsupportedOperationException("The Spring Batch strategies write and read items only");
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		throw new UnsupportedOperationException("The Spring Batch strategies write and read items only");
	}

	@Override
	public void close() {
		this.context.close();
	}

}
