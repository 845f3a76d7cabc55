package dev.redisbatch.springbatch;

import dev.redisbatch.BatchTemplate;
import dev.redisbatch.ScanCursor;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.item.ExecutionContext;
import org.springframework.batch.item.ItemStreamReader;

/**
 * A restartable Spring Batch {@code ItemReader} of Redis keys and their values: keys come
 * from {@code SCAN} on every master (on a Redis Cluster, each master in turn; never a
 * replica), with {@code MATCH}, {@code COUNT} and an optional {@code TYPE}; the values of
 * each {@code SCAN} page are read by one pipelined batch (a {@link KeyFetcher} per key:
 * {@code GET}, {@code HGETALL}, or your own).
 *
 * <pre class="code">
 * RedisBatchItemReader&lt;String, String, String&gt; reader = RedisBatchItemReader
 *     .builder(batchTemplate, KeyFetcher.&lt;String, String&gt;get())
 *     .name("orders")
 *     .scanOptions(ScanOptions.scanOptions().match("order:*").count(1000).build())
 *     .build();
 * </pre>
 *
 * <h2>Duplicates</h2> {@code SCAN} returns every key present for the whole scan at least
 * once, and may return a key more than once; a restart re-reads the page it stopped in.
 * Processors and writers must tolerate an item seen twice (write idempotently, or
 * deduplicate). Keys removed between the scan and the fetch yield no item.
 * <h2>Restart</h2> The reader saves, under {@code <name>.cursor} in the step's execution
 * context, the {@link ScanCursor} token of the last page whose items were all handed out:
 * one {@code SCAN} cursor per master. A restarted step scans on from there; only the
 * items of the page it stopped in are read again.
 * <h2>Memory</h2> One page of keys and values at a time (about {@code COUNT} keys; Redis
 * may return more for small keyspaces).
 * <p>
 * Not thread-safe: wrap it in a {@code SynchronizedItemStreamReader} to share it.
 *
 * @param <K> the key type
 * @param <V> the value type of the template
 * @param <R> the type of what each key's fetcher reads
 * @since 0.1.0
 */
public final class RedisBatchItemReader<K, V, R> implements ItemStreamReader<RedisKeyValue<K, R>> {

	private final ScanPageReader<K, V, R> reader;

	private RedisBatchItemReader(ScanPageReader<K, V, R> reader) {
		this.reader = reader;
	}

	/**
	 * A builder for a reader.
	 * @param <K> the key type
	 * @param <V> the value type of the template
	 * @param <R> the type of what the fetcher reads
	 * @param template the template the scans and batches run on
	 * @param fetcher records the read of a key's value
	 * @return a builder
	 */
	public static <K, V, R> Builder<K, V, R> builder(BatchTemplate<K, V> template, KeyFetcher<K, V, R> fetcher) {
		return new Builder<>(template, fetcher);
	}

	@Override
	public void open(ExecutionContext executionContext) {
		this.reader.open(ExecutionContextState.of(executionContext));
	}

	@Override
	public @Nullable RedisKeyValue<K, R> read() {
		return this.reader.read();
	}

	@Override
	public void update(ExecutionContext executionContext) {
		this.reader.update(ExecutionContextState.of(executionContext));
	}

	@Override
	public void close() {
		this.reader.close();
	}

	/**
	 * Builds a {@link RedisBatchItemReader}: the settings of {@link ReaderSettings}, and
	 * {@link #build()}.
	 *
	 * @param <K> the key type
	 * @param <V> the value type of the template
	 * @param <R> the type of what the fetcher reads
	 * @since 0.1.0
	 */
	public static final class Builder<K, V, R> extends ReaderSettings<K, V, R, Builder<K, V, R>> {

		private Builder(BatchTemplate<K, V> template, KeyFetcher<K, V, R> fetcher) {
			super(template, fetcher);
		}

		/**
		 * Build the reader. The scan options are checked now, before any I/O.
		 * @return the reader
		 */
		public RedisBatchItemReader<K, V, R> build() {
			return new RedisBatchItemReader<>(scanPageReader());
		}

	}

}
