package dev.redisbatch;

import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.internals.LettuceErrors;
import dev.redisbatch.protocol.Redirect;
import dev.redisbatch.protocol.Refusals;
import io.lettuce.core.RedisException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

/**
 * One command of a batch: the {@link Response} the caller holds, and the command Lettuce
 * queues for its reply. It is the one object the engine keeps per command, so it stays
 * lean: what only retries, redirects and split commands need lives in {@link Extras},
 * allocated only for them.
 * <p>
 * On the wire it is light: its bytes are already in its chunk's buffer (the first command
 * of a chunk writes the whole buffer), its reply is decoded by Lettuce into its output,
 * and its completion counts its chunk down. A failure Lettuce reports locally (a closed
 * connection) is kept apart from an error Redis answered, so the two never mix.
 * <p>
 * Its outcome is decided once, on the batch's thread, and never changes afterwards, even
 * if a late reply arrives.
 *
 * @param <T> the value type
 */
final class CommandResponse<T extends @Nullable Object> implements Response<T> {

	private static final Object NOT_CONVERTED = new Object();

	private static final int REDIRECTABLE = 1;

	private static final int IDEMPOTENT = 2;

	private final int index;

	private final ProtocolKeyword type;

	private final Function<@Nullable Object, T> converter;

	private @Nullable CommandOutput<byte[], byte[], ?> output;

	/**
	 * The command Lettuce built, for commands of {@code RedisTemplate} code: it follows
	 * the reply too, so that whoever holds it sees it complete.
	 */
	private @Nullable RedisCommand<byte[], byte[], ?> delegate;

	private boolean done;

	private @Nullable Throwable localFailure;

	private @Nullable Object raw;

	private volatile @Nullable Object converted = NOT_CONVERTED;

	private volatile @Nullable Outcome outcome;

	private @Nullable String reason;

	private @Nullable Throwable cause;

	private int flags;

	private @Nullable Extras extras;

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
	 * A command Lettuce built (through {@code RedisTemplate} code).
	 */
	CommandResponse(int index, RedisCommand<byte[], byte[], ?> delegate, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.type = delegate.getType();
		this.delegate = delegate;
		this.converter = converter;
	}

	/**
	 * A response for a command that failed before it could be sent (its key or value
	 * could not be serialized, or its keys span slots).
	 */
	static <T> CommandResponse<T> failedLocally(int index, String commandName, String reason, @Nullable Throwable cause,
			OutcomeLedger ledger) {
		CommandResponse<T> response = new CommandResponse<>(index, new CommandName(commandName), (raw) -> null);
		response.cause = cause;
		response.settle(Outcome.FAILED, reason, ledger);
		return response;
	}

	/**
	 * A response for a command recorded after the batch stopped: {@link Outcome#NOT_SENT}
	 * at once, with nothing serialized or sent, and counted in the ledger's compact range
	 * of such commands.
	 */
	static <T> CommandResponse<T> notSentAfterStop(int index, ProtocolKeyword type, String reason,
			OutcomeLedger ledger) {
		CommandResponse<T> response = new CommandResponse<>(index, type, (raw) -> null);
		response.reason = reason;
		response.outcome = Outcome.NOT_SENT;
		ledger.notSentAfterStop(index, type.toString(), reason);
		return response;
	}

	private CommandResponse(int index, ProtocolKeyword type, Function<@Nullable Object, T> converter) {
		this.index = index;
		this.type = type;
		this.converter = converter;
	}

	int index() {
		return this.index;
	}

	// ------------------------------------------------------------------ the reply

	/**
	 * The output its reply is decoded into (on the batch's thread, by its chunk), or
	 * {@code null} once it is settled.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	@Nullable CommandOutput<byte[], byte[], Object> getOutput() {
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		return (CommandOutput) ((lettuce != null) ? lettuce.getOutput() : this.output);
	}

	/**
	 * Its whole reply was decoded into its output.
	 */
	void complete() {
		Throwable failure = this.localFailure;
		if (failure != null && !(failure instanceof UnreadableReply)) {
			// The whole reply was read, but the output could not take it (a command sent
			// by name with a CommandReply of another shape): Redis ran the command.
			this.localFailure = new UnreadableReply(failure);
		}
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null && !(isRedirectable() && Redirect.isRedirect(lettuce.getOutput().getError()))) {
			// A redirected command goes to another master: whoever holds the Lettuce
			// command waits for that reply instead.
			lettuce.complete();
		}
		this.done = true;
	}

	/**
	 * Its output could not take a part of its reply; the rest of the reply is still read.
	 */
	void completeExceptionally(Throwable failure) {
		// Lettuce wrappers report an error reply this way too: that is Redis's answer,
		// which the output holds, not a local failure.
		if (!LettuceErrors.isErrorReply(failure)) {
			this.localFailure = failure;
		}
		RedisCommand<byte[], byte[], ?> lettuce = this.delegate;
		if (lettuce != null) {
			lettuce.completeExceptionally(failure);
		}
		this.done = true;
	}

	ProtocolKeyword getType() {
		return this.type;
	}

	boolean isDone() {
		return this.done;
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

	/**
	 * The outcome, or {@code null} while it is not decided (not answered yet, or waiting
	 * for a retry).
	 */
	@Nullable Outcome outcomeIfSettled() {
		return this.outcome;
	}

	BatchFailure failure() {
		Outcome current = requireOutcome();
		return new BatchFailure(this.index, name(), current, (this.reason != null) ? this.reason : "");
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
		if (failure instanceof UnreadableReply unreadable) {
			this.cause = unreadable.getCause();
			return settle(Outcome.FAILED, Messages.unreadableReply(unreadable.getCause()), ledger);
		}
		if (failure != null) {
			this.cause = failure;
			return settle(Outcome.UNKNOWN, Messages.noReplyConnection(failure), ledger);
		}
		String error = errorReply();
		if (error != null) {
			return settle(Outcome.FAILED, Messages.explain(error), ledger, Refusals.isTemporary(error));
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
		return (result != null) ? Messages.errorReply(result.getError()) : null;
	}

	/**
	 * Decide the outcome, unless a retry will send the command again (then it is
	 * pending).
	 * @return the outcome decided
	 */
	Outcome settle(Outcome decided, @Nullable String why, OutcomeLedger ledger) {
		return settle(decided, why, ledger, false);
	}

	/**
	 * Decide the outcome, unless a retry will send the command again.
	 * @param refusedForNow whether Redis refused it without running it, for a while only
	 * ({@code LOADING}, {@code BUSY}): then a retry may send it again
	 */
	private Outcome settle(Outcome decided, @Nullable String why, OutcomeLedger ledger, boolean refusedForNow) {
		Outcome current = this.outcome;
		if (current != null) {
			return current;
		}
		Extras more = this.extras;
		if (more != null && more.retries != null && more.retries.defer(this, decided, refusedForNow)) {
			more.pendingOutcome = decided;
			this.reason = why;
			forgetTheWire();
			return decided;
		}
		if (decided != Outcome.SUCCESS) {
			this.reason = why;
		}
		if (this.index >= 0) {
			// a part of a split command is not a command of the batch: its whole is
			if (decided == Outcome.SUCCESS) {
				ledger.success();
			}
			else {
				ledger.failure(this.index, name(), decided, (why != null) ? why : "");
			}
		}
		forgetTheWire();
		this.outcome = decided;
		if (more != null) {
			more.recipe = null;
			more.retries = null;
			Runnable action = more.whenSettled;
			more.whenSettled = null;
			if (action != null) {
				action.run();
			}
		}
		return decided;
	}

	/**
	 * Whether the outcome is decided, or pending a retry.
	 */
	boolean isSettled() {
		Extras more = this.extras;
		return this.outcome != null || (more != null && more.pendingOutcome != null);
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
					new RedisException((this.reason != null) ? this.reason : "the command has no reply"));
		}
		this.output = null;
		this.delegate = null;
	}

	private Extras extras() {
		Extras more = this.extras;
		if (more == null) {
			more = new Extras();
			this.extras = more;
		}
		return more;
	}

	// ------------------------------------------------------------------ cluster

	/**
	 * Allow a cluster to redirect this command ({@code MOVED}, {@code ASK}): then such a
	 * reply does not complete the Lettuce command it carries.
	 */
	void redirectable() {
		this.flags |= REDIRECTABLE;
	}

	private boolean isRedirectable() {
		return (this.flags & REDIRECTABLE) != 0;
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
		this.done = false;
		return ++extras().redirects;
	}

	/**
	 * Run this once the outcome is decided (the parts of a split command tell the whole).
	 */
	void whenSettled(Runnable action) {
		extras().whenSettled = action;
	}

	// ------------------------------------------------------------------ retries

	/**
	 * Allow this command to be sent again when it ends not sent (or unknown, if it is
	 * idempotent), as long as the retries allow.
	 */
	void retryable(Recipe recipe, boolean idempotent, Retries retries) {
		Extras more = extras();
		more.recipe = recipe;
		more.retries = retries;
		if (idempotent) {
			this.flags |= IDEMPOTENT;
		}
	}

	boolean isIdempotent() {
		return (this.flags & IDEMPOTENT) != 0;
	}

	Recipe recipe() {
		Extras more = this.extras;
		Recipe current = (more != null) ? more.recipe : null;
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
		extras().pendingOutcome = null;
		this.reason = null;
		this.cause = null;
		this.done = false;
	}

	/**
	 * No retry is left: the pending outcome becomes final.
	 */
	void settlePending(OutcomeLedger ledger) {
		Extras more = this.extras;
		Outcome pending = (more != null) ? more.pendingOutcome : null;
		if (more != null && pending != null) {
			more.retries = null;
			more.pendingOutcome = null;
			settle(pending, this.reason, ledger);
		}
	}

	// ------------------------------------------------------------------ helpers

	private String name() {
		return this.type.toString();
	}

	private Outcome requireOutcome() {
		Outcome current = this.outcome;
		if (current == null) {
			throw new IllegalStateException(Messages.responseNotComplete(this.index));
		}
		return current;
	}

	@Override
	public String toString() {
		Outcome current = this.outcome;
		return "Response[#" + this.index + " " + name() + " " + ((current != null) ? current : "PENDING") + "]";
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
		 * @param refusedForNow whether Redis refused it without running it, for a while
		 * only
		 */
		boolean defer(CommandResponse<?> response, Outcome outcome, boolean refusedForNow);

	}

	/**
	 * The state only some commands need: those a retry may send again, those a cluster
	 * redirected, and the parts of a split command.
	 */
	private static final class Extras {

		private @Nullable Recipe recipe;

		private @Nullable Retries retries;

		private @Nullable Outcome pendingOutcome;

		private int redirects;

		private @Nullable Runnable whenSettled;

	}

	/**
	 * Redis answered, but the reply could not be decoded into the command's output.
	 */
	private static final class UnreadableReply extends RuntimeException {

		UnreadableReply(Throwable cause) {
			super(null, cause, false, false);
		}

	}

}
