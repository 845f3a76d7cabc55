package dev.redisbatch.docs;

import java.time.Duration;
import java.util.List;

import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;

import org.springframework.stereotype.Service;

@Service
public class OrderCache {

	private final StringBatchTemplate batchTemplate;

	public OrderCache(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	public BatchResults cacheAll(List<Order> orders) {
		return this.batchTemplate.execute((batch) -> {
			for (Order order : orders) {
				batch.set("order:" + order.id(), order.json(), Duration.ofHours(1));
			}
		});
	}

	public List<String> findAll(List<Long> ids) {
		List<String> keys = ids.stream().map((id) -> "order:" + id).toList();
		return this.batchTemplate.getAll(keys); // aligned with ids, null where missing
	}

}
