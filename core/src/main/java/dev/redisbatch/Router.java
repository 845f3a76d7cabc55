package dev.redisbatch;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.redisbatch.protocol.Slots;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Where a batch's commands go: the one lane of a standalone or Sentinel pool, or, on a
 * cluster, the lane of the master that serves each command's slot. It also sends on the
 * commands that a cluster redirected ({@code MOVED}, {@code ASK}) or that could not reach
 * their master: they did not run, so this is not a second execution.
 * <p>
 * A slot that cannot be routed (the topology cannot be read) goes to a lane that sends
 * nothing; the failure is handed back by {@link #takeRouteFailure()}, and the batch
 * decides.
 */
final class Router {

	/**
	 * How many times one command may be redirected before it fails: enough for a slot
	 * that moves while the batch runs, bounded when the topology keeps changing.
	 */
	static final int MAX_REDIRECTS = 5;

	private final BatchConnectionPool pool;

	private final boolean cluster;

	private final Function<@Nullable NodePool, Lane> newLane;

	/**
	 * The lane of each server, made with the first lane of a cluster's batch: a batch on
	 * one server has its one lane, and no map.
	 */
	private @Nullable Map<NodePool, Lane> lanes;

	/**
	 * {@link #lanes()}, made again once a lane is added.
	 */
	private @Nullable List<Lane> laneList;

	/**
	 * The lane of each master of the topology, so that routing a command is an array
	 * lookup and an identity lookup (on a cluster).
	 */
	private @Nullable Map<RedisClusterNode, Lane> lanesByNode;

	/**
	 * Commands to send elsewhere, made with the first redirect.
	 */
	private @Nullable ArrayDeque<Reroute> reroutes;

	private final @Nullable Lane single;

	private @Nullable Lane unroutable;

	private @Nullable RuntimeException routeFailure;

	private boolean topologyRefreshed;

	Router(BatchConnectionPool pool, Function<@Nullable NodePool, Lane> newLane) {
		this.pool = pool;
		this.cluster = pool.topology() == BatchConnectionPool.Topology.CLUSTER;
		this.newLane = newLane;
		if (this.cluster) {
			this.single = null;
		}
		else {
			Lane only = newLane.apply(pool.server());
			this.single = only;
			this.laneList = List.of(only);
		}
	}

	boolean isCluster() {
		return this.cluster;
	}

	/**
	 * The slot that routes a command with this key: on a cluster its hash slot, otherwise
	 * {@link Slots#ANY} (no hashing needed).
	 */
	int slotOf(byte[] key) {
		return this.cluster ? Slots.of(key) : Slots.ANY;
	}

	/**
	 * The slot that routes a command with these keys: {@link Slots#CROSS} when they hash
	 * to different slots of a cluster.
	 */
	int slotOf(byte[][] keys) {
		return this.cluster ? Slots.of(keys) : Slots.ANY;
	}

	/**
	 * The lane of the server that serves a slot ({@link Slots#ANY}: any master).
	 */
	Lane lane(int slot) {
		Lane only = this.single;
		if (only != null) {
			return only;
		}
		RedisClusterNode master;
		try {
			master = this.pool.masterNode((slot >= 0) ? slot : 0);
		}
		catch (RuntimeException ex) {
			if (this.routeFailure == null) {
				this.routeFailure = ex;
			}
			Lane nowhere = unroutable();
			nowhere.stop(Messages.noRoute(ex));
			return nowhere;
		}
		Map<RedisClusterNode, Lane> byNode = this.lanesByNode;
		if (byNode == null) {
			byNode = new IdentityHashMap<>(4);
			this.lanesByNode = byNode;
		}
		Lane lane = byNode.get(master);
		if (lane == null) {
			lane = laneFor(this.pool.master(master));
			byNode.put(master, lane);
		}
		return lane;
	}

	/**
	 * The lane that takes commands that go nowhere (they end not sent).
	 */
	Lane unroutable() {
		Lane nowhere = this.unroutable;
		if (nowhere == null) {
			nowhere = this.newLane.apply(null);
			this.unroutable = nowhere;
		}
		return nowhere;
	}

	/**
	 * Why the last routing failed, once: the topology could not be read.
	 */
	@Nullable RuntimeException takeRouteFailure() {
		RuntimeException failure = this.routeFailure;
		this.routeFailure = null;
		return failure;
	}

	private Lane laneFor(NodePool node) {
		Map<NodePool, Lane> known = this.lanes;
		if (known == null) {
			known = new IdentityHashMap<>(4);
			Lane only = this.single;
			if (only != null) {
				known.put(only.node(), only);
			}
			this.lanes = known;
		}
		Lane lane = known.get(node);
		if (lane == null) {
			lane = this.newLane.apply(node);
			known.put(node, lane);
			this.laneList = null;
		}
		return lane;
	}

	/**
	 * The lanes of the servers the batch has reached so far: a list that does not change
	 * when a lane is added while it is walked (a redirect can reach a new server). The
	 * end of every batch walks it, by index: an iterator would be one more object.
	 */
	List<Lane> lanes() {
		List<Lane> current = this.laneList;
		if (current == null) {
			Map<NodePool, Lane> known = this.lanes;
			current = (known != null) ? List.copyOf(known.values()) : List.of();
			this.laneList = current;
		}
		return current;
	}

	/**
	 * Whether a lane still has chunks to send or settle.
	 */
	boolean anyLaneHasWork() {
		List<Lane> current = lanes();
		for (int i = 0; i < current.size(); i++) {
			if (current.get(i).hasWork()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Read the cluster topology again, once per batch, and forget the routes learned from
	 * the old one.
	 */
	void refreshTopology() {
		if (!this.topologyRefreshed) {
			this.topologyRefreshed = true;
			this.pool.refreshTopology();
			this.lanesByNode = null;
		}
	}

	boolean topologyRefreshed() {
		return this.topologyRefreshed;
	}

	// ------------------------------------------------------------------ redirects

	/**
	 * Queue commands to be sent elsewhere.
	 */
	void reroute(List<Reroute> redirected) {
		if (redirected.isEmpty()) {
			return;
		}
		ArrayDeque<Reroute> queued = this.reroutes;
		if (queued == null) {
			queued = new ArrayDeque<>(redirected.size());
			this.reroutes = queued;
		}
		queued.addAll(redirected);
	}

	/**
	 * Send the queued commands to the master that serves their slot now (or that the
	 * redirect named), or settle them when they cannot go.
	 * @param abortReason why the batch stopped, or {@code null}: then nothing is sent
	 */
	void sendRerouted(@Nullable String abortReason, OutcomeLedger ledger) {
		ArrayDeque<Reroute> queued = this.reroutes;
		Reroute reroute;
		while (queued != null && (reroute = queued.poll()) != null) {
			CommandResponse<?> response = reroute.response();
			if (abortReason != null) {
				response.settle(Outcome.NOT_SENT, Messages.notSent(abortReason), ledger);
				continue;
			}
			if (response.redirected() > MAX_REDIRECTS) {
				response.settle(Outcome.FAILED, Messages.tooManyRedirects(MAX_REDIRECTS, reroute.why()), ledger);
				continue;
			}
			Lane target;
			String host = reroute.host();
			if (host != null) {
				if (!reroute.asking()) {
					refreshTopology();
				}
				target = laneFor(this.pool.master(host, reroute.port()));
			}
			else {
				target = lane(reroute.slot());
			}
			String notSent = target.notSentReason();
			if (notSent != null) {
				response.settle(Outcome.NOT_SENT, notSent, ledger);
				continue;
			}
			Chunk open = target.openFor(reroute.slot());
			ByteBuf buffer = open.buffer();
			if (reroute.asking()) {
				buffer.writeBytes(WireCommand.ASKING);
			}
			int start = buffer.writerIndex();
			buffer.writeBytes(reroute.bytes());
			open.add(response, start, buffer.writerIndex(), reroute.slot(), reroute.asking());
			if (open.isFull(target.maxChunkBytes())) {
				target.sendOpen();
			}
		}
	}

	/**
	 * Settle the queued commands {@link Outcome#NOT_SENT}: the batch is ending without
	 * sending them.
	 */
	void settleRerouted(OutcomeLedger ledger) {
		ArrayDeque<Reroute> queued = this.reroutes;
		Reroute reroute;
		while (queued != null && (reroute = queued.poll()) != null) {
			reroute.response().settle(Outcome.NOT_SENT, Messages.notSent(reroute.why()), ledger);
		}
	}

}
