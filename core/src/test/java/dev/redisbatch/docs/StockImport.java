package dev.redisbatch.docs;

import java.time.Duration;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;

import org.springframework.stereotype.Service;

/**
 * The example of exactly once across runs in docs/reliability.md: a delivery file's
 * quantities added to the stock once, even when the import is run again after the
 * application stopped in the middle of it.
 */
@Service
public class StockImport {

	private final StringBatchTemplate batchTemplate;

	public StockImport(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Add a delivery to the stock.
	 * @param file the delivery file's name: it names the batch
	 * @param lines the file's lines, in the file's order
	 * @return the batch's results
	 */
	public BatchResults importDelivery(String file, List<DeliveryLine> lines) {
		// the file names the batch: run again within a day, the chunks that ran are found
		// and not run again
		BatchOptions once = BatchOptions.builder().exactlyOnce("delivery:" + file, Duration.ofDays(1)).build();
		return this.batchTemplate.execute(once,
				(batch) -> lines.forEach((line) -> batch.incrBy("stock:" + line.sku(), line.quantity())));
	}

	/**
	 * One line of a delivery file.
	 *
	 * @param sku the article
	 * @param quantity how many came
	 */
	public record DeliveryLine(String sku, long quantity) {
	}

}
