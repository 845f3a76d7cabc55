package dev.redisbatch.springbatch;

import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The step's execution context, as the writer and the reader keep their state in it: the
 * one thing of Spring Batch their logic needs. Each line's {@code ExecutionContextState}
 * makes one of its line's {@code ExecutionContext}, with its {@code ItemStreamException}
 * for state that cannot be read back.
 */
final class StepState {

	private final Function<String, @Nullable Object> get;

	private final BiConsumer<String, String> put;

	private final Consumer<String> remove;

	private final BiFunction<String, Throwable, ? extends RuntimeException> unreadable;

	/**
	 * The state kept in a line's execution context.
	 * @param get reads what is kept under a key ({@code null} if nothing)
	 * @param put keeps a text under a key
	 * @param remove removes what is kept under a key
	 * @param unreadable makes the exception that fails the stream when what was kept
	 * cannot be read back, from a message and the cause
	 */
	StepState(Function<String, @Nullable Object> get, BiConsumer<String, String> put, Consumer<String> remove,
			BiFunction<String, Throwable, ? extends RuntimeException> unreadable) {
		this.get = get;
		this.put = put;
		this.remove = remove;
		this.unreadable = unreadable;
	}

	/**
	 * The text kept under a key.
	 * @param key the key
	 * @return the text, or {@code null} if there is none
	 * @throws ClassCastException if what is kept there is not a text
	 */
	@Nullable String getString(String key) {
		return (String) this.get.apply(key);
	}

	/**
	 * Keep a text under a key.
	 * @param key the key
	 * @param value the text
	 */
	void putString(String key, String value) {
		this.put.accept(key, value);
	}

	/**
	 * Remove what is kept under a key, if anything.
	 * @param key the key
	 */
	void remove(String key) {
		this.remove.accept(key);
	}

	/**
	 * The exception to throw when what the writer or the reader kept cannot be read back:
	 * the line's {@code ItemStreamException}.
	 * @param message what cannot be read, and why
	 * @param cause why
	 * @return the exception
	 */
	RuntimeException unreadable(String message, Throwable cause) {
		return this.unreadable.apply(message, cause);
	}

}
