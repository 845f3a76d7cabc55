package dev.redisbatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.async.RedisAsyncCommands;
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

	private @Nullable Recipe recipe;

	private boolean idempotent;

	private @Nullable Retries retries;

	private @Nullable Outcome pendingOutcome;

	CommandResponse(int index, RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.command = command;
		this.converter = converter;
	}

	/**
	 * Allow this command to be sent again when it ends not sent (or unknown, if it is
	 * idempotent), as long as the retries allow.
	 */
	void retryable(Recipe recipe, boolean idempotent, Retries retries) {
		this.recipe = recipe;
		this.idempotent = idempotent;
		this.retries = retries;
	}

	boolean isIdempotent() {
		return this.idempotent;
	}

	Recipe recipe() {
		Recipe current = this.recipe;
		if (current == null) {
			throw new IllegalStateException("Command #" + this.index + " cannot be recorded again");
		}
		return current;
	}

	/**
	 * The command was recorded again for a retry.
	 */
	void replayAs(RedisCommand<byte[], byte[], ?> again) {
		this.command = again;
		this.pendingOutcome = null;
		this.message = null;
		this.cause = null;
	}

	/**
	 * The outcome this command would have if no more retries come.
	 */
	@Nullable Outcome pendingOutcome() {
		return this.pendingOutcome;
	}

	/**
	 * No retry is left: the pending outcome becomes final.
	 */
	void settlePending(OutcomeLedger ledger) {
		Outcome pending = this.pendingOutcome;
		if (pending != null) {
			this.retries = null;
			settle(pending, this.message, ledger);
		}
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
	Outcome settleFromReply(String noReply, OutcomeLedger ledger) {
		RedisCommand<byte[], byte[], ?> current = command();
		if (!current.isDone()) {
			return settle(Outcome.UNKNOWN, noReply, ledger);
		}
		// Only the exception type tells a Redis error reply from a local failure: Lettuce
		// also writes its own errors (such as "Connection disconnected") into the output.
		Throwable failure = failureOf(current);
		if (failure == null) {
			CommandOutput<byte[], byte[], ?> output = current.getOutput();
			this.raw = (output != null) ? output.get() : null;
			return settle(Outcome.SUCCESS, null, ledger);
		}
		if (isErrorReply(failure)) {
			return settle(Outcome.FAILED, explain(String.valueOf(failure.getMessage())), ledger);
		}
		this.cause = failure;
		return settle(Outcome.UNKNOWN, "sent, but no reply came (" + describe(failure) + "); it may have run", ledger);
	}

	/**
	 * Decide the outcome, unless a retry will send the command again (then it is
	 * pending).
	 * @return the outcome decided
	 */
	Outcome settle(Outcome decided, @Nullable String reason, OutcomeLedger ledger) {
		Outcome current = this.outcome;
		if (current != null) {
			return current;
		}
		Retries pending = this.retries;
		if (pending != null && pending.defer(this, decided)) {
			this.pendingOutcome = decided;
			this.message = reason;
			this.command = null;
			return decided;
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
		this.recipe = null;
		this.retries = null;
		this.outcome = decided;
		return decided;
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

	/**
	 * Records a command again through the Lettuce API, for a retry.
	 */
	@FunctionalInterface
	interface Recipe {

		void record(RedisAsyncCommands<byte[], byte[]> commands);

	}

	/**
	 * Decides whether a command is sent again.
	 */
	interface Retries {

		/**
		 * Whether the command, about to end with the given outcome, will be sent again
		 * (then it waits, pending).
		 */
		boolean defer(CommandResponse<?> response, Outcome outcome);

	}

	@Override
	public String toString() {
		Outcome current = this.outcome;
		return "Response[#" + this.index + " " + name() + " " + ((current != null) ? current : "PENDING") + "]";
	}

}
