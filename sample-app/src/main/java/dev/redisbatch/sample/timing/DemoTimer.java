package dev.redisbatch.sample.timing;

import java.time.Duration;
import java.util.List;

import dev.redisbatch.sample.strategy.DemoData;
import dev.redisbatch.sample.strategy.DemoStrategy;
import dev.redisbatch.sample.strategy.Deadline;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Times one strategy on the sample's data. Each timing is preceded by the strategy's
 * untimed warm-up (a few commands of the same kind on the same keys), so that opening
 * pooled connections and the first JIT compilation are not timed. Spring Data's
 * {@code executePipelined} still opens a new connection for the timed call: that is how
 * it works with Spring Boot's defaults.
 *
 * @since 0.1.0
 */
@Component
public class DemoTimer {

	/**
	 * The time to live of every key the sample writes.
	 */
	public static final Duration TTL = Duration.ofHours(1);

	/**
	 * Time {@code SET key value PX 3600000} for keys {@code sample:0} to
	 * {@code sample:<count-1>}.
	 * @param strategy the strategy
	 * @param count the number of keys
	 * @param deadline when to stop early
	 * @return the measurement
	 */
	public Measurement set(DemoStrategy strategy, int count, Deadline deadline) {
		DemoData data = DemoData.of(count);
		strategy.warmUpSet(data, TTL);
		long start = System.nanoTime();
		int done = strategy.set(data, TTL, deadline);
		long elapsed = System.nanoTime() - start;
		return new Measurement(strategy.name(), count, done, elapsed, null);
	}

	/**
	 * Time {@code GET key} for keys {@code sample:0} to {@code sample:<count-1>}.
	 * @param strategy the strategy
	 * @param count the number of keys
	 * @param deadline when to stop early
	 * @return the measurement, with the values read
	 */
	public Measurement get(DemoStrategy strategy, int count, Deadline deadline) {
		List<String> keys = DemoData.of(count).keys();
		strategy.warmUpGet(keys);
		long start = System.nanoTime();
		List<@Nullable String> results = strategy.get(keys, deadline);
		long elapsed = System.nanoTime() - start;
		return new Measurement(strategy.name(), count, results.size(), elapsed, results);
	}

	/**
	 * Time an operation.
	 * @param operation the operation
	 * @param strategy the strategy
	 * @param count the number of keys
	 * @param deadline when to stop early
	 * @return the measurement
	 */
	public Measurement time(Operation operation, DemoStrategy strategy, int count, Deadline deadline) {
		return (operation == Operation.SET) ? set(strategy, count, deadline) : get(strategy, count, deadline);
	}

}
