package dev.redisbatch;

/**
 * Records the commands of one batch. Commands are queued, sent in chunks as they fill up,
 * and completed by the time {@link BatchOperations#execute(BatchCallback) execute}
 * returns.
 * <p>
 * The {@link Batch} is only valid inside the callback and on the calling thread.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
@FunctionalInterface
public interface BatchCallback<K, V> {

	/**
	 * Record the commands of the batch.
	 * @param batch where to record commands
	 */
	void doInBatch(Batch<K, V> batch);

}
