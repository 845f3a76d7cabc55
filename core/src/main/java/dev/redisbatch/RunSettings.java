package dev.redisbatch;

import java.time.Duration;

/**
 * The options one batch runs with, every value resolved against the template's defaults
 * and checked: made only by {@link BatchOptions#resolve(BatchOptions)}.
 *
 * @param options the resolved options, every value set (what {@code BoundBatch} shows)
 * @param name the name it is reported under
 * @param chunkSize the most commands per chunk
 * @param maxInFlightBytes the most request bytes in flight per server
 * @param maxInFlightCommands the most commands in flight per server
 * @param timeout the deadline of each chunk, from its write to its last reply
 * @param transactional whether each chunk is a MULTI/EXEC transaction
 * @param maxChunkBytes the most request bytes per chunk
 * @param retryAttempts how many more times unsent (and unknown idempotent) commands are
 * sent
 * @param retryBackoff the pause before each retry attempt
 * @param maxCommandsPerSecond the most commands written per second, 0 for no cap
 * @param maxBytesPerSecond the most request bytes written per second, 0 for no cap
 * @param exactlyOnce whether each chunk runs exactly once, as one script
 */
record RunSettings(BatchOptions options, String name, int chunkSize, long maxInFlightBytes, int maxInFlightCommands,
		Duration timeout, boolean transactional, long maxChunkBytes, int retryAttempts, Duration retryBackoff,
		long maxCommandsPerSecond, long maxBytesPerSecond, boolean exactlyOnce) {

	/**
	 * The same settings without retries (for a pass that sends commands again, and for
	 * batches whose commands cannot be recorded twice).
	 */
	RunSettings withoutRetry() {
		return new RunSettings(this.options, this.name, this.chunkSize, this.maxInFlightBytes, this.maxInFlightCommands,
				this.timeout, this.transactional, this.maxChunkBytes, 0, this.retryBackoff, this.maxCommandsPerSecond,
				this.maxBytesPerSecond, this.exactlyOnce);
	}

	/**
	 * Whether the batch's rate is capped (polite mode).
	 */
	boolean isRateCapped() {
		return this.maxCommandsPerSecond > 0 || this.maxBytesPerSecond > 0;
	}

	long timeoutNanos() {
		return this.timeout.toNanos();
	}

}
