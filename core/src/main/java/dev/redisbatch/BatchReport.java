package dev.redisbatch;

import java.util.Arrays;
import java.util.Locale;

import dev.redisbatch.observation.BatchObservationContext;
import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * How a batch reports itself: one {@code redis.batch} observation, started with its first
 * command and stopped with its results, the duration of each chunk, and one log line
 * (DEBUG, or WARN when commands ended {@link Outcome#UNKNOWN}). Counts and timing only:
 * never a key or a value.
 */
final class BatchReport {

	private static final Log logger = LogFactory.getLog(BatchReport.class);

	private final BatchObservations observations;

	private final BatchObservationContext context;

	private @Nullable Observation observation;

	private BatchReport(BatchObservations observations, BatchObservationContext context) {
		this.observations = observations;
		this.context = context;
	}

	/**
	 * The tag value of each topology, made once rather than per batch.
	 */
	private static final String[] TOPOLOGY_TAGS = Arrays.stream(BatchConnectionPool.Topology.values())
		.map((topology) -> topology.name().toLowerCase(Locale.ROOT))
		.toArray(String[]::new);

	/**
	 * The report of a new batch; nothing is observed until its first command.
	 */
	static BatchReport of(BatchObservations observations, RunSettings settings, BatchConnectionPool.Topology topology) {
		BatchObservationContext context = new BatchObservationContext(settings.name(), settings.transactional()
				? BatchObservationContext.Mode.TRANSACTION : BatchObservationContext.Mode.PIPELINE,
				TOPOLOGY_TAGS[topology.ordinal()]);
		return new BatchReport(observations, context);
	}

	/**
	 * The batch recorded a command: observe it from now on.
	 */
	void started() {
		if (this.observation == null) {
			this.observation = this.observations.start(this.context);
		}
	}

	void chunkSettled(long nanos) {
		this.context.chunkCompleted(nanos);
	}

	/**
	 * The batch runs under a rate cap: its throttle wait is reported, even when zero.
	 */
	void rateCapped() {
		this.context.setRateCapped(true);
	}

	/**
	 * The batch waited for its rate cap before writing a chunk.
	 * @param nanos how long
	 */
	void throttled(long nanos) {
		this.context.addThrottleWait(nanos);
	}

	/**
	 * The batch is the bulk operation of a scan.
	 * @param operation the operation, such as {@code unlink} (a fixed value)
	 */
	void bulk(String operation) {
		this.context.setBulkOperation(operation);
	}

	/**
	 * A scan of a bulk operation returned keys.
	 * @param keys how many
	 */
	void keysMatched(long keys) {
		this.context.addKeysMatched(keys);
	}

	/**
	 * Stop the observation with the batch's results, and log them.
	 * @param stoppedBecause why the batch stopped early, or {@code null}
	 */
	void finish(BatchResults results, @Nullable String stoppedBecause) {
		Observation current = this.observation;
		if (current == null) {
			return;
		}
		this.context.setResults(results.count(Outcome.SUCCESS), results.count(Outcome.FAILED),
				results.count(Outcome.UNKNOWN), results.count(Outcome.NOT_SENT), results.chunks());
		current.stop();
		if (results.count(Outcome.UNKNOWN) > 0) {
			logger.warn("Batch '" + results.name() + "' ended with " + results.count(Outcome.UNKNOWN)
					+ " commands in an UNKNOWN state: they were sent but got no reply, so they may or may not have run ("
					+ stoppedBecause + "). " + results.summary());
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Batch '" + results.name() + "' ended: " + results.summary()
					+ ((stoppedBecause != null) ? "; stopped early: " + stoppedBecause : ""));
		}
	}

}
