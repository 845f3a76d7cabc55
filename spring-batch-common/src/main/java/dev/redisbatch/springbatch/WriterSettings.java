package dev.redisbatch.springbatch;

import java.time.Duration;

import dev.redisbatch.BatchOperations;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
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

	/**
	 * How long an exactly-once writer's markers are kept by default: 24 hours.
	 */
	public static final Duration DEFAULT_EXACTLY_ONCE_WINDOW = Duration.ofHours(24);

	private final BatchOperations<K, V> template;

	private final RedisItemMapper<K, V, T> mapper;

	private @Nullable AppliedCheck<K, V, T> appliedCheck;

	private BatchOptions options = BatchOptions.builder().name("spring-batch-writer").build();

	private String name = "redisBatchItemWriter";

	private boolean saveState = true;

	private @Nullable Boolean exactlyOnce;

	private Duration exactlyOnceWindow = DEFAULT_EXACTLY_ONCE_WINDOW;

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
	 * {@code spring-batch-writer}. Options with {@code exactlyOnce(true)} make the writer
	 * exactly-once, as {@link #exactlyOnce(boolean)} does.
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
	 * Whether the writer is exactly-once (default: as its {@link #options(BatchOptions)
	 * options} say, and when they leave it unset, as the template's defaults say). Each
	 * chunk's batch then runs exactly-once under an id that the writer keeps in the
	 * step's execution context, and a chunk written again after its outcomes were lost (a
	 * retry, or a restart of the failed step) is sent again whole as the same batch:
	 * every command that ran answers with its own reply, the others run now. A mapper
	 * that is not idempotent then needs no {@link AppliedCheck}. Not with
	 * {@code transactional(true)} options.
	 * @param exactlyOnce whether the writer is exactly-once
	 * @return this builder
	 */
	public B exactlyOnce(boolean exactlyOnce) {
		this.exactlyOnce = exactlyOnce;
		return self();
	}

	/**
	 * How long the markers of an exactly-once writer's batches are kept on the server
	 * (default {@link #DEFAULT_EXACTLY_ONCE_WINDOW 24 hours}): a failed step restarted
	 * within it does not run a command twice. A chunk first written longer ago than that
	 * is not sent again as the same batch: its items are written as a writer that is not
	 * exactly-once writes them (an {@link AppliedCheck}, or an idempotent mapper, decides
	 * what is sent again). Markers hold the replies of their chunk's commands, so a
	 * longer window keeps more bytes on the server.
	 * @param window how long markers are kept, from 5 minutes to 30 days
	 * @return this builder
	 */
	public B exactlyOnceWindow(Duration window) {
		Assert.notNull(window, "window must not be null");
		Assert.isTrue(window.compareTo(Duration.ofMinutes(5)) >= 0 && window.compareTo(Duration.ofDays(30)) <= 0,
				() -> "the exactly-once window must be from 5 minutes to 30 days but was " + window);
		this.exactlyOnceWindow = window;
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
		boolean once = isExactlyOnce();
		BatchOptions chunkOptions = this.options;
		if (this.exactlyOnce != null) {
			chunkOptions = chunkOptions.mutate().exactlyOnce(once).build();
		}
		if (once) {
			Assert.state(chunkOptions.exactlyOnceId() == null,
					"The options of an exactly-once writer must not name the batches (exactlyOnce(id, window)): the "
							+ "writer names each chunk's batch itself. Use exactlyOnce(true), and the writer's "
							+ "exactlyOnceWindow for how long markers are kept");
			Assert.state(!Boolean.TRUE.equals(chunkOptions.transactional()),
					"An exactly-once writer cannot have transactional(true) options: each chunk runs as one script, "
							+ "atomic already");
		}
		return new ChunkWriter<>(this.template, this.mapper, this.appliedCheck, chunkOptions, this.name, this.saveState,
				once ? this.exactlyOnceWindow : null);
	}

	private boolean isExactlyOnce() {
		if (this.exactlyOnce != null) {
			return this.exactlyOnce;
		}
		Boolean fromOptions = this.options.exactlyOnce();
		if (fromOptions != null) {
			return fromOptions;
		}
		return this.template instanceof BatchTemplate<?, ?> batchTemplate
				&& Boolean.TRUE.equals(batchTemplate.getDefaultOptions().exactlyOnce());
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

}
