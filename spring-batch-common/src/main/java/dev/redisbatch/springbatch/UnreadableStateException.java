package dev.redisbatch.springbatch;

/**
 * What the writer or the reader saved in the step's execution context cannot be read
 * back. Each line's adapter rethrows it as its Spring Batch's
 * {@code ItemStreamException}, with the same message and cause.
 */
final class UnreadableStateException extends RuntimeException {

	UnreadableStateException(String message, Throwable cause) {
		super(message, cause);
	}

}
