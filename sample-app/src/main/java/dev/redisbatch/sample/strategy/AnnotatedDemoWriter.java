package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatch;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Service;

/**
 * Plain {@link StringRedisTemplate} code — the loop a service already has — made a
 * pipeline by {@link RedisBatch @RedisBatch}.
 *
 * @since 0.1.0
 */
@Service
public class AnnotatedDemoWriter {

	/**
	 * The batch name these methods report under.
	 */
	public static final String BATCH_NAME = "sample.redis-batch-annotation";

	private final ValueOperations<String, String> values;

	private final StringBatchTemplate batchTemplate;

	/**
	 * Create the writer.
	 * @param redisTemplate the application's template
	 * @param batchTemplate the batch template, for reads inside the batch
	 */
	public AnnotatedDemoWriter(StringRedisTemplate redisTemplate, StringBatchTemplate batchTemplate) {
		this.values = redisTemplate.opsForValue();
		this.batchTemplate = batchTemplate;
	}

	/**
	 * One {@code SET} per key with the template: without the annotation, one round trip
	 * each; with it, one batch of chunks.
	 * @param data the keys and values
	 * @param ttl the time to live of every key
	 */
	@RedisBatch(name = BATCH_NAME)
	public void setAll(DemoData data, Duration ttl) {
		for (int i = 0; i < data.size(); i++) {
			this.values.set(data.keys().get(i), data.values().get(i), ttl);
		}
	}

	/**
	 * One {@code GET} per key. Template reads return {@code null} inside a batch, so the
	 * reads go through {@link StringBatchTemplate#execute}, which joins the batch and
	 * whose responses are complete when it returns.
	 * @param keys the keys
	 * @return the values, in key order
	 */
	@RedisBatch(name = BATCH_NAME)
	public List<@Nullable String> getAll(List<String> keys) {
		List<Response<@Nullable String>> responses = new ArrayList<>(keys.size());
		this.batchTemplate.execute((batch) -> keys.forEach((key) -> responses.add(batch.get(key))));
		List<@Nullable String> results = new ArrayList<>(keys.size());
		responses.forEach((response) -> results.add(response.get()));
		return results;
	}

}
