package dev.redisbatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Response} of one recorded command, and the place its outcome is decided.
 * <p>
 * It holds the Lettuce command until its chunk is settled, then only the raw reply (or
 * the failure), so memory is released chunk by chunk. The outcome is decided once, on the
 * batch's thread, and never changes afterwards, even if a late reply arrives.
 *
 * @param <T> the value type
 */
final class CommandResponse<T extends @Nullable Object> implements Response<T> {

	private static final Object NOT_CONVERTED = new Object();

	private final int index;

	private final Function<@Nullable Object, T> converter;

	private @Nullable RedisCommand<byte[], byte[], ?> command;

	private @Nullable String commandName;

	private @Nullable Object raw;

	private @Nullable String message;

	private @Nullable Throwable cause;

	private volatile @Nullable Object converted = NOT_CONVERTED;

	private volatile @Nullable Outcome outcome;

	CommandResponse(int index, RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.command = command;
		this.converter = converter;
	}

	private CommandResponse(int index, String commandName, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.commandName = commandName;
		this.converter = converter;
	}

	/**
	 * A response for a command that failed before it could be recorded (its key or value
	 * could not be serialized).
	 */
	static <T> CommandResponse<T> failedLocally(int index, String commandName, String message, Throwable cause,
			OutcomeLedger ledger) {
		CommandResponse<T> response = new CommandResponse<>(index, commandName, (raw) -> null);
		response.cause = cause;
		response.settle(Outcome.FAILED, message, ledger);
		return response;
	}

	int index() {
		return this.index;
	}

	RedisCommand<byte[], byte[], ?> command() {
		RedisCommand<byte[], byte[], ?> current = this.command;
		if (current == null) {
			throw new IllegalStateException("Command #" + this.index + " was already settled");
		}
		return current;
	}

	boolean isSettled() {
		return this.outcome != null;
	}

	@Override
	@SuppressWarnings("unchecked")
	public T get() {
		Outcome current = requireOutcome();
		if (current != Outcome.SUCCESS) {
			throw new BatchCommandException(failure(), this.cause);
		}
		Object value = this.converted;
		if (value == NOT_CONVERTED) {
			value = this.converter.apply(this.raw);
			this.converted = value;
		}
		return (T) value;
	}

	@Override
	public Outcome outcome() {
		return requireOutcome();
	}

	BatchFailure failure() {
		Outcome current = requireOutcome();
		return new BatchFailure(this.index, name(), current, (this.message != null) ? this.message : "");
	}

	/**
	 * Decide the outcome from the command's state once its chunk has been answered or has
	 * passed its deadline.
	 * @param noReply why an unanswered command has no reply
	 */
	void settleFromReply(String noReply, OutcomeLedger ledger) {
		RedisCommand<byte[], byte[], ?> current = command();
		if (!current.isDone()) {
			settle(Outcome.UNKNOWN, noReply, ledger);
			return;
		}
		// Only the exception type tells a Redis error reply from a local failure: Lettuce
		// also writes its own errors (such as "Connection disconnected") into the output.
		Throwable failure = failureOf(current);
		if (failure == null) {
			CommandOutput<byte[], byte[], ?> output = current.getOutput();
			this.raw = (output != null) ? output.get() : null;
			settle(Outcome.SUCCESS, null, ledger);
		}
		else if (isErrorReply(failure)) {
			settle(Outcome.FAILED, explain(String.valueOf(failure.getMessage())), ledger);
		}
		else {
			this.cause = failure;
			settle(Outcome.UNKNOWN, "sent, but no reply came (" + describe(failure) + "); it may have run", ledger);
		}
	}

	void settle(Outcome decided, @Nullable String reason, OutcomeLedger ledger) {
		if (this.outcome != null) {
			return;
		}
		if (decided == Outcome.SUCCESS) {
			ledger.success();
		}
		else {
			this.commandName = name();
			this.message = reason;
			ledger.failure(this.index, this.commandName, decided, (reason != null) ? reason : "");
		}
		this.command = null;
		this.outcome = decided;
	}

	/**
	 * The error Redis answered for a command, or {@code null} if it has no reply or Redis
	 * answered with a value.
	 */
	static @Nullable String errorReply(RedisCommand<?, ?, ?> command) {
		Throwable failure = failureOf(command);
		return (failure != null && isErrorReply(failure)) ? String.valueOf(failure.getMessage()) : null;
	}

	/**
	 * Name the server limit behind an error that does not say which one it is.
	 */
	static String explain(String error) {
		if (error.contains("Protocol error: invalid bulk length")) {
			return error + " (a key or value is larger than the server's proto-max-bulk-len)";
		}
		return error;
	}

	static boolean isErrorReply(Throwable failure) {
		return failure instanceof RedisCommandExecutionException;
	}

	static @Nullable Throwable failureOf(RedisCommand<?, ?, ?> command) {
		if (command instanceof CompletableFuture<?> future && future.isCompletedExceptionally()) {
			try {
				future.getNow(null);
			}
			catch (CompletionException ex) {
				return (ex.getCause() != null) ? ex.getCause() : ex;
			}
			catch (RuntimeException ex) {
				return ex;
			}
		}
		return null;
	}

	static String describe(Throwable failure) {
		String text = failure.getMessage();
		return failure.getClass().getSimpleName() + ((text != null) ? ": " + text : "");
	}

	private String name() {
		if (this.commandName != null) {
			return this.commandName;
		}
		RedisCommand<byte[], byte[], ?> current = this.command;
		return (current != null) ? current.getType().toString() : "UNKNOWN";
	}

	private Outcome requireOutcome() {
		Outcome current = this.outcome;
		if (current == null) {
			throw new IllegalStateException("Response #" + this.index
					+ " is not complete yet: read it after execute(...) returns, not inside the batch callback");
		}
		return current;
	}

	@Override
	public String toString() {
		Outcome current = this.outcome;
		return "Response[#" + this.index + " " + name() + " " + ((current != null) ? current : "PENDING") + "]";
	}

}
