package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The opt-in retry of a batch ({@link BatchOptions.Builder#retry(int, Duration)}):
 * commands that ended {@link Outcome#NOT_SENT}, and {@link Outcome#UNKNOWN} ones marked
 * idempotent, wait here instead of taking their outcome; after the callback, they are
 * sent again, after the backoff, in passes of their own, until none is left or no attempt
 * is; then their last outcome is final. Commands Redis refused are never sent again. Only
 * batches with retries allocate one.
 */
final class RetryPass implements CommandResponse.Retries {

	private final Duration backoff;

	private int attemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	RetryPass(int attempts, Duration backoff) {
		this.attemptsLeft = attempts;
		this.backoff = backoff;
	}

	/**
	 * Whether commands recorded now may still be sent again.
	 */
	boolean hasAttempts() {
		return this.attemptsLeft > 0;
	}

	@Override
	public boolean defer(CommandResponse<?> response, Outcome outcome) {
		boolean again = outcome == Outcome.NOT_SENT || (outcome == Outcome.UNKNOWN && response.isIdempotent());
		if (again && this.attemptsLeft > 0) {
			this.pending.add(response);
			return true;
		}
		return false;
	}

	/**
	 * Send the pending commands again, pass after pass, then make the outcomes of those
	 * still pending final.
	 * @param batch the batch they belong to
	 * @param ledger where outcomes are counted
	 */
	void run(BatchRun batch, OutcomeLedger ledger) {
		while (!this.pending.isEmpty() && this.attemptsLeft > 0 && backOff()) {
			this.attemptsLeft--;
			List<CommandResponse<?>> again = this.pending;
			this.pending = new ArrayList<>();
			batch.resendInPass(again);
		}
		giveUp(ledger);
	}

	/**
	 * No more attempts: the pending outcomes become final.
	 */
	void giveUp(OutcomeLedger ledger) {
		this.attemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(ledger);
		}
		this.pending.clear();
	}

	private boolean backOff() {
		if (Thread.currentThread().isInterrupted()) {
			return false;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(this.backoff.toNanos());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
