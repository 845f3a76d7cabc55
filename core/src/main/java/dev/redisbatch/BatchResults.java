package dev.redisbatch;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What happened to every command of a batch. The counts of the four {@link Outcome}s
 * always add up to {@link #size()}, the number of commands submitted.
 *
 * @since 0.1.0
 */
public final class BatchResults {

	private final String name;

	private final long[] counts;

	private final List<BatchFailure> failures;

	private final int chunks;

	private final Duration elapsed;

	private final @Nullable String abortReason;

	BatchResults(String name, long[] counts, List<BatchFailure> failures, int chunks, Duration elapsed,
			@Nullable String abortReason) {
		this.name = name;
		this.counts = counts.clone();
		this.failures = failures;
		this.chunks = chunks;
		this.elapsed = elapsed;
		this.abortReason = abortReason;
	}

	/**
	 * The number of commands submitted.
	 * @return the size of the batch
	 */
	public int size() {
		long total = 0;
		for (long count : this.counts) {
			total += count;
		}
		return (int) total;
	}

	/**
	 * How many commands ended in the given outcome.
	 * @param outcome the outcome
	 * @return the count
	 */
	public long count(Outcome outcome) {
		return this.counts[outcome.ordinal()];
	}

	/**
	 * Every command that did not succeed, in submission order. The list never contains
	 * key or value text.
	 * @return the failures (empty when the batch succeeded)
	 */
	public List<BatchFailure> failures() {
		return this.failures;
	}

	/**
	 * The number of chunks that were sent. A batch's first chunk to a server holds 8 KB
	 * of requests and each next one twice as much, up to the chunk size and the
	 * max-chunk-bytes (a transaction's chunks are whole), so a batch may send more chunks
	 * than its commands divided by the chunk size.
	 * @return the number of chunks
	 */
	public int chunks() {
		return this.chunks;
	}

	/**
	 * The time from the start of the batch until every command had its outcome.
	 * @return the elapsed time
	 */
	public Duration elapsed() {
		return this.elapsed;
	}

	/**
	 * Whether every command succeeded.
	 * @return {@code true} when all commands ended in {@link Outcome#SUCCESS}
	 */
	public boolean isSuccess() {
		return count(Outcome.SUCCESS) == size();
	}

	/**
	 * The batch name (the metrics tag): from the options, or {@code default}.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Why the batch stopped before sending every command (a lost connection, a chunk that
	 * passed its deadline, an exhausted pool, an interrupt), or {@code null} when it did
	 * not stop early.
	 * @return the reason, or {@code null}
	 */
	public @Nullable String abortReason() {
		return this.abortReason;
	}

	/**
	 * A one-line summary, such as
	 * {@code 998 SUCCESS, 2 FAILED, 0 UNKNOWN, 0 NOT_SENT of 1000 commands in 1 chunk (3 ms)}.
	 * @return the summary
	 */
	public String summary() {
		StringBuilder summary = new StringBuilder();
		for (Outcome outcome : Outcome.values()) {
			summary.append(count(outcome)).append(' ').append(outcome).append(", ");
		}
		summary.setLength(summary.length() - 2);
		return summary.append(" of ")
			.append(size())
			.append(" commands in ")
			.append(this.chunks)
			.append((this.chunks == 1) ? " chunk (" : " chunks (")
			.append(this.elapsed.toMillis())
			.append(" ms)")
			.toString();
	}

	@Override
	public String toString() {
		return "BatchResults[" + this.name + ": " + summary() + "]";
	}

}
