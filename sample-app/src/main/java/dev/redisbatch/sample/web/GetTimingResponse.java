package dev.redisbatch.sample.web;

import java.util.List;

import dev.redisbatch.sample.timing.Measurement;
import org.jspecify.annotations.Nullable;

/**
 * The answer of the {@code GET} endpoints.
 *
 * @param strategy the strategy's name
 * @param count the number of commands
 * @param millis the time they took
 * @param opsPerSecond commands per second
 * @param results the values, in key order, {@code null} where a key does not exist
 * @since 0.1.0
 */
public record GetTimingResponse(String strategy, int count, double millis, long opsPerSecond,
		List<@Nullable String> results) {

	static GetTimingResponse of(Measurement measurement) {
		List<@Nullable String> results = measurement.results();
		return new GetTimingResponse(measurement.strategy(), measurement.completed(), measurement.millis(),
				measurement.opsPerSecond(), (results != null) ? results : List.of());
	}

}
