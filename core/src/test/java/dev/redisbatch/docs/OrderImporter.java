package dev.redisbatch.docs;

import java.time.Duration;
import java.util.Map;

import dev.redisbatch.annotation.RedisBatch;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * The {@code @RedisBatch} service of docs/getting-started.md, "Without Spring Boot".
 */
@Service
public class OrderImporter {

	private final StringRedisTemplate redisTemplate;

	public OrderImporter(StringRedisTemplate redisTemplate) {
		this.redisTemplate = redisTemplate;
	}

	@RedisBatch
	public void importAll(Map<Long, String> orders) {
		// one pipelined batch on the batch pool instead of a round trip per order
		orders.forEach((id, json) -> this.redisTemplate.opsForValue().set("order:" + id, json, Duration.ofHours(1)));
	}

}
