package dev.redisbatch.sample.timing;

import java.util.List;

/**
 * {@code SET} throughput of the batch template across chunk sizes: the curve that
 * {@code redis-benchmark -P} draws, from Java.
 *
 * @param count the number of commands each chunk size was asked to send
 * @param rttMillis the simulated round-trip time during the run
 * @param points one point per chunk size, smallest first
 * @since 0.1.0
 */
public record Sweep(int count, double rttMillis, List<Point> points) {

	/**
	 * One chunk size's timing.
	 *
	 * @param chunkSize the chunk size
	 * @param strategy the strategy's name
	 * @param count the number of commands timed
	 * @param millis the time they took
	 * @param opsPerSecond commands per second
	 * @param complete whether every requested command ran ({@code false} when the time
	 * budget stopped it)
	 */
	public record Point(int chunkSize, String strategy, int count, double millis, long opsPerSecond, boolean complete) {

	}

}
