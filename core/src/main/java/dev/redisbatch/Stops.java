package dev.redisbatch;

import org.jspecify.annotations.Nullable;

/**
 * When a batch, or one of its lanes, stops sending, and why.
 * <p>
 * Stopping the batch (one server, an interrupt, a route that cannot be found) settles the
 * chunks being recorded {@link Outcome#NOT_SENT}; commands recorded afterwards are not
 * sent either. On a cluster, stopping one lane (a lost master) leaves the others running;
 * that lane's unsent commands end not sent, or, when the lane asks for it, go where the
 * topology sends their slots now. Either way the topology is read again when the batch
 * ends.
 */
final class Stops {

	private final Router router;

	private final OutcomeLedger ledger;

	private @Nullable String abortReason;

	/**
	 * What a command recorded after the stop ends with: made once, since a batch that
	 * stops early may record millions more.
	 */
	private @Nullable String notSent;

	private @Nullable Throwable abortCause;

	private @Nullable String laneFailure;

	private @Nullable Throwable laneFailureCause;

	private boolean topologyStale;

	Stops(Router router, OutcomeLedger ledger) {
		this.router = router;
		this.ledger = ledger;
	}

	/**
	 * Whether the batch stopped sending (to every server).
	 */
	boolean isStopped() {
		return this.abortReason != null;
	}

	/**
	 * Why the batch stopped sending, or {@code null}.
	 */
	@Nullable String abortReason() {
		return this.abortReason;
	}

	/**
	 * The reason of every command not sent because the batch stopped, or {@code null}
	 * while it has not.
	 */
	@Nullable String notSentMessage() {
		return this.notSent;
	}

	/**
	 * Why the batch, or a lane of it, stopped early, or {@code null}: the results' abort
	 * reason.
	 */
	@Nullable String stoppedBecause() {
		return (this.abortReason != null) ? this.abortReason : this.laneFailure;
	}

	/**
	 * The failure behind the stop, or {@code null}: the cause of the batch's exception.
	 */
	@Nullable Throwable cause() {
		return (this.abortCause != null) ? this.abortCause : this.laneFailureCause;
	}

	/**
	 * A reply showed that the cluster topology changed, or a master was lost.
	 */
	void topologyChanged() {
		this.topologyStale = true;
	}

	boolean isTopologyStale() {
		return this.topologyStale;
	}

	/**
	 * Why a command for this lane is not sent, or {@code null} when it can be.
	 */
	@Nullable String notSentReason(Lane lane) {
		if (this.notSent != null) {
			return this.notSent;
		}
		String stopped = lane.stopReason();
		if (stopped != null) {
			return lane.hasNode() ? Messages.notSentToServer(lane.address(), stopped) : Messages.notSent(stopped);
		}
		return null;
	}

	/**
	 * Stop because the thread was interrupted (its flag stays set).
	 */
	void interrupted() {
		stop(Messages.interrupted(), new InterruptedException("batch interrupted"));
	}

	/**
	 * Stop the whole batch: nothing more is sent anywhere.
	 */
	void stop(String reason, @Nullable Throwable cause) {
		if (this.abortReason != null) {
			return;
		}
		this.abortReason = reason;
		this.abortCause = cause;
		this.notSent = Messages.notSent(reason);
		for (Lane lane : this.router.lanes()) {
			for (Chunk unsent : lane.takeAllOpen()) {
				unsent.settleNotSent(this.notSent, this.ledger);
				lane.recycle(unsent);
			}
		}
	}

	/**
	 * Stop sending to one server. With one server that stops the batch.
	 */
	void stopLane(Lane lane, String reason, @Nullable Throwable cause) {
		if (!this.router.isCluster()) {
			stop(reason, cause);
			return;
		}
		if (!lane.stop(reason)) {
			return;
		}
		this.topologyStale = true;
		if (this.laneFailure == null) {
			this.laneFailure = Messages.masterFailed(lane.address(), reason);
			this.laneFailureCause = cause;
		}
		for (Chunk unsent : lane.takeAllOpen()) {
			if (lane.reroutesOnStop()) {
				this.router.reroute(unsent.rerouteAll(Messages.masterUnreachable()));
			}
			else {
				unsent.settleNotSent(String.valueOf(notSentReason(lane)), this.ledger);
			}
			lane.recycle(unsent);
		}
	}

	/**
	 * A chunk that will not be sent: its commands go where the topology sends their slots
	 * now, if the lane asks for it and the batch goes on, or end not sent.
	 */
	void unsendable(Lane lane, Chunk chunk, String reason) {
		if (lane.reroutesOnStop() && this.abortReason == null) {
			this.router.reroute(chunk.rerouteAll(String.valueOf(lane.stopReason())));
		}
		else {
			chunk.settleNotSent(reason, this.ledger);
		}
		lane.recycle(chunk);
	}

}
