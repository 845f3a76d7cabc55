package dev.redisbatch;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.ScanOptions;

/**
 * Batched (pipelined) Redis access. Implemented by {@link BatchTemplate}; depend on this
 * interface.
 *
 * <pre class="code">
 * BatchResults results = batchOperations.execute((batch) -&gt; {
 *     for (Order order : orders) {
 *         batch.set("order:" + order.id(), order.json(), Duration.ofHours(1));
 *     }
 * });
 * </pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
public interface BatchOperations<K, V> {

	/**
	 * Run the commands the callback records as one batch, with the default options.
	 * @param callback records the commands
	 * @return the results, when every command succeeded
	 * @throws BatchException when any command did not succeed; its results account for
	 * every command
	 * @see #execute(BatchOptions, BatchCallback)
	 */
	BatchResults execute(BatchCallback<K, V> callback);

	/**
	 * Run the commands the callback records as one batch. Commands are sent in chunks of
	 * {@code chunkSize} as soon as a chunk fills, while the chunks in flight fit in the
	 * window ({@code maxInFlightBytes} and {@code maxInFlightCommands}), pipelined on a
	 * pooled connection of the batch's own (one per server), so they run in the order
	 * they were recorded. The call returns once every command has its outcome.
	 * @param options the options; unset values come from the template's defaults
	 * @param callback records the commands
	 * @return the results, when every command succeeded
	 * @throws BatchException when any command did not succeed; its results account for
	 * every command, and the {@link Response} handles stay valid
	 * @throws IllegalArgumentException for invalid options or input, before any I/O
	 */
	BatchResults execute(BatchOptions options, BatchCallback<K, V> callback);

	/**
	 * {@code GET} every key in one batch.
	 * @param keys the keys; none may be {@code null}
	 * @return the values, aligned with the keys, {@code null} where a key does not exist
	 * @throws BatchException when any GET did not succeed
	 */
	List<@Nullable V> getAll(Collection<K> keys);

	/**
	 * {@code SET} every entry in one batch.
	 * @param entries the keys and values; none may be {@code null}
	 * @param ttl the time to live of every key, or {@code null} for no expiry
	 * @throws BatchException when any SET did not succeed
	 */
	void setAll(Map<K, V> entries, @Nullable Duration ttl);

	/**
	 * A bulk operation on every key that matches a scan, on every master: choose the
	 * operation on the returned object, for example
	 * {@code scan(ScanOptions.scanOptions().match("order:*").count(1000).build()).unlink()}.
	 * Nothing runs until then. Only operations that are safe when {@code SCAN} returns a
	 * key twice are offered; the results (or the {@link BulkException}) carry the cursor
	 * to resume from.
	 * @param options {@code MATCH}, {@code COUNT} and {@code TYPE} of the scan
	 * @return the bulk operations
	 * @throws IllegalArgumentException for invalid options (such as a {@code COUNT} below
	 * 1), before any I/O
	 * @see BulkOperations
	 */
	BulkOperations scan(ScanOptions options);

}
