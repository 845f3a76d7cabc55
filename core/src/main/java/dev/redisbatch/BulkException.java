package dev.redisbatch;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a bulk operation ({@link BulkOperations}) did not complete: a command did
 * not succeed, or the scan of a master stopped. {@link #getResults()} accounts for every
 * command sent, as for any batch; {@link #getBulkResults()} adds the keys matched and the
 * {@link BulkResults#cursor() cursor} to resume from.
 *
 * @since 0.1.0
 */
public class BulkException extends BatchException {

	private final BulkResults bulkResults;

	/**
	 * Create an exception for the given results.
	 * @param message what did not complete
	 * @param bulkResults the results of the bulk operation
	 * @param cause why it stopped, if known
	 */
	public BulkException(String message, BulkResults bulkResults, @Nullable Throwable cause) {
		super(message, bulkResults.commands(), cause);
		this.bulkResults = bulkResults;
	}

	/**
	 * The results of the bulk operation, with the cursor to resume from.
	 * @return the results
	 */
	public BulkResults getBulkResults() {
		return this.bulkResults;
	}

}
