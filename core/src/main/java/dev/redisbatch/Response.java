package dev.redisbatch;

import org.jspecify.annotations.Nullable;

/**
 * The typed result of one command in a batch. It is complete when
 * {@link BatchOperations#execute(BatchCallback) execute} returns or throws, and stays
 * valid afterwards.
 *
 * @param <T> the type of the value
 * @since 0.1.0
 */
public interface Response<T extends @Nullable Object> {

	/**
	 * The value Redis answered, deserialized with the template's serializers.
	 * @return the value; {@code null} where Redis answered nil (a missing key, for
	 * example)
	 * @throws BatchCommandException if the outcome is not {@link Outcome#SUCCESS}; its
	 * message carries the Redis error or the reason
	 * @throws IllegalStateException if called before the batch completed (inside the
	 * callback)
	 */
	T get();

	/**
	 * How the command ended.
	 * @return the outcome
	 * @throws IllegalStateException if called before the batch completed (inside the
	 * callback)
	 */
	Outcome outcome();

}
