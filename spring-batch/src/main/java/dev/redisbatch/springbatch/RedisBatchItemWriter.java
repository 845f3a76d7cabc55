package dev.redisbatch.springbatch;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.Batch;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchOperations;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamWriter;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

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
 * What it remembers is bounded by the chunk: it is dropped at each commit, and kept in
 * the step's {@code ExecutionContext} (outcome letters and fingerprints, no key or value)
 * so that it survives a failed step. The writer must therefore be registered as a stream
 * of the step, which a chunk-oriented step does for its writer. A process that dies in
 * the middle of a chunk keeps only what was committed: the commands of that chunk that
 * ran will run again on restart unless the mapper is idempotent. Outside a transaction
 * (the writer used on its own), a write that succeeds is final and forgotten at once.
 * <p>
 * Not thread-safe: one step thread writes at a time (Spring Batch 6's chunk-oriented step
 * writes on the step's thread even when it processes items concurrently).
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 * @since 0.1.0
 */
public final class RedisBatchItemWriter<K, V, T> implements ItemStreamWriter<T> {

	private static final Log logger = LogFactory.getLog(RedisBatchItemWriter.class);

	private final BatchOperations<K, V> template;

	private final RedisItemMapper<K, V, T> mapper;

	private final @Nullable AppliedCheck<K, V, T> appliedCheck;

	private final BatchOptions options;

	private final String name;

	private final String ledgerKey;

	private final boolean saveState;

	private final ItemLedger ledger = new ItemLedger();

	private @Nullable ExecutionContext context;

	private int writtenThisTransaction;

	private boolean wroteThisTransaction;

	private boolean synchronizationRegistered;

	private RedisBatchItemWriter(Builder<K, V, T> builder) {
		this.template = builder.template;
		this.mapper = builder.mapper;
		this.appliedCheck = builder.appliedCheck;
		this.options = builder.options;
		this.name = builder.name;
		this.ledgerKey = builder.name + ".ledger";
		this.saveState = builder.saveState;
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
		Assert.notNull(template, "template must not be null");
		Assert.notNull(mapper, "mapper must not be null");
		return new Builder<>(template, mapper);
	}

	@Override
	public synchronized void open(ExecutionContext executionContext) {
		this.context = executionContext;
		this.ledger.clear();
		resetTransaction();
		if (this.saveState && executionContext.containsKey(this.ledgerKey)) {
			String saved = executionContext.getString(this.ledgerKey);
			try {
				ItemLedger restored = ItemLedger.decodeForRestart(saved);
				for (int i = 0; i < restored.size(); i++) {
					this.ledger.set(i, restored.get(i));
				}
			}
			catch (IllegalArgumentException ex) {
				throw new ItemStreamException("The writer '" + this.name + "' cannot read what it saved in '"
						+ this.ledgerKey + "' of the step's execution context: " + ex.getMessage(), ex);
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Writer '" + this.name + "' resumes with the outcomes of " + this.ledger.size()
						+ " items written before the restart");
			}
		}
	}

	@Override
	public synchronized void update(ExecutionContext executionContext) {
		this.context = executionContext;
		// The transaction that commits now consumed the items written in it, or (during
		// Spring Batch's item-by-item scan) one item that it did not write: filtered by
		// the processor, or skipped.
		if (this.wroteThisTransaction) {
			this.ledger.dropOldest(this.writtenThisTransaction);
		}
		else if (!this.ledger.isEmpty()) {
			this.ledger.dropOldest(1);
		}
		resetTransaction();
		save();
	}

	@Override
	public synchronized void close() {
		this.context = null;
		this.ledger.clear();
		resetTransaction();
	}

	@Override
	public synchronized void write(Chunk<? extends T> chunk) {
		if (this.saveState && this.context == null && !this.mapper.isIdempotent()) {
			throw new IllegalStateException("The writer '" + this.name + "' was not opened as an ItemStream: a chunk "
					+ "written again after a failure could run its commands twice. Register it as a stream of the "
					+ "step (a chunk-oriented step registers its writer; a writer inside a composite needs "
					+ "stream(writer)), or use an idempotent mapper");
		}
		trackTransaction();
		this.wroteThisTransaction = true;
		List<? extends T> items = chunk.getItems();
		if (items.isEmpty()) {
			return;
		}
		int aligned = Math.min(items.size(), this.ledger.size());
		if (aligned > 0) {
			aligned = checkSameItems(items, aligned);
		}
		if (aligned > 0 && this.appliedCheck != null) {
			settleUnknown(items, aligned, this.appliedCheck);
		}
		ChunkRecording recording = new ChunkRecording((aligned > 0) ? this.ledger : null, aligned);
		RuntimeException failure = run(items, recording);
		for (int i = 0; i < recording.itemCount(); i++) {
			String earlierFailure = (i < aligned) ? this.ledger.get(i).failure() : null;
			this.ledger.set(i, recording.outcomeOf(i, earlierFailure));
		}
		this.writtenThisTransaction = Math.max(this.writtenThisTransaction, recording.itemCount());
		save();
		if (failure != null && !(failure instanceof BatchException)) {
			throw failure;
		}
		classify(items.size(), recording, failure);
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			// no transaction can roll this write back: it is final, and the next write is
			// of new items
			this.ledger.dropOldest(items.size());
			this.writtenThisTransaction = 0;
			save();
		}
	}

	/**
	 * Check, without sending anything, that the items written again are the ones the
	 * ledger knows at their positions.
	 * @return how many items are aligned with the ledger (0 when it was dropped)
	 */
	private int checkSameItems(List<? extends T> items, int aligned) {
		ChunkRecording dryRun = new ChunkRecording(null, 0);
		Batch<K, V> view = dryRun.view(null, this.mapper.isIdempotent());
		for (int i = 0; i < aligned; i++) {
			dryRun.nextItem();
			this.mapper.map(view, items.get(i));
			if (!this.ledger.get(i).sameCommandsAs(dryRun.fingerprints(i))) {
				if (this.mapper.isIdempotent()) {
					logger.debug("Writer '" + this.name + "': the items do not match the ones written before at their "
							+ "positions; the mapper is idempotent, so every command is sent");
					this.ledger.clear();
					return 0;
				}
				throw new IllegalStateException("Item #" + i + " of the chunk is not the item the writer '" + this.name
						+ "' wrote at that position before a failure (its mapper records other commands): after a "
						+ "retry or a restart the reader did not give the same items in the same order, so the writer "
						+ "cannot tell which commands already ran, and the mapper is not idempotent. Nothing was sent. "
						+ "Make the mapper idempotent, or reconcile Redis with the input by hand and remove '"
						+ this.ledgerKey + "' from the step's execution context");
			}
		}
		return aligned;
	}

	/**
	 * Ask Redis whether the commands of the aligned items whose outcome is unknown ran.
	 */
	private void settleUnknown(List<? extends T> items, int aligned, AppliedCheck<K, V, T> check) {
		List<Integer> unknown = new ArrayList<>();
		for (int i = 0; i < aligned; i++) {
			if (this.ledger.get(i).hasUnknownNotIdempotent()) {
				unknown.add(i);
			}
		}
		if (unknown.isEmpty()) {
			return;
		}
		List<Response<Boolean>> answers = new ArrayList<>(unknown.size());
		try {
			this.template.execute(this.options, (batch) -> {
				for (int index : unknown) {
					answers.add(check.wasApplied(batch, items.get(index)));
				}
			});
		}
		catch (BatchException ex) {
			throw new ItemNotSentException(
					"The writer '" + this.name + "' could not check whether " + unknown.size()
							+ " items with an unknown outcome were written, so it wrote nothing: " + ex.getMessage(),
					unknown.size(), ex);
		}
		for (int i = 0; i < unknown.size(); i++) {
			Boolean applied = answers.get(i).get();
			Assert.state(applied != null, "An AppliedCheck answered null: it must answer true or false");
			int index = unknown.get(i);
			this.ledger.set(index, this.ledger.get(index).withUnknownSettled(applied));
		}
	}

	private @Nullable RuntimeException run(List<? extends T> items, ChunkRecording recording) {
		boolean idempotent = this.mapper.isIdempotent();
		try {
			this.template.execute(this.options, (batch) -> {
				Batch<K, V> view = recording.view(idempotent ? batch.idempotent() : batch, idempotent);
				for (T item : items) {
					recording.nextItem();
					this.mapper.map(view, item);
					recording.itemDone();
				}
			});
			return null;
		}
		catch (InvalidDataAccessApiUsageException ex) {
			// an empty batch: every command of the chunk already ran, or there is none
			boolean nothingToSend = recording.sent() == 0 && recording.isComplete(items.size() - 1);
			return nothingToSend ? null : ex;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private void classify(int count, ChunkRecording recording, @Nullable RuntimeException failure) {
		int unknown = 0;
		int failed = 0;
		int left = 0;
		String firstFailure = null;
		for (int i = 0; i < count; i++) {
			if (i >= recording.itemCount()) {
				// the batch stopped before this item was recorded
				left++;
				continue;
			}
			ItemLedger.Item item = this.ledger.get(i);
			if (item.hasUnknownNotIdempotent() && this.appliedCheck == null) {
				unknown++;
			}
			else if (item.has(Outcome.FAILED)) {
				failed++;
				if (firstFailure == null) {
					firstFailure = item.failure();
				}
			}
			else if (!item.allSucceeded() || !recording.isComplete(i)) {
				left++;
			}
		}
		if (unknown > 0) {
			throw new ItemOutcomeUnknownException(unknown + " of " + count + " items written by '" + this.name
					+ "' have commands that are not idempotent and may or may not have run (sent, no reply): they "
					+ "are neither sent again nor taken as written. Make the mapper idempotent, or give the writer "
					+ "an AppliedCheck that reads whether they ran", unknown, failure);
		}
		if (failed > 0) {
			throw new ItemFailedException(failed + " of " + count + " items written by '" + this.name
					+ "' were refused by Redis: " + firstFailure, failed, failure);
		}
		if (left > 0) {
			throw new ItemNotSentException(left + " of " + count + " items written by '" + this.name
					+ "' were not written and may be written again"
					+ ((failure != null) ? ": " + failure.getMessage() : ""), left, failure);
		}
	}

	private void save() {
		ExecutionContext current = this.context;
		if (!this.saveState || current == null) {
			return;
		}
		if (this.ledger.isEmpty()) {
			current.remove(this.ledgerKey);
		}
		else {
			current.putString(this.ledgerKey, this.ledger.encode());
		}
	}

	/**
	 * Learn when the chunk's transaction rolls back: what was written in it is then not
	 * consumed, and comes again.
	 */
	private void trackTransaction() {
		if (!this.synchronizationRegistered && TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCompletion(int status) {
					completed(status == STATUS_COMMITTED);
				}

			});
			this.synchronizationRegistered = true;
		}
	}

	private synchronized void completed(boolean committed) {
		if (!committed) {
			resetTransaction();
		}
		this.synchronizationRegistered = false;
	}

	private void resetTransaction() {
		this.writtenThisTransaction = 0;
		this.wroteThisTransaction = false;
	}

	/**
	 * Builds a {@link RedisBatchItemWriter}.
	 *
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @since 0.1.0
	 */
	public static final class Builder<K, V, T> {

		private final BatchOperations<K, V> template;

		private final RedisItemMapper<K, V, T> mapper;

		private @Nullable AppliedCheck<K, V, T> appliedCheck;

		private BatchOptions options = BatchOptions.builder().name("spring-batch-writer").build();

		private String name = "redisBatchItemWriter";

		private boolean saveState = true;

		private Builder(BatchOperations<K, V> template, RedisItemMapper<K, V, T> mapper) {
			this.template = template;
			this.mapper = mapper;
		}

		/**
		 * The name of the writer: the prefix of what it keeps in the step's execution
		 * context. Give each writer of a step its own.
		 * @param name the name
		 * @return this builder
		 */
		public Builder<K, V, T> name(String name) {
			Assert.isTrue(StringUtils.hasText(name), "name must not be empty");
			this.name = name;
			return this;
		}

		/**
		 * The options of each chunk's batch (chunk size, window, timeout, name...); unset
		 * values come from the template. The default names batches
		 * {@code spring-batch-writer}.
		 * @param options the options
		 * @return this builder
		 */
		public Builder<K, V, T> options(BatchOptions options) {
			Assert.notNull(options, "options must not be null");
			this.options = options;
			return this;
		}

		/**
		 * How to tell whether the commands of an item with an unknown outcome ran, for a
		 * mapper that is not idempotent: with it, such items are retryable instead of
		 * failing the chunk.
		 * @param appliedCheck the check
		 * @return this builder
		 */
		public Builder<K, V, T> appliedCheck(AppliedCheck<K, V, T> appliedCheck) {
			Assert.notNull(appliedCheck, "appliedCheck must not be null");
			this.appliedCheck = appliedCheck;
			return this;
		}

		/**
		 * Whether the outcomes of the items written since the last commit are kept in the
		 * step's execution context, so that a restarted step does not run commands twice
		 * (default {@code true}). Turn it off only with an idempotent mapper.
		 * @param saveState whether to save state
		 * @return this builder
		 */
		public Builder<K, V, T> saveState(boolean saveState) {
			this.saveState = saveState;
			return this;
		}

		/**
		 * Build the writer.
		 * @return the writer
		 * @throws IllegalStateException if state saving is off for a mapper that is not
		 * idempotent, or if Spring Batch is older than 6.0.6
		 */
		public RedisBatchItemWriter<K, V, T> build() {
			SpringBatchRequirement.check();
			Assert.state(this.saveState || this.mapper.isIdempotent(),
					"saveState(false) needs an idempotent mapper: without saved state, a restarted step runs the "
							+ "commands of the failed chunk again");
			return new RedisBatchItemWriter<>(this);
		}

	}

}
