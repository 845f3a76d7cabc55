package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatch;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An {@link RedisBatch @RedisBatch} method of a Spring bean that runs plain
 * {@link StringRedisTemplate} code ({@code opsForValue().set(k, v, ttl)} in a loop, and
 * so on): the annotation pipelines the template's calls on a batch connection. This is
 * the cost of keeping existing template code and adding one annotation.
 * <p>
 * Template reads return {@code null} inside a batch (as in any pipeline), so the reads go
 * through {@link StringBatchTemplate#execute}, which joins the method's batch.
 */
final class RedisBatchMethodStrategy implements Strategy {

	private final ConfigurableApplicationContext context;

	private final Writer writer;

	RedisBatchMethodStrategy(Endpoint endpoint) {
		this.context = BootRedis.start(endpoint, List.of(Writer.class));
		this.writer = this.context.getBean(Writer.class);
	}

	@Override
	public long set(Workload workload) {
		// the method throws BatchException unless every SET succeeded
		this.writer.setAll(workload.keys(), workload.values());
		return workload.size();
	}

	@Override
	public long get(Workload workload) {
		List<Response<@Nullable String>> responses = this.writer.getAll(workload.keys());
		return workload.matchingValues(responses.size(), (i) -> responses.get(i).get());
	}

	@Override
	public long mixed(Workload workload) {
		List<Response<@Nullable String>> reads = this.writer.mixed(workload.counterKeys(), workload.hashKeys(),
				workload.keys(), workload.values());
		// the method throws BatchException unless every command succeeded: the INCR,
		// HSET and EXPIRE of each entity count, and its GET when it read the value
		long answered = 3L * reads.size();
		String[] values = workload.values();
		for (int i = 0; i < reads.size(); i++) {
			if (values[i].equals(reads.get(i).get())) {
				answered++;
			}
		}
		return answered;
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		this.writer.setGenerated(count, keys, value);
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * The application's code: template calls in {@code @RedisBatch} methods.
	 */
	static class Writer {

		private static final Duration TTL = Workload.TTL;

		private final StringRedisTemplate redisTemplate;

		private final StringBatchTemplate batchTemplate;

		Writer(StringRedisTemplate redisTemplate, StringBatchTemplate batchTemplate) {
			this.redisTemplate = redisTemplate;
			this.batchTemplate = batchTemplate;
		}

		@RedisBatch(name = "benchmark")
		public void setAll(String[] keys, String[] values) {
			for (int i = 0; i < keys.length; i++) {
				this.redisTemplate.opsForValue().set(keys[i], values[i], TTL);
			}
		}

		@RedisBatch(name = "benchmark")
		public List<Response<@Nullable String>> getAll(String[] keys) {
			List<Response<@Nullable String>> responses = new ArrayList<>(keys.length);
			this.batchTemplate.execute((batch) -> {
				for (String key : keys) {
					responses.add(batch.get(key));
				}
			});
			return responses;
		}

		@RedisBatch(name = "benchmark")
		public List<Response<@Nullable String>> mixed(String[] counters, String[] hashes, String[] keys,
				String[] values) {
			List<Response<@Nullable String>> reads = new ArrayList<>(counters.length);
			this.batchTemplate.execute((batch) -> {
				for (int i = 0; i < counters.length; i++) {
					this.redisTemplate.opsForValue().increment(counters[i]);
					this.redisTemplate.opsForHash().put(hashes[i], Workload.FIELD, values[i]);
					this.redisTemplate.expire(hashes[i], TTL);
					reads.add(batch.get(keys[i]));
				}
			});
			return reads;
		}

		@RedisBatch(name = "benchmark")
		public void setGenerated(int count, IntFunction<String> keys, String value) {
			for (int i = 0; i < count; i++) {
				this.redisTemplate.opsForValue().set(keys.apply(i), value, TTL);
			}
		}

	}

}
