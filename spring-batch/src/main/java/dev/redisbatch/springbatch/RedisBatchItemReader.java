package dev.redisbatch.springbatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.KeyScanner;
import dev.redisbatch.Response;
import dev.redisbatch.ScanCursor;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

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

	private final BatchTemplate<K, V> template;

	private final KeyFetcher<K, V, R> fetcher;

	private final ScanOptions scanOptions;

	private final BatchOptions options;

	private final String cursorKey;

	private final boolean saveState;

	private final ArrayDeque<RedisKeyValue<K, R>> buffer = new ArrayDeque<>();

	private @Nullable KeyScanner<K> scanner;

	private @Nullable List<K> page;

	/**
	 * The position after the last page whose items were all handed out.
	 */
	private ScanCursor checkpoint = ScanCursor.start();

	private RedisBatchItemReader(Builder<K, V, R> builder) {
		this.template = builder.template;
		this.fetcher = builder.fetcher;
		this.scanOptions = builder.scanOptions;
		this.options = builder.options;
		this.cursorKey = builder.name + ".cursor";
		this.saveState = builder.saveState;
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
		Assert.notNull(template, "template must not be null");
		Assert.notNull(fetcher, "fetcher must not be null");
		return new Builder<>(template, fetcher);
	}

	@Override
	public synchronized void open(ExecutionContext executionContext) {
		ScanCursor from = ScanCursor.start();
		if (this.saveState && executionContext.containsKey(this.cursorKey)) {
			try {
				from = ScanCursor.fromToken(executionContext.getString(this.cursorKey));
			}
			catch (IllegalArgumentException ex) {
				throw new ItemStreamException("Cannot resume from '" + this.cursorKey
						+ "' of the step's execution context: " + ex.getMessage(), ex);
			}
		}
		this.buffer.clear();
		this.page = null;
		this.checkpoint = from;
		this.scanner = this.template.scanKeys(this.scanOptions, from);
	}

	@Override
	public synchronized @Nullable RedisKeyValue<K, R> read() {
		KeyScanner<K> current = this.scanner;
		Assert.state(current != null, "The reader was not opened");
		while (this.buffer.isEmpty()) {
			if (this.page == null) {
				// every item of the pages so far was handed out
				this.checkpoint = current.cursor();
				if (!current.hasNext()) {
					return null;
				}
				this.page = current.next();
			}
			List<K> keys = this.page;
			if (!keys.isEmpty()) {
				fetch(keys);
			}
			// fetched (a failed fetch is tried again by the next read)
			this.page = null;
		}
		return this.buffer.poll();
	}

	private void fetch(List<K> keys) {
		List<Response<? extends @Nullable R>> values = new ArrayList<>(keys.size());
		this.template.execute(this.options, (batch) -> {
			for (K key : keys) {
				values.add(this.fetcher.fetch(batch, key));
			}
		});
		for (int i = 0; i < keys.size(); i++) {
			R value = values.get(i).get();
			if (!isGone(value)) {
				this.buffer.add(new RedisKeyValue<>(keys.get(i), value));
			}
		}
	}

	private static boolean isGone(@Nullable Object value) {
		return value == null || (value instanceof Collection<?> collection && collection.isEmpty())
				|| (value instanceof Map<?, ?> map && map.isEmpty());
	}

	@Override
	public synchronized void update(ExecutionContext executionContext) {
		if (!this.saveState || this.scanner == null) {
			return;
		}
		boolean pageHandedOut = this.buffer.isEmpty() && this.page == null;
		ScanCursor position = pageHandedOut ? this.scanner.cursor() : this.checkpoint;
		executionContext.putString(this.cursorKey, position.toToken());
	}

	@Override
	public synchronized void close() {
		this.scanner = null;
		this.buffer.clear();
		this.page = null;
	}

	/**
	 * Builds a {@link RedisBatchItemReader}.
	 *
	 * @param <K> the key type
	 * @param <V> the value type of the template
	 * @param <R> the type of what the fetcher reads
	 * @since 0.1.0
	 */
	public static final class Builder<K, V, R> {

		private final BatchTemplate<K, V> template;

		private final KeyFetcher<K, V, R> fetcher;

		private ScanOptions scanOptions = ScanOptions.NONE;

		private BatchOptions options = BatchOptions.builder().name("spring-batch-reader").build();

		private String name = "redisBatchItemReader";

		private boolean saveState = true;

		private Builder(BatchTemplate<K, V> template, KeyFetcher<K, V, R> fetcher) {
			this.template = template;
			this.fetcher = fetcher;
		}

		/**
		 * The name of the reader: the prefix of what it keeps in the step's execution
		 * context.
		 * @param name the name
		 * @return this builder
		 */
		public Builder<K, V, R> name(String name) {
			Assert.isTrue(StringUtils.hasText(name), "name must not be empty");
			this.name = name;
			return this;
		}

		/**
		 * {@code MATCH}, {@code COUNT} and {@code TYPE} of the scan (default: every key,
		 * Redis's default {@code COUNT} of 10). A {@code COUNT} of a few hundred to a few
		 * thousand makes each page's batch worth its round trip.
		 * @param scanOptions the options
		 * @return this builder
		 */
		public Builder<K, V, R> scanOptions(ScanOptions scanOptions) {
			Assert.notNull(scanOptions, "scanOptions must not be null");
			this.scanOptions = scanOptions;
			return this;
		}

		/**
		 * The options of each page's batch; unset values come from the template. The
		 * default names batches {@code spring-batch-reader}.
		 * @param options the options
		 * @return this builder
		 */
		public Builder<K, V, R> options(BatchOptions options) {
			Assert.notNull(options, "options must not be null");
			this.options = options;
			return this;
		}

		/**
		 * Whether the scan position is saved in the step's execution context (default
		 * {@code true}).
		 * @param saveState whether to save state
		 * @return this builder
		 */
		public Builder<K, V, R> saveState(boolean saveState) {
			this.saveState = saveState;
			return this;
		}

		/**
		 * Build the reader. The scan options are checked now, before any I/O.
		 * @return the reader
		 */
		public RedisBatchItemReader<K, V, R> build() {
			// invalid options fail here rather than when the step opens the reader
			this.template.scanKeys(this.scanOptions, null);
			return new RedisBatchItemReader<>(this);
		}

	}

}
