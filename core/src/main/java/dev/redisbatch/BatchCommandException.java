package dev.redisbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/**
 * Thrown by {@link Response#get()} when a command did not succeed. The message carries
 * the Redis error text (such as {@code WRONGTYPE Operation against a key holding the
 * wrong kind of value}) or the reason the command has no value. It never contains key or
 * value text.
 *
 * @since 0.1.0
 */
public class BatchCommandException extends DataAccessException {

	private final BatchFailure failure;

	/**
	 * Create an exception for a failed command.
	 * @param failure the failure
	 * @param cause the underlying exception, if any
	 */
	public BatchCommandException(BatchFailure failure, @Nullable Throwable cause) {
		super(failure.command() + " (#" + failure.index() + ") " + describe(failure.outcome()) + ": "
				+ failure.message(), cause);
		this.failure = failure;
	}

	/**
	 * The failure: index, command, outcome and message.
	 * @return the failure
	 */
	public BatchFailure getFailure() {
		return this.failure;
	}

	/**
	 * How the command ended.
	 * @return the outcome
	 */
	public Outcome getOutcome() {
		return this.failure.outcome();
	}

	private static String describe(Outcome outcome) {
		return switch (outcome) {
			case FAILED -> "failed";
			case UNKNOWN -> "has an unknown outcome (it was sent, no reply came; it may have run)";
			case NOT_SENT -> "was not sent";
			case SUCCESS -> "succeeded";
		};
	}

}
