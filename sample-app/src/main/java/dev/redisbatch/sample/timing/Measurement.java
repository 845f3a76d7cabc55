package dev.redisbatch.sample.timing;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One timed run of a strategy.
 *
 * @param strategy the strategy's name
 * @param requested the number of commands asked for
 * @param completed the number of commands timed (fewer than requested when the time
 * budget stopped it)
 * @param nanos the time the completed commands took
 * @param results the values read, in key order, for a {@code GET} run; {@code null} for a
 * {@code SET} run
 * @since 0.1.0
 */
public record Measurement(String strategy, int requested, int completed, long nanos,
		@Nullable List<@Nullable String> results) {

	/**
	 * The elapsed time in milliseconds, to the microsecond.
	 * @return the milliseconds
	 */
	public double millis() {
		return Math.round(this.nanos / 1_000.0) / 1_000.0;
	}

	/**
	 * Commands per second.
	 * @return the rate, rounded
	 */
	public long opsPerSecond() {
		return (this.nanos > 0) ? Math.round(this.completed * 1_000_000_000.0 / this.nanos) : 0;
	}

	/**
	 * Whether every requested command ran.
	 * @return whether the run is complete
	 */
	public boolean complete() {
		return this.completed == this.requested;
	}

}
