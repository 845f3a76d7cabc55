package dev.redisbatch;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The options one batch runs with, every value resolved against the template's defaults.
 *
 * @param name the name it is reported under
 * @param chunkSize the most commands per chunk
 * @param maxChunksInFlight the most chunks in flight per server (a deprecated
 * parallelism, or no limit)
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
 */
record RunSettings(String name, int chunkSize, int maxChunksInFlight, long maxInFlightBytes, int maxInFlightCommands,
		Duration timeout, boolean transactional, long maxChunkBytes, int retryAttempts, Duration retryBackoff,
		long maxCommandsPerSecond, long maxBytesPerSecond) {

	/**
	 * The settings of options that were resolved against the template's defaults.
	 * @throws IllegalStateException when a value is still unset
	 */
	@SuppressWarnings("deprecation")
	static RunSettings of(BatchOptions options) {
		Integer parallelism = options.parallelism();
		return new RunSettings(require(options.name()), require(options.chunkSize()),
				(parallelism != null) ? parallelism : Integer.MAX_VALUE, require(options.maxInFlightBytes()),
				require(options.maxInFlightCommands()), require(options.timeout()), require(options.transactional()),
				require(options.maxChunkBytes()), require(options.retryAttempts()), require(options.retryBackoff()),
				require(options.maxCommandsPerSecond()), require(options.maxBytesPerSecond()));
	}

	/**
	 * The same settings without retries (for a pass that sends commands again, and for
	 * batches whose commands cannot be recorded twice).
	 */
	RunSettings withoutRetry() {
		return new RunSettings(this.name, this.chunkSize, this.maxChunksInFlight, this.maxInFlightBytes,
				this.maxInFlightCommands, this.timeout, this.transactional, this.maxChunkBytes, 0, this.retryBackoff,
				this.maxCommandsPerSecond, this.maxBytesPerSecond);
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

	private static <T> T require(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Options must be resolved against the template defaults first");
		}
		return value;
	}

}
