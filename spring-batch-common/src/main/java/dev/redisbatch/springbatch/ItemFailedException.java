package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.NonTransientDataAccessException;

/**
 * Thrown by {@code RedisBatchItemWriter} when Redis refused a command of an item
 * ({@code FAILED}, such as {@code WRONGTYPE}): the command did not run, and sending it
 * again would fail again. Skippable: with {@code skip(ItemFailedException.class)}, Spring
 * Batch writes the chunk again item by item, and the writer throws this exception for
 * each refused item alone, so that skip listeners receive the item with this exception.
 * Its message carries the Redis error, never key or value text.
 * <p>
 * Other commands of a skipped item that ran are not undone.
 *
 * @since 0.1.0
 */
public class ItemFailedException extends NonTransientDataAccessException {

	private final int items;

	/**
	 * Create an exception.
	 * @param message the message, with the Redis error and without key or value text
	 * @param items how many items of the chunk Redis refused
	 * @param cause the batch failure, if any
	 */
	public ItemFailedException(String message, int items, @Nullable Throwable cause) {
		super(message, cause);
		this.items = items;
	}

	/**
	 * How many items of the chunk Redis refused.
	 * @return the count
	 */
	public int getItemCount() {
		return this.items;
	}

}
