package dev.redisbatch.docs;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.redisbatch.BatchException;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The example of "Async batches" in docs/api-guide.md.
 */
public class AsyncExamples {

	private static final Log logger = LogFactory.getLog(AsyncExamples.class);

	private final StringBatchTemplate batchTemplate;

	public AsyncExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Save the sessions without blocking the caller.
	 * @param sessions the sessions by id
	 * @return how many were saved, once the batch is done
	 */
	public CompletableFuture<Long> saveSessions(Map<String, String> sessions) {
		// tag::async[]
		return this.batchTemplate
			.executeAsync(
					(batch) -> sessions.forEach((id, json) -> batch.set("session:" + id, json, Duration.ofMinutes(30))))
			.thenApply((results) -> results.count(Outcome.SUCCESS))
			.exceptionally((failure) -> {
				// the same BatchException execute(...) throws, wrapped by thenApply
				if (BatchTemplate.unwrap(failure) instanceof BatchException ex) {
					logger.warn("Some sessions were not saved: " + ex.getResults().summary());
					return ex.getResults().count(Outcome.SUCCESS);
				}
				throw new IllegalStateException(failure);
			});
		// end::async[]
	}

}
