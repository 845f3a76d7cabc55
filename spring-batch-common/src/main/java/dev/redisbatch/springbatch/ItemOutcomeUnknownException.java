package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.NonTransientDataAccessException;

/**
 * Thrown by {@code RedisBatchItemWriter} when commands of an item that are not idempotent
 * were sent and no reply came ({@code UNKNOWN}): they may or may not have run, so the
 * writer neither sends them again (that could run them twice) nor takes them as written
 * (that could lose the item). The chunk fails; so does every later attempt at it, until
 * someone decides.
 * <p>
 * To let the writer decide, make the mapper idempotent, or give the writer an
 * {@link AppliedCheck} that reads whether the commands ran.
 *
 * @since 0.1.0
 */
public class ItemOutcomeUnknownException extends NonTransientDataAccessException {

	private final int items;

	/**
	 * Create an exception.
	 * @param message the message, without key or value text
	 * @param items how many items of the chunk have an unknown outcome
	 * @param cause the batch failure, if any
	 */
	public ItemOutcomeUnknownException(String message, int items, @Nullable Throwable cause) {
		super(message, cause);
		this.items = items;
	}

	/**
	 * How many items of the chunk have an unknown outcome.
	 * @return the count
	 */
	public int getItemCount() {
		return this.items;
	}

}
