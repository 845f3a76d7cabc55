package dev.redisbatch.sample.concurrent;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code GET /redis/concurrent}: the same concurrent callers, without and
 * with auto-batching.
 *
 * @param threads the platform threads that called the template at once
 * @param millis how long each side ran
 * @param rows one per side: without auto-batching, then with it
 * @param speedUp commands per second with auto-batching ÷ without
 * @since 0.1.0
 */
public record ConcurrentComparison(int threads, long millis, List<Row> rows, double speedUp) {

	/**
	 * One side.
	 *
	 * @param strategy {@code auto-batching-off} or {@code auto-batching-on}
	 * @param description how it is configured
	 * @param commands the GETs and SETs completed
	 * @param commandsPerSecond the commands of every thread per second, rounded
	 * @param p50Micros the median time of one command
	 * @param p99Micros the 99th percentile
	 * @param commandsPerWrite the commands per write of auto-batching ({@code null}
	 * without it: Lettuce writes each command on its own)
	 * @since 0.1.0
	 */
	public record Row(String strategy, String description, long commands, long commandsPerSecond, double p50Micros,
			double p99Micros, @Nullable Double commandsPerWrite) {

	}

}
