package dev.redisbatch.sample.strategy;

import java.time.Duration;

/**
 * When a strategy should stop early, so that a slow strategy (one command per round trip
 * at a long simulated round-trip time) cannot hold a run for minutes.
 *
 * @since 0.1.0
 */
public final class Deadline {

	private static final Deadline NONE = new Deadline(Long.MAX_VALUE, false);

	private final long nanos;

	private final boolean bounded;

	private Deadline(long nanos, boolean bounded) {
		this.nanos = nanos;
		this.bounded = bounded;
	}

	/**
	 * No deadline: run to the end.
	 * @return the deadline that never passes
	 */
	public static Deadline none() {
		return NONE;
	}

	/**
	 * A deadline the given time from now.
	 * @param budget the time from now
	 * @return the deadline
	 */
	public static Deadline after(Duration budget) {
		return new Deadline(System.nanoTime() + budget.toNanos(), true);
	}

	/**
	 * Whether this deadline can pass at all.
	 * @return whether it is bounded
	 */
	public boolean isBounded() {
		return this.bounded;
	}

	/**
	 * Whether the deadline has passed.
	 * @return whether to stop
	 */
	public boolean hasPassed() {
		return this.bounded && System.nanoTime() - this.nanos >= 0;
	}

}
