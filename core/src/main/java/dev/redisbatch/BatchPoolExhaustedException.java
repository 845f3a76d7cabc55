package dev.redisbatch;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * No batch connection became free within {@code redis.batch.pool.max-wait}: the wait
 * passed while every connection of the pool was leased to other batches. The message says
 * how long the batch waited and how many connections were leased. The batch sent nothing
 * for the commands concerned (they are {@link Outcome#NOT_SENT}); it is safe to retry
 * later.
 * <p>
 * A connection that could not be opened or used is not an exhausted pool: that cause is a
 * {@link org.springframework.data.redis.RedisConnectionFailureException}, as soon as the
 * attempt fails, without waiting for {@code max-wait}.
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
