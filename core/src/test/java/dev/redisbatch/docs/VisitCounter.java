package dev.redisbatch.docs;

import java.util.List;

import dev.redisbatch.annotation.RedisBatch;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * The exactly-once {@code @RedisBatch} example of docs/annotation.md.
 */
@Service
public class VisitCounter {

	private final StringRedisTemplate redisTemplate;

	public VisitCounter(StringRedisTemplate redisTemplate) {
		this.redisTemplate = redisTemplate;
	}

	@RedisBatch(exactlyOnce = true)
	public void countVisits(List<String> pages) {
		// each INCR runs once, even if a batch connection drops before its reply came
		pages.forEach((page) -> this.redisTemplate.opsForValue().increment("visits:" + page));
	}

}
