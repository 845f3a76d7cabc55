package dev.redisbatch.springbatch;

import dev.redisbatch.Batch;
import dev.redisbatch.Response;

/**
 * Tells whether the commands of an item whose outcome is {@code UNKNOWN} (sent, no reply)
 * took effect, by reading Redis: what {@code RedisBatchItemWriter} asks before it writes
 * such an item again with a mapper that is not idempotent. The checks of a chunk run as
 * one batch.
 *
 * <pre class="code">
 * // the mapper increments a counter per item: it ran if the counter exists
 * AppliedCheck&lt;String, String, Visit&gt; check = (batch, visit) -&gt; batch.exists("visits:" + visit.id());
 * </pre>
 *
 * The answer must be certain: {@code true} only if every such command ran, {@code false}
 * only if none did. That holds for a mapper of one command whose effect can be read, or
 * one whose commands run in one script.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 * @since 0.1.0
 */
@FunctionalInterface
public interface AppliedCheck<K, V, T> {

	/**
	 * Record the read that tells whether an item's commands ran.
	 * @param batch the batch of the checks
	 * @param item the item
	 * @return {@code true} if they ran, {@code false} if they did not
	 */
	Response<Boolean> wasApplied(Batch<K, V> batch, T item);

}
