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

	/**
	 * What the observation reports, or {@code null} when nothing observes batches (a
	 * registry without handlers): then the batch makes no context and no observation, and
	 * only logs.
	 */
	private final @Nullable BatchObservationContext context;

	private @Nullable Observation observation;

	private boolean started;

	private BatchReport(BatchObservations observations, @Nullable BatchObservationContext context) {
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
		if (observations.registry().isNoop()) {
			return new BatchReport(observations, null);
		}
		BatchObservationContext context = new BatchObservationContext(settings.name(), settings.transactional()
				? BatchObservationContext.Mode.TRANSACTION : BatchObservationContext.Mode.PIPELINE,
				TOPOLOGY_TAGS[topology.ordinal()]);
		return new BatchReport(observations, context);
	}

	/**
	 * The batch recorded a command: observe it from now on.
	 */
	void started() {
		if (!this.started) {
			this.started = true;
			BatchObservationContext observed = this.context;
			if (observed != null) {
				this.observation = this.observations.start(observed);
			}
		}
	}

	/**
	 * A chunk settled.
	 * @param nanos the time from its write to its settlement
	 */
	void chunkSettled(long nanos) {
		if (this.context != null) {
			this.context.chunkCompleted(nanos);
		}
	}

	/**
	 * The batch runs under a rate cap: its throttle wait is reported, even when zero.
	 */
	void rateCapped() {
		if (this.context != null) {
			this.context.setRateCapped(true);
		}
	}

	/**
	 * The batch waited for its rate cap before writing a chunk.
	 * @param nanos how long
	 */
	void throttled(long nanos) {
		if (this.context != null) {
			this.context.addThrottleWait(nanos);
		}
	}

	/**
	 * A lane leased a connection: the first one says which path the batch's bytes take.
	 * @param path the path's tag value
	 */
	void leased(String path) {
		BatchObservationContext observed = this.context;
		if (observed != null && "none".equals(observed.getPath())) {
			observed.setPath(path);
		}
	}

	/**
	 * The batch is the bulk operation of a scan.
	 * @param operation the operation, such as {@code unlink} (a fixed value)
	 */
	void bulk(String operation) {
		if (this.context != null) {
			this.context.setBulkOperation(operation);
		}
	}

	/**
	 * A scan of a bulk operation returned keys.
	 * @param keys how many
	 */
	void keysMatched(long keys) {
		if (this.context != null) {
			this.context.addKeysMatched(keys);
		}
	}

	/**
	 * Stop the observation with the batch's results, and log them.
	 * @param stoppedBecause why the batch stopped early, or {@code null}
	 */
	void finish(BatchResults results, @Nullable String stoppedBecause) {
		if (!this.started) {
			return;
		}
		Observation current = this.observation;
		BatchObservationContext observed = this.context;
		if (current != null && observed != null) {
			observed.setResults(results.count(Outcome.SUCCESS), results.count(Outcome.FAILED),
					results.count(Outcome.UNKNOWN), results.count(Outcome.NOT_SENT), results.chunks());
			current.stop();
		}
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
