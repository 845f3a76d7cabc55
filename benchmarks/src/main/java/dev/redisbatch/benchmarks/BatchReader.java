package dev.redisbatch.benchmarks;

/**
 * One way to read a batch of keys, used by many threads at once (the concurrent
 * scenario). It checks every value and returns how many came back as written.
 */
interface BatchReader extends AutoCloseable {

	/**
	 * Read the value of every key of the workload (they exist).
	 * @param keys the keys and the values they hold
	 * @return how many values came back equal to the values written
	 */
	long read(Workload keys);

	@Override
	void close();

	/**
	 * The GET of a strategy, as a reader.
	 * @param strategy the strategy, thread-safe
	 * @return the reader; closing it closes the strategy
	 */
	static BatchReader of(Strategy strategy) {
		return new BatchReader() {

			@Override
			public long read(Workload keys) {
				return strategy.get(keys);
			}

			@Override
			public void close() {
				strategy.close();
			}

		};
	}

}
