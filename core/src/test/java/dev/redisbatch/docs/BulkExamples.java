package dev.redisbatch.docs;

import java.time.Duration;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.BulkException;
import dev.redisbatch.BulkResults;
import dev.redisbatch.ScanCursor;
import dev.redisbatch.StringBatchTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.ScanOptions;

/**
 * The examples of docs/bulk-and-polite-mode.md: bulk operations by pattern, a resumable
 * one, and polite batches.
 */
public class BulkExamples {

	private static final Log logger = LogFactory.getLog(BulkExamples.class);

	private final StringBatchTemplate batchTemplate;

	public BulkExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	public BulkResults purgeOrders() {
		BulkResults results = this.batchTemplate.scan(ScanOptions.scanOptions().match("order:*").count(1000).build())
			.unlink();
		// keys SCAN returned (a key may come twice) and keys the UNLINKs removed
		logger.info(results.keysMatched() + " matched, " + results.keysChanged() + " removed");
		return results;
	}

	public long countOrders() {
		// a dry run: nothing is sent to the keys
		return this.batchTemplate.scan(ScanOptions.scanOptions().match("order:*").build()).count().keysMatched();
	}

	/**
	 * Expire every session key, from where an earlier run stopped.
	 * @param savedToken the token an earlier run returned, or {@code null}
	 * @return the token to save: {@code scan1:complete} once every key is done
	 */
	public String expireSessions(@Nullable String savedToken) {
		ScanCursor from = (savedToken != null) ? ScanCursor.fromToken(savedToken) : null;
		try {
			BulkResults results = this.batchTemplate
				.scan(ScanOptions.scanOptions().match("session:*").count(1000).build())
				.from(from)
				.expire(Duration.ofHours(1));
			return results.cursor().toToken();
		}
		catch (BulkException ex) {
			// ex.getResults() accounts for every command sent; nothing left undone is
			// skipped when the next run starts from this cursor
			logger.warn("Session expiry stopped early: " + ex.getBulkResults().summary());
			return ex.getBulkResults().cursor().toToken();
		}
	}

	public BatchResults backfill(Map<String, String> orders) {
		BatchOptions polite = BatchOptions.builder()
			.name("order-backfill")
			// leave the server room for online traffic
			.maxCommandsPerSecond(20_000)
			.maxBytesPerSecond(8 * 1024 * 1024)
			// a server loading its data after a restart (LOADING) or running a long
			// script (BUSY) pauses the batch: up to 10 pauses of 1 s
			.retry(10, Duration.ofSeconds(1))
			.build();
		return this.batchTemplate.execute(polite, (batch) -> orders.forEach(batch::set));
	}

	public BulkResults purgeOrdersPolitely() {
		BatchOptions polite = BatchOptions.builder().name("order-purge").maxCommandsPerSecond(10_000).build();
		return this.batchTemplate.scan(ScanOptions.scanOptions().match("order:*").count(1000).build())
			.options(polite)
			.unlink();
	}

}
