package dev.redisbatch.springbatch;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;

import org.springframework.data.redis.core.ScanOptions;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * What a {@code RedisBatchItemReader} is built from, the same on every Spring Batch line:
 * each value is checked as it is set. {@code RedisBatchItemReader.Builder}, which
 * {@code RedisBatchItemReader.builder(template, fetcher)} returns, sets them and adds
 * {@code build()}.
 *
 * @param <K> the key type
 * @param <V> the value type of the template
 * @param <R> the type of what the fetcher reads
 * @param <B> the builder, which each setter returns
 * @since 0.1.0
 */
public abstract class ReaderSettings<K, V, R, B extends ReaderSettings<K, V, R, B>> {

	private final BatchTemplate<K, V> template;

	private final KeyFetcher<K, V, R> fetcher;

	private ScanOptions scanOptions = ScanOptions.NONE;

	private BatchOptions options = BatchOptions.builder().name("spring-batch-reader").build();

	private String name = "redisBatchItemReader";

	private boolean saveState = true;

	ReaderSettings(BatchTemplate<K, V> template, KeyFetcher<K, V, R> fetcher) {
		Assert.notNull(template, "template must not be null");
		Assert.notNull(fetcher, "fetcher must not be null");
		this.template = template;
		this.fetcher = fetcher;
	}

	/**
	 * The name of the reader: the prefix of what it keeps in the step's execution
	 * context.
	 * @param name the name
	 * @return this builder
	 */
	public B name(String name) {
		Assert.isTrue(StringUtils.hasText(name), "name must not be empty");
		this.name = name;
		return self();
	}

	/**
	 * {@code MATCH}, {@code COUNT} and {@code TYPE} of the scan (default: every key,
	 * Redis's default {@code COUNT} of 10). A {@code COUNT} of a few hundred to a few
	 * thousand makes each page's batch worth its round trip.
	 * @param scanOptions the options
	 * @return this builder
	 */
	public B scanOptions(ScanOptions scanOptions) {
		Assert.notNull(scanOptions, "scanOptions must not be null");
		this.scanOptions = scanOptions;
		return self();
	}

	/**
	 * The options of each page's batch; unset values come from the template. The default
	 * names batches {@code spring-batch-reader}.
	 * @param options the options
	 * @return this builder
	 */
	public B options(BatchOptions options) {
		Assert.notNull(options, "options must not be null");
		this.options = options;
		return self();
	}

	/**
	 * Whether the scan position is saved in the step's execution context (default
	 * {@code true}).
	 * @param saveState whether to save state
	 * @return this builder
	 */
	public B saveState(boolean saveState) {
		this.saveState = saveState;
		return self();
	}

	/**
	 * The reader's logic, for the line's {@code build()}. The scan options are checked
	 * now, before any I/O.
	 * @return the logic, on the settings as they are now
	 */
	ScanPageReader<K, V, R> scanPageReader() {
		// invalid options fail here rather than when the step opens the reader
		this.template.scanKeys(this.scanOptions, null);
		return new ScanPageReader<>(this.template, this.fetcher, this.scanOptions, this.options, this.name,
				this.saveState);
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

}
