package dev.redisbatch.springbatch;

import dev.redisbatch.BatchOperations;

import org.springframework.batch.item.Chunk;
import org.springframework.batch.item.ExecutionContext;
import org.springframework.batch.item.ItemStreamWriter;

/**
 * A Spring Batch {@code ItemWriter} that writes each chunk as one redis-batch batch:
 * every item's commands, recorded by a {@link RedisItemMapper}, pipelined in chunks of
 * the batch on pooled connections of their own, on a standalone server, behind Sentinel
 * or on a Redis Cluster.
 *
 * <pre class="code">
 * RedisBatchItemWriter&lt;String, String, Order&gt; writer = RedisBatchItemWriter
 *     .builder(batchTemplate, RedisItemMappers.value((Order order) -&gt; "order:" + order.id(), Order::json, Duration.ofHours(1)))
 *     .name("orders")
 *     .build();
 * </pre>
 *
 * <h2>Outcomes and Spring Batch's fault tolerance</h2> When a command of the chunk does
 * not succeed, the write throws, by precedence:
 * <ul>
 * <li>{@link ItemOutcomeUnknownException} when commands that are not idempotent may or
 * may not have run ({@code UNKNOWN}) and no {@link AppliedCheck} can tell: not retryable,
 * the chunk fails;</li>
 * <li>{@link ItemFailedException} when Redis refused a command ({@code FAILED}):
 * skippable; in Spring Batch's item-by-item scan that follows, it is thrown for each
 * refused item alone, so skip listeners receive the item and the Redis error;</li>
 * <li>{@link ItemNotSentException} when what is left can be sent safely
 * ({@code NOT_SENT}; {@code UNKNOWN} of idempotent commands, or of items an
 * {@link AppliedCheck} settles): retryable.</li>
 * </ul>
 * <h2>Never twice</h2> The writer remembers, for every item written since the step's last
 * commit, the outcome of each of its commands, and when the items come again (a retry of
 * the chunk, Spring Batch's item-by-item scan after a skippable failure, or a restart of
 * the failed step, which reads them again from the last commit) it sends only what is
 * safe: a command that ran ({@code SUCCESS}) is never sent again; one that Redis refused
 * is not sent again in the same step execution; one with an unknown outcome only if it is
 * idempotent or an {@link AppliedCheck} says it did not run; one that was not sent
 * always. Items are recognised by their position since the last commit, and checked by a
 * fingerprint of the commands their mapper records: the reader must give the same items
 * in the same order after a restart (a file or a database query with an order does). If
 * it does not, the writer refuses to write rather than run a command twice (with an
 * idempotent mapper it forgets what it knew and sends everything).
 * <p>
 * <h2>Exactly once</h2> With options that have {@code exactlyOnce(true)} (or
 * {@link WriterSettings#exactlyOnce(boolean) exactlyOnce(true)} on the builder), each
 * chunk's batch runs exactly-once under a name the writer keeps in the step's
 * {@code ExecutionContext}: a chunk whose outcomes were lost is retryable
 * ({@link ItemNotSentException}), and written again (a retry, or a restart of the failed
 * step within the {@link WriterSettings#exactlyOnceWindow(java.time.Duration) window}, 24
 * hours by default) it is sent whole as the same batch, whose markers answer for every
 * command that ran. A mapper that is not idempotent then needs no {@link AppliedCheck}.
 * An item-by-item write of a failed chunk is a different batch, and leaves out what ran,
 * as above.
 * <p>
 * What it remembers is bounded by the chunk: it is dropped at each commit, and kept in
 * the step's {@code ExecutionContext} (outcome letters and fingerprints, no key or value)
 * so that it survives a failed step. The writer must therefore be registered as a stream
 * of the step, which a chunk-oriented step does for its writer. A process that dies in
 * the middle of a chunk keeps only what was committed: the commands of that chunk that
 * ran will run again on restart unless the mapper is idempotent. Outside a transaction
 * (the writer used on its own), a write that succeeds is final and forgotten at once.
 * <p>
 * This is the writer for Spring Batch 5.2 ({@code redis-batch-spring-batch5}). One
 * promise needs Spring Batch 6.0.6: the item-by-item skip of items Redis refused, with a
 * mapper that is not idempotent (exactly-once or not). Spring Batch 5.2 writes a failed
 * chunk's items again one by one without updating the step's streams in between, so the
 * writer cannot tell which items already ran: it refuses to write them, and the step
 * fails with a sentence that says so. No command runs twice. Without the exactly-once
 * mode, the restart of a mapper that is not idempotent after a chunk whose outcomes were
 * lost is refused the same way; an exactly-once writer restarts it.
 * <p>
 * Not thread-safe: one step thread writes at a time.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 * @since 0.1.0
 */
public final class RedisBatchItemWriter<K, V, T> implements ItemStreamWriter<T> {

	private final ChunkWriter<K, V, T> writer;

	private RedisBatchItemWriter(ChunkWriter<K, V, T> writer) {
		this.writer = writer;
	}

	/**
	 * A builder for a writer.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param template the template the batches run on
	 * @param mapper records the commands of an item
	 * @return a builder
	 */
	public static <K, V, T> Builder<K, V, T> builder(BatchOperations<K, V> template, RedisItemMapper<K, V, T> mapper) {
		return new Builder<>(template, mapper);
	}

	@Override
	public void open(ExecutionContext executionContext) {
		this.writer.open(ExecutionContextState.of(executionContext));
	}

	@Override
	public void update(ExecutionContext executionContext) {
		this.writer.update(ExecutionContextState.of(executionContext));
	}

	@Override
	public void close() {
		this.writer.close();
	}

	@Override
	public void write(Chunk<? extends T> chunk) {
		this.writer.write(chunk.getItems());
	}

	/**
	 * Builds a {@link RedisBatchItemWriter}: the settings of {@link WriterSettings}, and
	 * {@link #build()}.
	 *
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @since 0.1.0
	 */
	public static final class Builder<K, V, T> extends WriterSettings<K, V, T, Builder<K, V, T>> {

		private Builder(BatchOperations<K, V> template, RedisItemMapper<K, V, T> mapper) {
			super(template, mapper);
		}

		/**
		 * Build the writer.
		 * @return the writer
		 * @throws IllegalStateException if state saving is off for a mapper that is not
		 * idempotent, or if Spring Batch is older than 5.2
		 */
		public RedisBatchItemWriter<K, V, T> build() {
			SpringBatchRequirement.check(Chunk.class.getPackage().getImplementationVersion());
			return new RedisBatchItemWriter<>(chunkWriter());
		}

	}

}
