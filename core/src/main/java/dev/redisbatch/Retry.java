package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The opt-in retry of a batch ({@link BatchOptions.Builder#retry(int, Duration)}).
 * Commands that ended {@link Outcome#NOT_SENT}, {@link Outcome#UNKNOWN} ones marked
 * idempotent, and those a server refused for now without running them ({@code LOADING},
 * {@code BUSY}, {@code TRYAGAIN}) wait here instead of taking their outcome while
 * attempts are left. When a connection is lost, the batch takes an attempt (it waits the
 * backoff), sends the waiting commands again on a fresh connection, and carries on with
 * the rest of the stream; when no attempt is left, their last outcome is final. Commands
 * Redis refused for good (such as {@code WRONGTYPE}) are never sent again. Only batches
 * with retries allocate one.
 */
final class Retry implements CommandResponse.Retries {

	private final Duration backoff;

	private int attemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	Retry(int attempts, Duration backoff) {
		this.attemptsLeft = attempts;
		this.backoff = backoff;
	}

	/**
	 * Whether commands may still be sent again: they are recorded with what that needs.
	 */
	boolean hasAttempts() {
		return this.attemptsLeft > 0;
	}

	boolean hasPending() {
		return !this.pending.isEmpty();
	}

	@Override
	public boolean defer(CommandResponse<?> response, Outcome outcome, boolean refusedForNow) {
		boolean again = outcome == Outcome.NOT_SENT || (outcome == Outcome.UNKNOWN && response.isIdempotent())
				|| (outcome == Outcome.FAILED && refusedForNow);
		if (again && this.attemptsLeft > 0) {
			this.pending.add(response);
			return true;
		}
		return false;
	}

	/**
	 * Take an attempt: wait the backoff.
	 * @return {@code false} when no attempt is left, or the thread was interrupted while
	 * it waited (its flag stays set)
	 */
	boolean attempt() {
		if (this.attemptsLeft <= 0 || Thread.currentThread().isInterrupted()) {
			return false;
		}
		this.attemptsLeft--;
		try {
			TimeUnit.NANOSECONDS.sleep(this.backoff.toNanos());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The commands waiting to be sent again, in the order they were recorded; they are no
	 * longer waiting here.
	 */
	List<CommandResponse<?>> takePending() {
		List<CommandResponse<?>> again = this.pending;
		this.pending = new ArrayList<>();
		again.sort((left, right) -> Integer.compare(left.index(), right.index()));
		return again;
	}

	/**
	 * No more attempts: the outcomes of the commands still waiting become final.
	 */
	void giveUp(OutcomeLedger ledger) {
		this.attemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(ledger);
		}
		this.pending.clear();
	}

}
