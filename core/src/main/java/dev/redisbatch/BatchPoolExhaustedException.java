package dev.redisbatch;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * No batch connection became free within {@code redis.batch.pool.max-wait}. The batch
 * sent nothing for the commands concerned (they are {@link Outcome#NOT_SENT}); it is safe
 * to retry later.
 *
 * @since 0.1.0
 */
public class BatchPoolExhaustedException extends TransientDataAccessResourceException {

	/**
	 * Create an exception.
	 * @param message what happened and what to change
	 */
	public BatchPoolExhaustedException(String message) {
		super(message);
	}

}
