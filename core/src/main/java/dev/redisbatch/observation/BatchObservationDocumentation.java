package dev.redisbatch.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation redis-batch records, and its keys.
 *
 * @since 0.1.0
 */
public enum BatchObservationDocumentation implements ObservationDocumentation {

	/**
	 * One batch, from its first command until every command has its outcome.
	 */
	BATCH {

		@Override
		public String getName() {
			return "redis.batch";
		}

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultBatchObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeys.values();
		}

	};

	/**
	 * Tags with fixed, bounded values.
	 */
	public enum LowCardinalityKeys implements KeyName {

		/**
		 * The batch name from the options or the annotation; {@code default} otherwise.
		 */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * {@code success}, {@code partial} or {@code failure}.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/**
		 * {@code pipeline} or {@code transaction}.
		 */
		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		},

		/**
		 * {@code standalone}, {@code sentinel} or {@code cluster}.
		 */
		TOPOLOGY {
			@Override
			public String asString() {
				return "topology";
			}
		},

		/**
		 * The path the batch's bytes took: {@code caller} (its own thread read and wrote
		 * the sockets), {@code event-loop} (the connections' event loops did, as under
		 * TLS), {@code portable} (Lettuce's own pipelining), or {@code none} (no command
		 * was sent).
		 */
		PATH {
			@Override
			public String asString() {
				return "path";
			}
		}

	}

	/**
	 * Values for spans only.
	 */
	public enum HighCardinalityKeys implements KeyName {

		/**
		 * The number of commands.
		 */
		SIZE {
			@Override
			public String asString() {
				return "redis.batch.size";
			}
		},

		/**
		 * The number of chunks sent.
		 */
		CHUNKS {
			@Override
			public String asString() {
				return "redis.batch.chunks";
			}
		},

		/**
		 * Milliseconds the batch waited for its rate cap; only for a batch with a cap.
		 */
		THROTTLE_WAIT {
			@Override
			public String asString() {
				return "redis.batch.throttle.wait.ms";
			}

			@Override
			public boolean isRequired() {
				return false;
			}
		},

		/**
		 * The keys the scan of a bulk operation returned; only for a bulk operation.
		 */
		KEYS_MATCHED {
			@Override
			public String asString() {
				return "redis.batch.keys.matched";
			}

			@Override
			public boolean isRequired() {
				return false;
			}
		}

	}

}
