package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

/**
 * The opt-in retry of a batch ({@link BatchOptions.Builder#retry(int, Duration)}); only
 * batches with retries allocate one.
 * <p>
 * Commands that ended {@link Outcome#NOT_SENT}, {@link Outcome#UNKNOWN} ones marked
 * idempotent, and those a server refused for now without running them ({@code LOADING},
 * {@code BUSY}, {@code TRYAGAIN}) wait here instead of taking their outcome while
 * attempts are left. When a lane loses its connection (or has commands refused for now),
 * the batch recovers: it waits for its other chunks in flight, takes an attempt (waits
 * the backoff), and sends the waiting commands again on fresh connections, ahead of what
 * was recorded after them; then the stream carries on. A loss while recovering is
 * recovered by the same loop. When no attempt is left, the lane stops as it would without
 * retry, and the waiting commands' last outcome is final. Commands Redis refused for good
 * (such as {@code WRONGTYPE}) are never sent again.
 */
final class Retry implements CommandResponse.Retries {

	private final Duration backoff;

	private final Router router;

	private final Stops stops;

	private final OutcomeLedger ledger;

	private final IntFunction<Lane> route;

	private int attemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	private @Nullable Lane lostLane;

	private @Nullable String lostBecause;

	private @Nullable Throwable lostCause;

	private boolean recovering;

	/**
	 * @param route the lane that serves a slot now (the batch stops when there is none)
	 */
	Retry(RunSettings settings, Router router, Stops stops, OutcomeLedger ledger, IntFunction<Lane> route) {
		this.attemptsLeft = settings.retryAttempts();
		this.backoff = settings.retryBackoff();
		this.router = router;
		this.stops = stops;
		this.ledger = ledger;
		this.route = route;
	}

	/**
	 * Whether commands may still be sent again: they are recorded with what that needs.
	 */
	boolean hasAttempts() {
		return this.attemptsLeft > 0;
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
	 * A lane lost its connection, or the server refused commands for now: recover, unless
	 * this is one more chunk of a connection the batch is already recovering from.
	 * @param lost why the connection is lost, or {@code null} when commands were only
	 * refused for now
	 */
	void lost(Lane lane, @Nullable String lost, @Nullable Throwable cause, boolean connectionAlreadyLost) {
		if (lost != null && connectionAlreadyLost && this.recovering) {
			return;
		}
		this.lostLane = lane;
		this.lostBecause = lost;
		this.lostCause = cause;
		if (!this.recovering) {
			recover();
		}
	}

	private void recover() {
		this.recovering = true;
		try {
			while (this.lostLane != null) {
				Lane lane = this.lostLane;
				String because = this.lostBecause;
				Throwable cause = this.lostCause;
				this.lostLane = null;
				for (Lane each : this.router.lanes()) {
					each.settleAll();
				}
				if (!attempt()) {
					if (Thread.currentThread().isInterrupted()) {
						this.stops.interrupted();
					}
					else if (because != null) {
						this.stops.stopLane(lane, because, cause);
					}
					giveUp();
					this.lostLane = null;
					return;
				}
				resendPending();
			}
		}
		finally {
			this.recovering = false;
		}
	}

	/**
	 * Send again what still waits once the batch has sent everything else (commands that
	 * could not be written because a connection closed just before the write), while
	 * attempts are left; then make every waiting outcome final.
	 * @param sendAndSettle sends and settles everything the batch has
	 */
	void finish(Runnable sendAndSettle) {
		while (!this.pending.isEmpty() && !this.stops.isStopped() && attempt()) {
			resendPending();
			sendAndSettle.run();
		}
		giveUp();
	}

	/**
	 * No more attempts: the outcomes of the commands still waiting become final.
	 */
	void giveUp() {
		this.attemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(this.ledger);
		}
		this.pending.clear();
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
		return Backoff.pause(this.backoff.toNanos());
	}

	/**
	 * Send the waiting commands again, in the order they were recorded, each on the lane
	 * that serves its slot now, ahead of what was recorded after them.
	 */
	private void resendPending() {
		if (this.stops.isTopologyStale()) {
			this.router.refreshTopology();
		}
		List<CommandResponse<?>> again = this.pending;
		this.pending = new ArrayList<>();
		again.sort((left, right) -> Integer.compare(left.index(), right.index()));
		Map<Lane, List<CommandResponse<?>>> byLane = new LinkedHashMap<>();
		for (CommandResponse<?> response : again) {
			Lane lane = this.route.apply(response.recipe().slot());
			byLane.computeIfAbsent(lane, (key) -> new ArrayList<>()).add(response);
		}
		byLane.forEach(Lane::resendFirst);
	}

}
