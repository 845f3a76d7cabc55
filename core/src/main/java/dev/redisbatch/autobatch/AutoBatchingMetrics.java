package dev.redisbatch.autobatch;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * The meter of auto-batching: {@code redis.batch.auto.commands.per.write}, a distribution
 * summary of the commands each write carries, with no tags. Its count is the number of
 * writes, its total the number of commands: total / count is the mean group size, 1 when
 * nothing was batched.
 * <p>
 * A {@link WriteListener} to give {@link AutoBatching.Builder#writeListener} and a
 * {@link MeterBinder}: writes before it is bound to a registry are not recorded. It needs
 * Micrometer, which auto-batching itself does not.
 *
 * @since 0.1.0
 */
public class AutoBatchingMetrics implements WriteListener, MeterBinder {

	/**
	 * The name of the meter.
	 */
	public static final String COMMANDS_PER_WRITE = "redis.batch.auto.commands.per.write";

	private volatile @Nullable DistributionSummary commandsPerWrite;

	@Override
	public void bindTo(MeterRegistry registry) {
		this.commandsPerWrite = DistributionSummary.builder(COMMANDS_PER_WRITE)
			.description("Commands per write of auto-batching")
			.baseUnit("commands")
			.register(registry);
	}

	@Override
	public void written(int commands) {
		DistributionSummary summary = this.commandsPerWrite;
		if (summary != null) {
			summary.record(commands);
		}
	}

}
