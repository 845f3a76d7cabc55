package dev.redisbatch.observation;

import io.micrometer.common.KeyValues;

/**
 * The default naming and tags of the {@code redis.batch} observation: low-cardinality
 * tags {@code name}, {@code outcome}, {@code mode}, {@code topology} and {@code path},
 * and the size and chunk count as high-cardinality values (spans only), with the throttle
 * wait of a batch under a rate cap and the keys matched by a bulk operation.
 *
 * @since 0.1.0
 */
public class DefaultBatchObservationConvention implements BatchObservationConvention {

	/**
	 * A shared instance.
	 */
	public static final DefaultBatchObservationConvention INSTANCE = new DefaultBatchObservationConvention();

	@Override
	public String getName() {
		return BatchObservationDocumentation.BATCH.getName();
	}

	@Override
	public String getContextualName(BatchObservationContext context) {
		return "redis batch " + context.getBatchName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(BatchObservationContext context) {
		return KeyValues.of(BatchObservationDocumentation.LowCardinalityKeys.NAME.withValue(context.getBatchName()),
				BatchObservationDocumentation.LowCardinalityKeys.OUTCOME.withValue(context.getOutcome()),
				BatchObservationDocumentation.LowCardinalityKeys.MODE.withValue(context.getMode().tagValue()),
				BatchObservationDocumentation.LowCardinalityKeys.TOPOLOGY.withValue(context.getTopology()),
				BatchObservationDocumentation.LowCardinalityKeys.PATH.withValue(context.getPath()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(BatchObservationContext context) {
		KeyValues values = KeyValues.of(
				BatchObservationDocumentation.HighCardinalityKeys.SIZE.withValue(String.valueOf(context.getSize())),
				BatchObservationDocumentation.HighCardinalityKeys.CHUNKS
					.withValue(String.valueOf(context.getChunks())));
		if (context.isRateCapped()) {
			values = values.and(BatchObservationDocumentation.HighCardinalityKeys.THROTTLE_WAIT
				.withValue(String.valueOf(context.getThrottleWait().toMillis())));
		}
		if (context.getBulkOperation() != null) {
			values = values.and(BatchObservationDocumentation.HighCardinalityKeys.KEYS_MATCHED
				.withValue(String.valueOf(context.getKeysMatched())));
		}
		return values;
	}

}
