package dev.redisbatch;

import dev.redisbatch.observation.BatchObservationContext;
import dev.redisbatch.observation.BatchObservationConvention;
import dev.redisbatch.observation.BatchObservationDocumentation;
import dev.redisbatch.observation.DefaultBatchObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Where batches report themselves: the observation registry and the naming convention of
 * a template.
 *
 * @param registry the registry ({@link ObservationRegistry#NOOP} to record nothing)
 * @param convention a custom convention, or {@code null} for the default
 */
record BatchObservations(ObservationRegistry registry, @Nullable BatchObservationConvention convention) {

	static final BatchObservations NONE = new BatchObservations(ObservationRegistry.NOOP, null);

	Observation start(BatchObservationContext context) {
		return BatchObservationDocumentation.BATCH
			.observation(this.convention, DefaultBatchObservationConvention.INSTANCE, () -> context, this.registry)
			.start();
	}

	/**
	 * The task, run on another thread inside the observation that is current here, so
	 * that a batch run elsewhere keeps its caller's observation as its parent.
	 */
	Runnable inCurrentObservation(Runnable task) {
		Observation parent = this.registry.getCurrentObservation();
		if (parent == null) {
			return task;
		}
		return () -> {
			try (Observation.Scope scope = parent.openScope()) {
				task.run();
			}
		};
	}

}
