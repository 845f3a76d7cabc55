package dev.redisbatch.observation;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Records the batch meters from each {@code redis.batch} observation:
 * <ul>
 * <li>{@code redis.batch.commands} (counter, commands), tagged {@code name} and
 * {@code outcome} ({@code success}, {@code failed}, {@code unknown},
 * {@code not_sent});</li>
 * <li>{@code redis.batch.size} (distribution summary, commands per batch), tagged
 * {@code name};</li>
 * <li>{@code redis.batch.chunks} (counter, chunks), tagged {@code name};</li>
 * <li>{@code redis.batch.chunk.duration} (timer, from a chunk's write to its last reply),
 * tagged {@code name};</li>
 * <li>{@code redis.batch.throttle.wait} (timer, the time a batch under a rate cap waited
 * for it, one record per batch), tagged {@code name};</li>
 * <li>{@code redis.batch.keys.matched} (counter, keys a bulk operation's scan returned),
 * tagged {@code name} and {@code operation} ({@code unlink}, {@code del}, {@code expire},
 * {@code persist}, {@code count}).</li>
 * </ul>
 * The batch timer itself ({@code redis.batch}) comes from Micrometer's default meter
 * handler.
 *
 * @since 0.1.0
 */
public class BatchMetricsObservationHandler implements ObservationHandler<BatchObservationContext> {

	private final MeterRegistry registry;

	/**
	 * Create a handler.
	 * @param registry where to record
	 */
	public BatchMetricsObservationHandler(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof BatchObservationContext;
	}

	@Override
	public void onStart(BatchObservationContext context) {
		Timer chunkTimer = Timer.builder("redis.batch.chunk.duration")
			.description("Time from a chunk's write to its last reply")
			.tag("name", context.getBatchName())
			.register(this.registry);
		context.setChunkListener((nanos) -> chunkTimer.record(nanos, TimeUnit.NANOSECONDS));
	}

	@Override
	public void onStop(BatchObservationContext context) {
		String name = context.getBatchName();
		count(name, "success", context.getSucceeded());
		count(name, "failed", context.getFailed());
		count(name, "unknown", context.getUnknown());
		count(name, "not_sent", context.getNotSent());
		DistributionSummary.builder("redis.batch.size")
			.description("Commands per batch")
			.baseUnit("commands")
			.tag("name", name)
			.register(this.registry)
			.record(context.getSize());
		Counter.builder("redis.batch.chunks")
			.description("Chunks sent")
			.baseUnit("chunks")
			.tag("name", name)
			.register(this.registry)
			.increment(context.getChunks());
		if (context.isRateCapped()) {
			Timer.builder("redis.batch.throttle.wait")
				.description("Time a batch under a rate cap waited for it")
				.tag("name", name)
				.register(this.registry)
				.record(context.getThrottleWait());
		}
		String operation = context.getBulkOperation();
		if (operation != null) {
			Counter.builder("redis.batch.keys.matched")
				.description("Keys the scan of a bulk operation returned")
				.baseUnit("keys")
				.tag("name", name)
				.tag("operation", operation)
				.register(this.registry)
				.increment(context.getKeysMatched());
		}
	}

	private void count(String name, String outcome, long amount) {
		Counter.builder("redis.batch.commands")
			.description("Commands by outcome")
			.baseUnit("commands")
			.tag("name", name)
			.tag("outcome", outcome)
			.register(this.registry)
			.increment(amount);
	}

}
