package dev.redisbatch.benchmarks;

import java.util.function.IntFunction;

/**
 * One way to send a batch of Redis commands from a Java application. An instance holds
 * long-lived clients and connections (created once per trial, as an application would)
 * and runs one batch at a time.
 * <p>
 * Every batch checks its replies and returns how many came back as expected, so that
 * nothing is measured that did not happen. To add a strategy, implement this interface
 * and register it in {@link Strategies}.
 */
interface Strategy extends AutoCloseable {

	/**
	 * {@code SET key value} with the workload's TTL, for every key (a Spring Batch item
	 * writer writes no TTL: {@link SpringBatchWriterStrategy}).
	 * @param workload the data
	 * @return how many SETs were acknowledged
	 */
	long set(Workload workload);

	/**
	 * {@code GET} of every key (they exist).
	 * @param workload the data
	 * @return how many values came back equal to the values written
	 */
	long get(Workload workload);

	/**
	 * One batch of {@code count} {@code SET}s with the TTL, with keys generated on the
	 * fly: a batch larger than the heap could hold as input. Keeps no more per-command
	 * state than the client's API forces.
	 * @param count the number of commands
	 * @param keys the key of each command, by index
	 * @param value the value of every command
	 */
	void setGenerated(int count, IntFunction<String> keys, String value);

	@Override
	void close();

}
