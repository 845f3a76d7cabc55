package dev.redisbatch.docs;

import dev.redisbatch.observation.BatchObservationContext;
import dev.redisbatch.observation.DefaultBatchObservationConvention;
import io.micrometer.common.KeyValues;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The examples of docs/observability.md.
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityExamples {

	// tag::convention[]
	@Bean
	DefaultBatchObservationConvention teamBatchConvention() {
		return new DefaultBatchObservationConvention() {

			@Override
			public KeyValues getLowCardinalityKeyValues(BatchObservationContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "orders");
			}

		};
	}
	// end::convention[]

}
