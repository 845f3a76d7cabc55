package dev.redisbatch;

/**
 * What an exactly-once lane does with a chunk that went unanswered (its connection was
 * lost, its deadline passed) or was refused before it ran (a demoted master's
 * {@code READONLY}, a migrating slot's {@code ASK} or {@code TRYAGAIN}): it sends the
 * chunk again, the same bytes with the same marker, on new connections to the same
 * server, so that its script either returns the replies it kept or runs now
 * ({@link ExactlyOnce}).
 */
final class UnansweredChunks {

	private UnansweredChunks() {
	}

	/**
	 * Send an exactly-once chunk that went unanswered again, the same bytes with the same
	 * marker, each time on a new connection, until it is answered or no attempt is left.
	 * If it ran before, its script returns the replies it kept; if not, it runs now.
	 * @param chunk the chunk, framed and unresolved
	 * @param server the server it went to
	 * @param settings the batch's settings (its attempts, backoff and timeout)
	 * @param ledger where outcomes are counted
	 * @return the settlement of the send that was answered, or the commands left
	 * {@link Outcome#UNKNOWN} when none was
	 */
	static ChunkSettlement resend(ScriptChunk chunk, NodePool server, RunSettings settings, OutcomeLedger ledger) {
		int attempts = ExactlyOnce.attempts(settings);
		long backoff = ExactlyOnce.backoff(settings).toNanos();
		for (int attempt = 1; attempt <= attempts; attempt++) {
			// the first send again goes at once, on a new connection; the others wait
			if (Thread.currentThread().isInterrupted() || (attempt > 1 && !Backoff.pause(backoff))) {
				break;
			}
			BatchConnection connection;
			try {
				connection = server.borrow();
			}
			catch (RuntimeException ex) {
				// not reachable now: the next attempt tries again
				continue;
			}
			Lease lease = null;
			boolean fit = false;
			try {
				lease = connection.lease();
				if (lease.isOpenForWrite() && chunk.write(lease, settings.timeoutNanos())) {
					ChunkSettlement settlement = chunk.awaitAndSettle(settings.timeout(), ledger, server.host());
					if (!chunk.isUnresolved()) {
						fit = settlement.leftConnectionClean() && lease.isOpen();
						return settlement;
					}
				}
			}
			catch (RuntimeException ex) {
				// the connection failed under the send: the next attempt tries again
			}
			finally {
				if (lease != null) {
					if (!fit) {
						lease.markBroken();
					}
					fit = lease.end() && fit;
				}
				if (fit) {
					server.release(connection);
				}
				else {
					server.invalidate(connection);
				}
			}
		}
		return chunk.settleUnresolved(Messages.notResolved(attempts), ledger);
	}

}
