package dev.redisbatch.docs;

import java.time.Duration;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;

/**
 * The examples of docs/cluster.md.
 */
public class ClusterExamples {

	private final StringBatchTemplate batchTemplate;

	public ClusterExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Keys of one user under one hash tag, so that one MULTI/EXEC on one master can hold
	 * them all.
	 * @param userId the user
	 * @param profile the profile fields
	 * @return the results
	 */
	public BatchResults saveUserAtomically(long userId, Map<String, String> profile) {
		// tag::hash-tags[]
		// every key below is in the slot of "user:42"
		String tag = "{user:" + userId + "}";
		BatchOptions transactional = BatchOptions.builder().transactional(true).build();
		return this.batchTemplate.execute(transactional, (batch) -> {
			profile.forEach((field, value) -> batch.hset(tag + ":profile", field, value));
			batch.incr(tag + ":version");
			batch.expire(tag + ":profile", Duration.ofDays(30));
		});
		// end::hash-tags[]
	}

	/**
	 * A batch over many masters, and what to do with the commands of a master that
	 * failed.
	 * @param prices the prices by product key
	 * @return how many were not sent
	 */
	public long updatePrices(Map<String, String> prices) {
		// tag::failures[]
		BatchResults results;
		try {
			results = this.batchTemplate.execute((batch) -> prices.forEach(batch::set));
		}
		catch (dev.redisbatch.BatchException ex) {
			// A master died mid-batch: the other masters' commands succeeded; its own are
			// UNKNOWN (sent, no reply) or NOT_SENT (safe to send again).
			results = ex.getResults();
		}
		return results.count(Outcome.NOT_SENT);
		// end::failures[]
	}

}
