package dev.redisbatch;

/**
 * A command that did not succeed. It never contains key or value text.
 *
 * @param index the command's position in the batch, from 0
 * @param command the command name in upper case, such as {@code INCR}
 * @param outcome how it ended: {@code FAILED}, {@code UNKNOWN} or {@code NOT_SENT}
 * @param message the Redis error (such as {@code WRONGTYPE ...}) or the reason
 * @since 0.1.0
 */
public record BatchFailure(int index, String command, Outcome outcome, String message) {

	@Override
	public String toString() {
		return "#" + this.index + " " + this.command + " " + this.outcome + ": " + this.message;
	}

}
