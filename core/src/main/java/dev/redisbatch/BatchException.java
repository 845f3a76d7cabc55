package dev.redisbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/**
 * Thrown when a batch did not fully succeed. {@link #getResults()} accounts for every
 * command: how many ended in each {@link Outcome}, and each failure with its index,
 * command name and error. The {@link Response} handles stay valid.
 *
 * @since 0.1.0
 */
public class BatchException extends DataAccessException {

	private final BatchResults results;

	/**
	 * Create an exception for the given results.
	 * @param results the results of the batch
	 * @param cause the reason the batch stopped early, if it did
	 */
	public BatchException(BatchResults results, @Nullable Throwable cause) {
		super(describe(results, cause), cause);
		this.results = results;
	}

	/**
	 * Create an exception with a message of its own.
	 * @param message the message (never a key or a value)
	 * @param results the results of the batch
	 * @param cause the reason the batch stopped early, if it did
	 */
	protected BatchException(String message, BatchResults results, @Nullable Throwable cause) {
		super(message, cause);
		this.results = results;
	}

	/**
	 * The outcome of every command of the batch.
	 * @return the results
	 */
	public BatchResults getResults() {
		return this.results;
	}

	private static String describe(BatchResults results, @Nullable Throwable cause) {
		StringBuilder message = new StringBuilder("Batch '").append(results.name())
			.append("' did not fully succeed: ")
			.append(results.summary());
		String stoppedBecause = results.abortReason();
		if (!results.failures().isEmpty()) {
			BatchFailure first = results.failures().get(0);
			// a command not sent because the batch stopped would only repeat the reason
			if (stoppedBecause == null || !Messages.isStopNotice(first)) {
				message.append("; first failure: ").append(first);
			}
		}
		if (stoppedBecause != null) {
			message.append("; stopped early: ").append(stoppedBecause);
		}
		return message.toString();
	}

}
