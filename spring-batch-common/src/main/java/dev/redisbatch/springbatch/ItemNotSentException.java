package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.TransientDataAccessException;

/**
 * Thrown by {@code RedisBatchItemWriter} when some items of a chunk were not written but
 * may safely be written again: their commands were not sent ({@code NOT_SENT}), or their
 * outcome is {@code UNKNOWN} and they are idempotent or can be checked with an
 * {@link AppliedCheck}. Retryable: a retried write sends only what is left. It is a
 * {@link TransientDataAccessException}, so
 * {@code retry(TransientDataAccessException.class)} covers it.
 *
 * @since 0.1.0
 */
public class ItemNotSentException extends TransientDataAccessException {

	private final int items;

	/**
	 * Create an exception.
	 * @param message the message, without key or value text
	 * @param items how many items of the chunk are left to write
	 * @param cause the batch failure, if any
	 */
	public ItemNotSentException(String message, int items, @Nullable Throwable cause) {
		super(message, cause);
		this.items = items;
	}

	/**
	 * How many items of the chunk are left to write.
	 * @return the count
	 */
	public int getItemCount() {
		return this.items;
	}

}
