package dev.redisbatch.docs;

import java.time.Duration;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BoundBatch;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatch;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * The examples of docs/annotation.md.
 */
@Service
public class AnnotationExamples {

	private final StringRedisTemplate redisTemplate;

	private final StringBatchTemplate batchTemplate;

	private final RedisConnectionFactory connectionFactory;

	public AnnotationExamples(StringRedisTemplate redisTemplate, StringBatchTemplate batchTemplate,
			RedisConnectionFactory connectionFactory) {
		this.redisTemplate = redisTemplate;
		this.batchTemplate = batchTemplate;
		this.connectionFactory = connectionFactory;
	}

	// tag::annotated[]
	@RedisBatch(name = "order-cache", chunkSize = 1000)
	public void cacheAll(List<Order> orders) {
		for (Order order : orders) {
			this.redisTemplate.opsForValue().set("order:" + order.id(), order.json(), Duration.ofHours(1));
		}
	}
	// end::annotated[]

	// tag::reads[]
	@RedisBatch
	public long refreshAndCount(List<Order> orders) {
		for (Order order : orders) {
			// inside the batch, template calls return null
			this.redisTemplate.opsForValue().set("order:" + order.id(), order.json());
		}
		// Reads: execute joins the batch; its responses are complete on return
		Response<Long>[] count = new Response[1];
		this.batchTemplate.execute((batch) -> count[0] = batch.incr("orders:refreshes"));
		return count[0].get();
	}
	// end::reads[]

	@RedisBatch
	public void refreshAndCountFailing() {
		this.redisTemplate.opsForValue().increment("order:5");
	}

	public void programmatic(List<Order> orders) {
		// tag::programmatic[]
		try (BoundBatch batch = this.batchTemplate.bind(BatchOptions.defaults(), List.of(this.connectionFactory))) {
			try {
				orders.forEach((order) -> this.redisTemplate.opsForValue().set("order:" + order.id(), order.json()));
			}
			catch (RuntimeException ex) {
				throw batch.fail(ex);
			}
			batch.complete(); // throws BatchException unless every command succeeded
		}
		// end::programmatic[]
	}

}
