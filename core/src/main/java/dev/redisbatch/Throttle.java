package dev.redisbatch;

import java.util.function.LongConsumer;

/**
 * The rate cap of one batch (polite mode): before each chunk is written, on any of the
 * batch's servers, the batch waits here until the cap allows the chunk's commands and
 * bytes. One throttle serves all the lanes of a batch, so the cap is per batch.
 * <p>
 * Only batches with a cap get a real throttle ({@link BucketThrottle}, on Bucket4j, an
 * optional dependency that is loaded only then); the others share {@link #NONE}.
 */
interface Throttle {

	/**
	 * No cap: every chunk goes at once.
	 */
	Throttle NONE = (commands, bytes) -> true;

	/**
	 * The throttle of a batch.
	 * @param settings the batch's settings, with its caps
	 * @param waited told how long each wait took, in nanoseconds
	 * @return the throttle, {@link #NONE} when the batch has no cap
	 */
	static Throttle of(RunSettings settings, LongConsumer waited) {
		if (!settings.isRateCapped()) {
			return NONE;
		}
		return new BucketThrottle(settings.maxCommandsPerSecond(), settings.maxBytesPerSecond(), waited);
	}

	/**
	 * Wait until the cap allows a chunk to be written.
	 * @param commands the chunk's commands
	 * @param bytes the chunk's request bytes
	 * @return {@code false} when the thread was interrupted while it waited (its flag is
	 * set again): the chunk must not be written
	 */
	boolean admit(int commands, long bytes);

}
