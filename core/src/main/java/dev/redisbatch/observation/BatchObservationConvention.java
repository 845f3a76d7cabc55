package dev.redisbatch.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code redis.batch} observation. Define a bean of this type to
 * replace {@link DefaultBatchObservationConvention}.
 *
 * @since 0.1.0
 */
public interface BatchObservationConvention extends ObservationConvention<BatchObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof BatchObservationContext;
	}

}
