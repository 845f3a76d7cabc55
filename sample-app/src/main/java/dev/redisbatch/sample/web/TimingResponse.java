package dev.redisbatch.sample.web;

import dev.redisbatch.sample.timing.Measurement;

/**
 * The answer of the {@code SET} endpoints.
 *
 * @param strategy the strategy's name
 * @param count the number of commands
 * @param millis the time they took
 * @param opsPerSecond commands per second
 * @since 0.1.0
 */
public record TimingResponse(String strategy, int count, double millis, long opsPerSecond) {

	static TimingResponse of(Measurement measurement) {
		return new TimingResponse(measurement.strategy(), measurement.completed(), measurement.millis(),
				measurement.opsPerSecond());
	}

}
