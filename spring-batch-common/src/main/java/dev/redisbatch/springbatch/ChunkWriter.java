package dev.redisbatch.springbatch;

import java.time.Duration;
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

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * The logic of {@code RedisBatchItemWriter}, the same on every Spring Batch line: each
 * chunk's items written as one batch, every command's outcome remembered in an
 * {@link ItemLedger} until the step commits (and kept in the step's state, so that it
 * survives a failed step), what comes again sent only when it is safe to send, and the
 * outcomes mapped onto the exceptions Spring Batch's fault tolerance acts on.
 * {@code RedisBatchItemWriter}'s documentation describes the behaviour; each line's
 * writer hands its calls over to this class, which {@link WriterSettings} builds.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <T> the item type
 */
final class ChunkWriter<K, V, T> {

	private static final Log logger = LogFactory.getLog("dev.redisbatch.springbatch.RedisBatchItemWriter");

	private final BatchOperations<K, V> template;

	private final RedisItemMapper<K, V, T> mapper;

	private final @Nullable AppliedCheck<K, V, T> appliedCheck;

	private final BatchOptions options;

	private final String name;

	private final String ledgerKey;

	private final boolean saveState;

	private final ItemLedger ledger = new ItemLedger();

	private final @Nullable ExactlyOnceChunks exactlyOnce;

	private @Nullable StepState context;

	private int writtenThisTransaction;

	private boolean wroteThisTransaction;

	private boolean synchronizationRegistered;

	private boolean wroteSinceOpen;

	/**
	 * The logic of one writer.
	 * @param exactlyOnceWindow how long the markers of an exactly-once writer's batches
	 * are kept, or {@code null} for a writer that is not exactly-once
	 */
	ChunkWriter(BatchOperations<K, V> template, RedisItemMapper<K, V, T> mapper,
			@Nullable AppliedCheck<K, V, T> appliedCheck, BatchOptions options, String name, boolean saveState,
			@Nullable Duration exactlyOnceWindow) {
		this.template = template;
		this.mapper = mapper;
		this.appliedCheck = appliedCheck;
		this.options = options;
		this.name = name;
		this.ledgerKey = name + ".ledger";
		this.saveState = saveState;
		this.exactlyOnce = (exactlyOnceWindow != null) ? new ExactlyOnceChunks(name, exactlyOnceWindow) : null;
	}

	/**
	 * Open the writer on the step's state, restoring what it saved before a failure.
	 * @throws RuntimeException the line's {@code ItemStreamException}
	 * ({@link StepState#unreadable}) if what it saved cannot be read
	 */
	synchronized void open(StepState executionContext) {
		this.context = executionContext;
		this.ledger.clear();
		resetTransaction();
		this.wroteSinceOpen = false;
		String saved = this.saveState ? executionContext.getString(this.ledgerKey) : null;
		if (saved != null) {
			try {
				ItemLedger restored = ItemLedger.decodeForRestart(saved);
				for (int i = 0; i < restored.size(); i++) {
					this.ledger.set(i, restored.get(i));
				}
			}
			catch (IllegalArgumentException ex) {
				throw executionContext.unreadable("The writer '" + this.name + "' cannot read what it saved in '"
						+ this.ledgerKey + "' of the step's execution context: " + ex.getMessage(), ex);
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Writer '" + this.name + "' resumes with the outcomes of " + this.ledger.size()
						+ " items written before the restart");
			}
		}
		if (this.exactlyOnce != null) {
			try {
				this.exactlyOnce.open(this.saveState ? executionContext : null,
						saved != null && ItemLedger.hasRefused(saved));
			}
			catch (IllegalArgumentException ex) {
				throw executionContext.unreadable("The writer '" + this.name + "' cannot read what it saved of its "
						+ "exactly-once batches in the step's execution context: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * The step commits: forget what the committed transaction consumed, and save the
	 * rest.
	 */
	synchronized void update(StepState executionContext) {
		this.context = executionContext;
		if (this.exactlyOnce != null && !this.wroteSinceOpen) {
			// Spring Batch 5.2 updates the streams once after opening them, before the
			// first chunk: no transaction consumed items yet, and the items remembered
			// before a restart come first
			resetTransaction();
			save();
			return;
		}
		// The transaction that commits now consumed the items written in it, or (during
		// Spring Batch's item-by-item scan) one item that it did not write: filtered by
		// the processor, or skipped.
		int before = this.ledger.size();
		if (this.wroteThisTransaction) {
			this.ledger.dropOldest(this.writtenThisTransaction);
		}
		else if (!this.ledger.isEmpty()) {
			this.ledger.dropOldest(1);
		}
		if (this.exactlyOnce != null && this.ledger.size() < before) {
			this.exactlyOnce.committed();
		}
		resetTransaction();
		save();
	}

	synchronized void close() {
		this.context = null;
		this.ledger.clear();
		resetTransaction();
	}

	/**
	 * Write the items of a chunk as one batch, sending only what is safe to send. When a
	 * command does not succeed it throws, as {@code RedisBatchItemWriter} describes,
	 * {@link ItemOutcomeUnknownException}, {@link ItemFailedException} or
	 * {@link ItemNotSentException}.
	 * @param items the chunk's items
	 */
	synchronized void write(List<? extends T> items) {
		if (this.saveState && this.context == null && !this.mapper.isIdempotent()) {
			throw new IllegalStateException("The writer '" + this.name + "' was not opened as an ItemStream: a chunk "
					+ "written again after a failure could run its commands twice. Register it as a stream of the "
					+ "step (a chunk-oriented step registers its writer; a writer inside a composite needs "
					+ "stream(writer)), or use an idempotent mapper");
		}
		trackTransaction();
		this.wroteThisTransaction = true;
		this.wroteSinceOpen = true;
		if (items.isEmpty()) {
			return;
		}
		int aligned = Math.min(items.size(), this.ledger.size());
		if (aligned > 0) {
			aligned = checkSameItems(items, aligned);
		}
		BatchOptions batchOptions = this.options;
		boolean replay = false;
		if (this.exactlyOnce != null) {
			long now = System.currentTimeMillis();
			boolean sameItems = aligned > 0 && aligned == items.size() && aligned == this.ledger.size();
			replay = sameItems && this.exactlyOnce.whyNotReplay(hasUnknown(aligned), now) == null;
			// the same batch again: its markers answer for every command that ran
			batchOptions = replay ? this.exactlyOnce.replay(this.options) : this.exactlyOnce.next(this.options, now);
		}
		if (!replay && aligned > 0 && this.appliedCheck != null) {
			settleUnknown(items, aligned, this.appliedCheck);
		}
		ChunkRecording recording = (replay) ? new ChunkRecording(null, 0)
				: new ChunkRecording((aligned > 0) ? this.ledger : null, aligned);
		RuntimeException failure = run(items, recording, batchOptions);
		for (int i = 0; i < recording.itemCount(); i++) {
			String earlierFailure = (i < aligned) ? this.ledger.get(i).failure() : null;
			this.ledger.set(i, recording.outcomeOf(i, earlierFailure));
		}
		this.writtenThisTransaction = Math.max(this.writtenThisTransaction, recording.itemCount());
		String unresolved = null;
		if (this.exactlyOnce != null) {
			this.exactlyOnce.sentWhole(recording.leftOut() == 0 && recording.itemCount() == items.size()
					&& this.ledger.size() == items.size());
			unresolved = this.exactlyOnce.whyNotReplay(true, System.currentTimeMillis());
		}
		save();
		if (failure != null && !(failure instanceof BatchException)) {
			throw failure;
		}
		classify(items.size(), recording, failure, unresolved);
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			// no transaction can roll this write back: it is final, and the next write is
			// of new items
			this.ledger.dropOldest(items.size());
			if (this.exactlyOnce != null) {
				this.exactlyOnce.committed();
			}
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

	/**
	 * Whether a command of the first items the ledger knows has an unknown outcome.
	 */
	private boolean hasUnknown(int count) {
		for (int i = 0; i < count; i++) {
			if (this.ledger.get(i).has(Outcome.UNKNOWN)) {
				return true;
			}
		}
		return false;
	}

	private @Nullable RuntimeException run(List<? extends T> items, ChunkRecording recording,
			BatchOptions batchOptions) {
		boolean idempotent = this.mapper.isIdempotent();
		try {
			this.template.execute(batchOptions, (batch) -> {
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

	/**
	 * Throw what the outcomes call for.
	 * @param unresolved for an exactly-once writer, why writing the items again would not
	 * be the same batch, whose markers answer for unknown outcomes ({@code null} if it
	 * would); always {@code null} for another writer
	 */
	private void classify(int count, ChunkRecording recording, @Nullable RuntimeException failure,
			@Nullable String unresolved) {
		boolean answeredByMarkers = this.exactlyOnce != null && unresolved == null;
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
			if (item.hasUnknownNotIdempotent() && this.appliedCheck == null && !answeredByMarkers) {
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
					+ "an AppliedCheck that reads whether they ran"
					+ ((unresolved != null) ? " (exactly-once cannot answer for them: " + unresolved + ")" : ""),
					unknown, failure);
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
		StepState current = this.context;
		if (!this.saveState || current == null) {
			return;
		}
		if (this.ledger.isEmpty()) {
			current.remove(this.ledgerKey);
		}
		else {
			current.putString(this.ledgerKey, this.ledger.encode());
		}
		if (this.exactlyOnce != null) {
			this.exactlyOnce.save(current);
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

}
