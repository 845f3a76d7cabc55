package dev.redisbatch.sample.timing;

import java.util.List;

/**
 * Every selected strategy timed on the same data, side by side.
 *
 * @param operation {@code set} or {@code get}
 * @param count the number of commands each strategy was asked to send
 * @param rttMillis the simulated round-trip time during the run
 * @param rows one row per strategy, in strategy order
 * @since 0.1.0
 */
public record Comparison(String operation, int count, double rttMillis, List<Row> rows) {

	/**
	 * One strategy's timing.
	 *
	 * @param strategy the strategy's name
	 * @param description how the strategy sends commands
	 * @param count the number of commands timed
	 * @param millis the time they took
	 * @param opsPerSecond commands per second
	 * @param complete whether every requested command ran ({@code false} when the time
	 * budget stopped it)
	 */
	public record Row(String strategy, String description, int count, double millis, long opsPerSecond,
			boolean complete) {

	}

}
