package dev.redisbatch.observation;

import java.time.Duration;
import java.util.function.LongConsumer;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation knows about one batch: its name, mode and topology when it starts,
 * and how its commands ended when it stops. It never holds keys or values.
 *
 * @since 0.1.0
 */
public class BatchObservationContext extends Observation.Context {

	private final String batchName;

	private final Mode mode;

	private final String topology;

	private String path = "none";

	private long succeeded;

	private long failed;

	private long unknown;

	private long notSent;

	private int chunks;

	private boolean rateCapped;

	private long throttleWaitNanos;

	private @Nullable String bulkOperation;

	private long keysMatched;

	private LongConsumer chunkListener = (nanos) -> {
	};

	/**
	 * Create a context.
	 * @param batchName the batch name (a fixed value from the options)
	 * @param mode pipeline or transaction
	 * @param topology {@code standalone}, {@code sentinel} or {@code cluster}
	 */
	public BatchObservationContext(String batchName, Mode mode, String topology) {
		this.batchName = batchName;
		this.mode = mode;
		this.topology = topology;
	}

	/**
	 * The batch name.
	 * @return the name
	 */
	public String getBatchName() {
		return this.batchName;
	}

	/**
	 * Whether chunks were plain pipelines or MULTI/EXEC transactions.
	 * @return the mode
	 */
	public Mode getMode() {
		return this.mode;
	}

	/**
	 * The deployment the batch ran against.
	 * @return {@code standalone}, {@code sentinel} or {@code cluster}
	 */
	public String getTopology() {
		return this.topology;
	}

	/**
	 * The path the batch's bytes took, as its first connection took it.
	 * @return {@code caller}, {@code event-loop}, {@code portable}, or {@code none} when
	 * no command was sent
	 */
	public String getPath() {
		return this.path;
	}

	/**
	 * Set the path the batch's bytes took.
	 * @param path {@code caller}, {@code event-loop} or {@code portable}
	 */
	public void setPath(String path) {
		this.path = path;
	}

	/**
	 * The number of commands submitted.
	 * @return the size
	 */
	public long getSize() {
		return this.succeeded + this.failed + this.unknown + this.notSent;
	}

	/**
	 * Commands Redis answered with a value.
	 * @return the count
	 */
	public long getSucceeded() {
		return this.succeeded;
	}

	/**
	 * Commands that failed (an error reply, a discarded transaction, a serializer error).
	 * @return the count
	 */
	public long getFailed() {
		return this.failed;
	}

	/**
	 * Commands that were sent but got no reply.
	 * @return the count
	 */
	public long getUnknown() {
		return this.unknown;
	}

	/**
	 * Commands that were never sent.
	 * @return the count
	 */
	public long getNotSent() {
		return this.notSent;
	}

	/**
	 * The number of chunks sent.
	 * @return the count
	 */
	public int getChunks() {
		return this.chunks;
	}

	/**
	 * Whether the batch ran under a rate cap (polite mode).
	 * @return whether it was capped
	 */
	public boolean isRateCapped() {
		return this.rateCapped;
	}

	/**
	 * Mark the batch as running under a rate cap.
	 * @param rateCapped whether it is capped
	 */
	public void setRateCapped(boolean rateCapped) {
		this.rateCapped = rateCapped;
	}

	/**
	 * How long the batch has waited for its rate cap before writing its chunks, so far.
	 * @return the time spent waiting, zero for a batch without a cap
	 */
	public Duration getThrottleWait() {
		return Duration.ofNanos(this.throttleWaitNanos);
	}

	/**
	 * Called by the batch each time it waited for its rate cap.
	 * @param nanos how long it waited
	 */
	public void addThrottleWait(long nanos) {
		this.throttleWaitNanos += nanos;
	}

	/**
	 * The bulk operation the batch runs on the keys of a scan, or {@code null} for a
	 * batch that is not one.
	 * @return {@code unlink}, {@code del}, {@code expire}, {@code persist} or
	 * {@code count}, or {@code null}
	 */
	public @Nullable String getBulkOperation() {
		return this.bulkOperation;
	}

	/**
	 * Mark the batch as a bulk operation.
	 * @param bulkOperation the operation (a fixed value)
	 */
	public void setBulkOperation(String bulkOperation) {
		this.bulkOperation = bulkOperation;
	}

	/**
	 * The keys the scan of a bulk operation returned so far (a key {@code SCAN} returned
	 * twice counts twice).
	 * @return the count, 0 for a batch that is not a bulk operation
	 */
	public long getKeysMatched() {
		return this.keysMatched;
	}

	/**
	 * Called by a bulk operation for each page of keys its scan returned.
	 * @param keys the keys of the page
	 */
	public void addKeysMatched(long keys) {
		this.keysMatched += keys;
	}

	/**
	 * The outcome of the whole batch.
	 * @return {@code success} when every command succeeded, {@code failure} when none
	 * did, {@code partial} otherwise
	 */
	public String getOutcome() {
		if (this.succeeded == getSize()) {
			return "success";
		}
		return (this.succeeded == 0) ? "failure" : "partial";
	}

	/**
	 * Record how the batch ended.
	 * @param succeeded commands that succeeded
	 * @param failed commands that failed
	 * @param unknown commands without a reply
	 * @param notSent commands never sent
	 * @param chunks chunks sent
	 */
	public void setResults(long succeeded, long failed, long unknown, long notSent, int chunks) {
		this.succeeded = succeeded;
		this.failed = failed;
		this.unknown = unknown;
		this.notSent = notSent;
		this.chunks = chunks;
	}

	/**
	 * Called by the batch each time a chunk has all its replies (or passed its deadline).
	 * @param nanos how long the chunk took from being sent
	 */
	public void chunkCompleted(long nanos) {
		this.chunkListener.accept(nanos);
	}

	/**
	 * Listen to chunk completions, for example to time them.
	 * @param listener receives each chunk's duration in nanoseconds
	 */
	public void setChunkListener(LongConsumer listener) {
		this.chunkListener = listener;
	}

	/**
	 * How chunks are sent.
	 */
	public enum Mode {

		/**
		 * Plain pipelines.
		 */
		PIPELINE,

		/**
		 * MULTI/EXEC around each chunk.
		 */
		TRANSACTION;

		/**
		 * The tag value.
		 * @return {@code pipeline} or {@code transaction}
		 */
		public String tagValue() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

}
