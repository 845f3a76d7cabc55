package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

/**
 * The step's execution context, as the writer and the reader keep their state in it: the
 * one thing of Spring Batch their logic needs. Each line's {@code RedisBatchItemWriter}
 * and {@code RedisBatchItemReader} hand their line's {@code ExecutionContext} over as
 * one.
 */
interface StepState {

	/**
	 * The text kept under a key.
	 * @param key the key
	 * @return the text, or {@code null} if there is none
	 */
	@Nullable String getString(String key);

	/**
	 * Keep a text under a key.
	 * @param key the key
	 * @param value the text
	 */
	void putString(String key, String value);

	/**
	 * Remove what is kept under a key, if anything.
	 * @param key the key
	 */
	void remove(String key);

}
