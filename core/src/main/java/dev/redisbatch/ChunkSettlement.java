package dev.redisbatch;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What settling one chunk found, handed back to the batch so that it decides what follows
 * (stop the lane, read the topology again, send redirected commands elsewhere).
 *
 * @param answered whether every command (and {@code EXEC}) completed before the deadline
 * @param interrupted whether the thread was interrupted while it waited
 * @param unknown how many commands ended {@link Outcome#UNKNOWN}
 * @param refusedForNow how many commands the server refused without running them, for a
 * while only ({@code LOADING}, {@code BUSY}, {@code TRYAGAIN})
 * @param connectionFailure the failure that completed the last command without a reply (a
 * closed connection), or {@code null}
 * @param reroutes the commands a cluster redirected: they did not run, and go elsewhere
 * @param topologyStale whether a reply showed that the cluster topology changed
 * @param readOnly whether the server answered as a replica (a failover happened)
 * @param nanos the time from the write to the settlement
 */
record ChunkSettlement(boolean answered, boolean interrupted, int unknown, int refusedForNow,
		@Nullable Throwable connectionFailure, List<Reroute> reroutes, boolean topologyStale, boolean readOnly,
		long nanos) {

	/**
	 * Whether the connection can serve another chunk: every reply came, on an open
	 * connection, from a master.
	 */
	boolean leftConnectionClean() {
		return this.answered && this.connectionFailure == null && !this.readOnly;
	}

}
