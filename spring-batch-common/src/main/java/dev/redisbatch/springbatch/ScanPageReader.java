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

import org.springframework.data.redis.core.ScanOptions;
import org.springframework.util.Assert;

/**
 * The logic of {@code RedisBatchItemReader}, the same on every Spring Batch line: keys
 * from {@code SCAN} on every master, the values of each page read by one batch, and the
 * scan's position kept in the step's state. {@code RedisBatchItemReader}'s documentation
 * describes the behaviour; each line's reader hands its calls over to this class, which
 * {@link ReaderSettings} builds.
 *
 * @param <K> the key type
 * @param <V> the value type of the template
 * @param <R> the type of what each key's fetcher reads
 */
final class ScanPageReader<K, V, R> {

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

	ScanPageReader(BatchTemplate<K, V> template, KeyFetcher<K, V, R> fetcher, ScanOptions scanOptions,
			BatchOptions options, String name, boolean saveState) {
		this.template = template;
		this.fetcher = fetcher;
		this.scanOptions = scanOptions;
		this.options = options;
		this.cursorKey = name + ".cursor";
		this.saveState = saveState;
	}

	/**
	 * Open the reader where the step's state says the scan stopped, or at the start.
	 * @throws RuntimeException the line's {@code ItemStreamException}
	 * ({@link StepState#unreadable}) if the saved position cannot be read
	 */
	synchronized void open(StepState executionContext) {
		ScanCursor from = ScanCursor.start();
		String saved = this.saveState ? executionContext.getString(this.cursorKey) : null;
		if (saved != null) {
			try {
				from = ScanCursor.fromToken(saved);
			}
			catch (IllegalArgumentException ex) {
				throw executionContext.unreadable("Cannot resume from '" + this.cursorKey
						+ "' of the step's execution context: " + ex.getMessage(), ex);
			}
		}
		this.buffer.clear();
		this.page = null;
		this.checkpoint = from;
		this.scanner = this.template.scanKeys(this.scanOptions, from);
	}

	/**
	 * The next key and its value.
	 * @return the item, or {@code null} when the scan is over
	 */
	synchronized @Nullable RedisKeyValue<K, R> read() {
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

	/**
	 * Save the scan's position: after the last page whose items were all handed out.
	 */
	synchronized void update(StepState executionContext) {
		if (!this.saveState || this.scanner == null) {
			return;
		}
		boolean pageHandedOut = this.buffer.isEmpty() && this.page == null;
		ScanCursor position = pageHandedOut ? this.scanner.cursor() : this.checkpoint;
		executionContext.putString(this.cursorKey, position.toToken());
	}

	synchronized void close() {
		this.scanner = null;
		this.buffer.clear();
		this.page = null;
	}

}
