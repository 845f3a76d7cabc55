package dev.redisbatch.springbatch;

import dev.redisbatch.BatchOperations;
import dev.redisbatch.BatchOptions;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * What a {@code RedisBatchItemWriter} is built from, the same on every Spring Batch line:
 * each value is checked as it is set. {@code RedisBatchItemWriter.Builder}, which
 * {@code RedisBatchItemWriter.builder(template, mapper)} returns, sets them and adds
 * {@code build()}.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 * @param <B> the builder, which each setter returns
 * @since 0.1.0
 */
public abstract class WriterSettings<K, V, T, B extends WriterSettings<K, V, T, B>> {

	private final BatchOperations<K, V> template;

	private final RedisItemMapper<K, V, T> mapper;

	private @Nullable AppliedCheck<K, V, T> appliedCheck;

	private BatchOptions options = BatchOptions.builder().name("spring-batch-writer").build();

	private String name = "redisBatchItemWriter";

	private boolean saveState = true;

	WriterSettings(BatchOperations<K, V> template, RedisItemMapper<K, V, T> mapper) {
		Assert.notNull(template, "template must not be null");
		Assert.notNull(mapper, "mapper must not be null");
		this.template = template;
		this.mapper = mapper;
	}

	/**
	 * The name of the writer: the prefix of what it keeps in the step's execution
	 * context. Give each writer of a step its own.
	 * @param name the name
	 * @return this builder
	 */
	public B name(String name) {
		Assert.isTrue(StringUtils.hasText(name), "name must not be empty");
		this.name = name;
		return self();
	}

	/**
	 * The options of each chunk's batch (chunk size, window, timeout, name...); unset
	 * values come from the template. The default names batches
	 * {@code spring-batch-writer}.
	 * @param options the options
	 * @return this builder
	 */
	public B options(BatchOptions options) {
		Assert.notNull(options, "options must not be null");
		this.options = options;
		return self();
	}

	/**
	 * How to tell whether the commands of an item with an unknown outcome ran, for a
	 * mapper that is not idempotent: with it, such items are retryable instead of failing
	 * the chunk.
	 * @param appliedCheck the check
	 * @return this builder
	 */
	public B appliedCheck(AppliedCheck<K, V, T> appliedCheck) {
		Assert.notNull(appliedCheck, "appliedCheck must not be null");
		this.appliedCheck = appliedCheck;
		return self();
	}

	/**
	 * Whether the outcomes of the items written since the last commit are kept in the
	 * step's execution context, so that a restarted step does not run commands twice
	 * (default {@code true}). Turn it off only with an idempotent mapper.
	 * @param saveState whether to save state
	 * @return this builder
	 */
	public B saveState(boolean saveState) {
		this.saveState = saveState;
		return self();
	}

	/**
	 * The writer's logic, for the line's {@code build()}.
	 * @return the logic, on the settings as they are now
	 * @throws IllegalStateException if state saving is off for a mapper that is not
	 * idempotent
	 */
	ChunkWriter<K, V, T> chunkWriter() {
		Assert.state(this.saveState || this.mapper.isIdempotent(),
				"saveState(false) needs an idempotent mapper: without saved state, a restarted step runs the "
						+ "commands of the failed chunk again");
		return new ChunkWriter<>(this.template, this.mapper, this.appliedCheck, this.options, this.name,
				this.saveState);
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

}
