package dev.redisbatch.sample.timing;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.sample.SampleProperties;
import dev.redisbatch.sample.redis.RedisRouter;
import dev.redisbatch.sample.strategy.BatchTemplateStrategy;
import dev.redisbatch.sample.strategy.DemoData;
import dev.redisbatch.sample.strategy.DemoStrategy;
import dev.redisbatch.sample.strategy.Deadline;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

/**
 * Runs comparisons and sweeps, one at a time.
 *
 * @since 0.1.0
 */
@Service
public class ComparisonService {

	/**
	 * The largest chunk size of the sweep.
	 */
	public static final int MAX_SWEEP_CHUNK_SIZE = 10_000;

	private final List<DemoStrategy> strategies;

	private final BatchTemplateStrategy batchTemplate;

	private final StringBatchTemplate seeder;

	private final DemoTimer timer;

	private final RunGuard guard;

	private final RedisRouter router;

	private final SampleProperties properties;

	/**
	 * Create the service.
	 * @param strategies every strategy, in order
	 * @param batchTemplate the batch template strategy the sweep varies
	 * @param seeder writes the data a {@code GET} comparison reads
	 * @param timer times one strategy
	 * @param guard lets one run at a time
	 * @param router knows the simulated round-trip time
	 * @param properties the time budgets
	 */
	public ComparisonService(List<DemoStrategy> strategies,
			@Qualifier("batchTemplateStrategy") BatchTemplateStrategy batchTemplate, StringBatchTemplate seeder,
			DemoTimer timer, RunGuard guard, RedisRouter router, SampleProperties properties) {
		this.strategies = List.copyOf(strategies);
		this.batchTemplate = batchTemplate;
		this.seeder = seeder;
		this.timer = timer;
		this.guard = guard;
		this.router = router;
		this.properties = properties;
	}

	/**
	 * Every strategy, in order.
	 * @return the strategies
	 */
	public List<DemoStrategy> strategies() {
		return this.strategies;
	}

	/**
	 * Time the given strategies one after the other on the same data. Each may run for
	 * the time budget ({@code sample.time-budget}).
	 * @param operation what to send for every key
	 * @param count the number of keys
	 * @param selected the strategies, in order
	 * @return the comparison
	 * @throws RunGuard.RunInProgressException if a comparison or sweep is running
	 */
	public Comparison compare(Operation operation, int count, List<DemoStrategy> selected) {
		return this.guard.run("comparison", () -> {
			double rtt = rttMillis();
			if (operation == Operation.GET) {
				seed(count);
			}
			List<Comparison.Row> rows = new ArrayList<>();
			for (DemoStrategy strategy : selected) {
				Measurement measured = this.timer.time(operation, strategy, count,
						Deadline.after(this.properties.getTimeBudget()));
				rows.add(new Comparison.Row(strategy.name(), strategy.description(), measured.completed(),
						measured.millis(), measured.opsPerSecond(), measured.complete()));
			}
			return new Comparison(operation.id(), count, rtt, rows);
		});
	}

	/**
	 * Time {@code SET} through the batch template with chunk sizes 1, 2, 4, ... up to
	 * {@value #MAX_SWEEP_CHUNK_SIZE} (and no larger than the count), one chunk in flight
	 * at a time (a command window of one chunk), as {@code redis-benchmark -P} sends its
	 * pipelines. Each chunk size may run for {@code sample.sweep.point-budget}.
	 * @param count the number of keys
	 * @return the sweep
	 * @throws RunGuard.RunInProgressException if a comparison or sweep is running
	 */
	public Sweep sweep(int count) {
		return this.guard.run("sweep", () -> {
			double rtt = rttMillis();
			List<Sweep.Point> points = new ArrayList<>();
			for (int chunkSize : chunkSizes(count)) {
				DemoStrategy strategy = this.batchTemplate.withOptions(
						BatchTemplateStrategy.NAME + "-chunk-" + chunkSize,
						"StringBatchTemplate with chunks of " + chunkSize + " commands, one in flight at a time",
						BatchOptions.builder()
							.chunkSize(chunkSize)
							.maxInFlightCommands(chunkSize)
							.name("sample.sweep")
							.build());
				Measurement measured = this.timer.set(strategy, count,
						Deadline.after(this.properties.getSweep().getPointBudget()));
				points.add(new Sweep.Point(chunkSize, strategy.name(), measured.completed(), measured.millis(),
						measured.opsPerSecond(), measured.complete()));
			}
			return new Sweep(count, rtt, points);
		});
	}

	/**
	 * The chunk sizes a sweep of the given count times: powers of two below the count and
	 * below {@value #MAX_SWEEP_CHUNK_SIZE}, then the count itself (at most
	 * {@value #MAX_SWEEP_CHUNK_SIZE}).
	 * @param count the number of keys
	 * @return the chunk sizes, smallest first
	 */
	public static List<Integer> chunkSizes(int count) {
		List<Integer> sizes = new ArrayList<>();
		int last = Math.min(count, MAX_SWEEP_CHUNK_SIZE);
		for (int size = 1; size < last; size *= 2) {
			sizes.add(size);
		}
		sizes.add(last);
		return sizes;
	}

	private void seed(int count) {
		DemoData data = DemoData.of(count);
		this.seeder.execute(BatchOptions.builder().name("sample.seed").build(), (batch) -> {
			for (int i = 0; i < data.size(); i++) {
				batch.set(data.keys().get(i), data.values().get(i), DemoTimer.TTL);
			}
		});
	}

	private double rttMillis() {
		return this.router.roundTrip().toNanos() / 1_000_000.0;
	}

}
