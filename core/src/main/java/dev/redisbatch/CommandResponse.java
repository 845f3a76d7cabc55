package dev.redisbatch;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.protocol.Redirect;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * One command of a batch: the {@link Response} the caller holds, and the command Lettuce
 * queues for its reply.
 * <p>
 * On the wire it is light: its bytes are already in its chunk's buffer (the first command
 * of a chunk writes the whole buffer), its reply is decoded by Lettuce into its output,
 * and its completion counts its chunk down. A failure Lettuce reports locally (a closed
 * connection) is kept apart from an error Redis answered, so the two never mix.
 * <p>
 * Its outcome is decided once, on the batch's thread, and never changes afterwards, even
 * if a late reply arrives; then only the reply (or the failure) is kept.
 *
 * @param <T> the value type
 */
final class CommandResponse<T extends @Nullable Object> implements Response<T>, RedisCommand<byte[], byte[], Object> {

	private static final Object NOT_CONVERTED = new Object();

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<CommandResponse> STATE = AtomicIntegerFieldUpdater
		.newUpdater(CommandResponse.class, "state");

	private static final int PENDING = 0;

	private static final int DONE = 1;

	private final int index;

	private final ProtocolKeyword type;

	private final Function<@Nullable Object, T> converter;

	private @Nullable CommandOutput<byte[], byte[], ?> output;

	private @Nullable RedisCommand<byte[], byte[], ?> delegate;

	private volatile int state;

	private volatile @Nullable Throwable localFailure;

	private @Nullable Countdown countdown;

	private @Nullable ByteBuf carries;

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

	private boolean redirectable;

	private int redirects;

	private @Nullable Runnable whenSettled;

	/**
	 * A command the batch encoded itself, whose reply Lettuce decodes into the output.
	 */
	CommandResponse(int index, ProtocolKeyword type, CommandOutput<byte[], byte[], ?> output,
			Function<@Nullable Object, T> converter) {
		this.index = index;
		this.type = type;
		this.output = output;
		this.converter = converter;
	}

	/**
	 * A command Lettuce built (through {@code RedisTemplate} code): it follows the reply
	 * too, so that whoever holds it sees it complete.
	 */
	CommandResponse(int index, RedisCommand<byte[], byte[], ?> delegate, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.type = delegate.getType();
		this.delegate = delegate;
		this.converter = converter;
	}

	private CommandResponse(int index, String commandName, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.type = () -> commandName.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		this.commandName = commandName;
		this.converter = converter;
	}

	/**
	 * A response for a command that failed before it could be sent (its key or value
	 * could not be serialized, or is larger than the server accepts).
	 */
	static <T> CommandResponse<T> failedLocally(int index, String commandName, String message,
			@Nullable Throwable cause, OutcomeLedger ledger) {
		CommandResponse<T> response = new CommandResponse<>(index, commandName, (raw) -> null);
		response.cause = cause;
		response.settle(Outcome.FAILED, message, ledger);
		return response;
	}

	int index() {
		return this.index;
	}

	/**
	 * Lettuce puts every command of a written chunk into a hash set (to catch a command
	 * written twice). The position in the batch is a ready, well-spread hash, cheaper
	 * than an identity hash; equality stays identity.
	 */
	@Override
	public int hashCode() {
		return this.index;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other;
	}

	// ------------------------------------------------------------------ on the wire

	/**
	 * Go out with the given chunk: count it down on completion, and write its bytes if
	 * this is its first command.
	 */
	void sendWith(Countdown chunk, @Nullable ByteBuf bytes) {
		this.countdown = chunk;
		this.carries = bytes;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public CommandOutput<byte[], byte[], Object> getOutput() {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		return (CommandOutput) ((lettuce != null) ? lettuce.getOutput() : this.output);
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void setOutput(CommandOutput<byte[], byte[], Object> output) {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null) {
			((RedisCommand) lettuce).setOutput(output);
		}
		else {
			this.output = output;
		}
	}

	@Override
	public void complete() {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null && !(this.redirectable && Redirect.isRedirect(lettuce.getOutput().getError()))) {
			// A redirected command goes to another master: whoever holds the Lettuce
			// command waits for that reply instead.
			lettuce.complete();
		}
		done();
	}

	@Override
	public boolean completeExceptionally(Throwable failure) {
		// Lettuce wrappers report an error reply this way too: that is Redis's answer,
		// which the output holds, not a local failure.
		if (!(failure instanceof RedisCommandExecutionException)) {
			this.localFailure = failure;
		}
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null) {
			lettuce.completeExceptionally(failure);
		}
		done();
		return true;
	}

	@Override
	public void cancel() {
		completeExceptionally(new CancellationException("cancelled"));
	}

	@Override
	public @Nullable CommandArgs<byte[], byte[]> getArgs() {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		return (lettuce != null) ? lettuce.getArgs() : null;
	}

	@Override
	public ProtocolKeyword getType() {
		return this.type;
	}

	@Override
	public void encode(ByteBuf buffer) {
		ByteBuf bytes = this.carries;
		if (bytes != null) {
			this.carries = null;
			buffer.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
		}
	}

	@Override
	public boolean isCancelled() {
		return false;
	}

	@Override
	public boolean isDone() {
		return this.state == DONE;
	}

	private void done() {
		if (STATE.compareAndSet(this, PENDING, DONE)) {
			Countdown chunk = this.countdown;
			if (chunk != null) {
				chunk.countDown();
			}
		}
	}

	// ------------------------------------------------------------------ the response

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
	 * Decide the outcome from the reply, once the chunk has been answered or has passed
	 * its deadline.
	 * @param noReply why a command without a reply has none
	 * @return the outcome decided
	 */
	Outcome settleFromReply(String noReply, OutcomeLedger ledger) {
		if (!isDone()) {
			return settle(Outcome.UNKNOWN, noReply, ledger);
		}
		Throwable failure = this.localFailure;
		if (failure != null) {
			this.cause = failure;
			return settle(Outcome.UNKNOWN, "sent, but no reply came (" + describe(failure) + "); it may have run",
					ledger);
		}
		String error = errorReply();
		if (error != null) {
			return settle(Outcome.FAILED, explain(error), ledger);
		}
		CommandOutput<byte[], byte[], Object> result = getOutput();
		this.raw = (result != null) ? result.get() : null;
		return settle(Outcome.SUCCESS, null, ledger);
	}

	/**
	 * The error Redis answered, or {@code null} when it has not answered with one.
	 */
	@Nullable String errorReply() {
		if (!isDone() || this.localFailure != null) {
			return null;
		}
		CommandOutput<byte[], byte[], Object> result = getOutput();
		return (result != null) ? result.getError() : null;
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
			forgetTheWire();
			return decided;
		}
		if (decided != Outcome.SUCCESS) {
			this.commandName = name();
			this.message = reason;
		}
		if (this.index >= 0) {
			// a part of a split command is not a command of the batch: its whole is
			if (decided == Outcome.SUCCESS) {
				ledger.success();
			}
			else {
				ledger.failure(this.index, name(), decided, (reason != null) ? reason : "");
			}
		}
		forgetTheWire();
		this.recipe = null;
		this.retries = null;
		this.outcome = decided;
		Runnable action = this.whenSettled;
		if (action != null) {
			this.whenSettled = null;
			action.run();
		}
		return decided;
	}

	/**
	 * Whether the outcome is decided, or pending a retry.
	 */
	boolean isSettled() {
		return this.outcome != null || this.pendingOutcome != null;
	}

	/**
	 * The failure Lettuce reported locally (a closed connection, say), or {@code null}.
	 */
	@Nullable Throwable localFailure() {
		return this.localFailure;
	}

	private void forgetTheWire() {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null && !lettuce.isDone()) {
			// whoever holds the Lettuce command (a template) must not wait for it forever
			lettuce.completeExceptionally(
					new RedisException((this.message != null) ? this.message : "the command has no reply"));
		}
		this.output = null;
		this.delegate = null;
		this.countdown = null;
		this.carries = null;
	}

	// ------------------------------------------------------------------ cluster

	/**
	 * Whether a cluster may redirect this command ({@code MOVED}, {@code ASK}): then such
	 * a reply does not complete the Lettuce command it carries.
	 */
	void redirectable(boolean redirectable) {
		this.redirectable = redirectable;
	}

	/**
	 * The command was redirected and goes out again, to another master: it did not run.
	 * @return how many times it has been redirected
	 */
	int redirected() {
		CommandOutput<byte[], byte[], Object> result = getOutput();
		if (result != null) {
			result.setError((String) null);
		}
		this.localFailure = null;
		this.state = PENDING;
		return ++this.redirects;
	}

	/**
	 * Run this once the outcome is decided (the parts of a split command tell the whole).
	 */
	void whenSettled(Runnable action) {
		this.whenSettled = action;
	}

	// ------------------------------------------------------------------ retries

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
			throw new IllegalStateException("Command #" + this.index + " cannot be sent again");
		}
		return current;
	}

	/**
	 * The command goes out again, for a retry, with a fresh output.
	 */
	void resend(CommandOutput<byte[], byte[], ?> freshOutput) {
		this.output = freshOutput;
		this.localFailure = null;
		this.pendingOutcome = null;
		this.message = null;
		this.cause = null;
		this.state = PENDING;
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

	// ------------------------------------------------------------------ helpers

	/**
	 * Name the server limit behind an error that does not say which one it is.
	 */
	static String explain(String error) {
		if (error.contains("Protocol error: invalid bulk length")) {
			return error + " (a key or value is larger than the server's proto-max-bulk-len)";
		}
		return error;
	}

	/**
	 * The error Redis answered for a Lettuce command (such as EXEC), or {@code null}.
	 */
	static @Nullable String errorReply(RedisCommand<?, ?, ?> command) {
		Throwable failure = failureOf(command);
		return (failure instanceof RedisCommandExecutionException) ? String.valueOf(failure.getMessage()) : null;
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
		return (this.commandName != null) ? this.commandName : this.type.toString();
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

	/**
	 * What a chunk counts down as its commands complete.
	 */
	interface Countdown {

		void countDown();

	}

	/**
	 * How to send a command again: its encoded bytes and a fresh output for its reply.
	 *
	 * @param bytes the command as it goes on the wire
	 * @param output makes an empty output of the command's type
	 * @param slot the slot that routes it on a cluster
	 */
	record Recipe(byte[] bytes, Supplier<CommandOutput<byte[], byte[], ?>> output, int slot) {

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

}
