package dev.redisbatch.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;

import org.springframework.stereotype.Service;

/**
 * The exactly-once example of docs/reliability.md: points awarded once each, and every
 * member's new total, even when a connection drops mid-batch.
 */
@Service
public class LoyaltyPoints {

	private static final BatchOptions EXACTLY_ONCE = BatchOptions.builder().exactlyOnce(true).build();

	private final StringBatchTemplate batchTemplate;

	public LoyaltyPoints(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Award points.
	 * @param points the points of each member
	 * @return each member's new total, in the map's order
	 */
	public List<Long> award(Map<String, Long> points) {
		List<Response<Long>> totals = new ArrayList<>(points.size());
		this.batchTemplate.execute(EXACTLY_ONCE,
				(batch) -> points.forEach((member, awarded) -> totals.add(batch.incrBy("points:" + member, awarded))));
		// each INCRBY ran once, and its own reply is here even if its connection dropped
		return totals.stream().map(Response::get).toList();
	}

}
