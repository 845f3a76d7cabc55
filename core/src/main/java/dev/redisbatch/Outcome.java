package dev.redisbatch;

/**
 * How a command in a batch ended. Every submitted command ends in exactly one outcome.
 *
 * @since 0.1.0
 */
public enum Outcome {

	/**
	 * Redis answered with a value: the command ran.
	 */
	SUCCESS,

	/**
	 * The command did not run: Redis answered with an error (such as {@code WRONGTYPE}),
	 * the transaction it belonged to was discarded, or it could not be serialized.
	 */
	FAILED,

	/**
	 * The command was sent but no answer came (the connection broke or its chunk passed
	 * its deadline). It may or may not have run. It is never sent again silently.
	 */
	UNKNOWN,

	/**
	 * The command was never sent, so it did not run and is safe to retry.
	 */
	NOT_SENT

}
