package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * A cluster pool's view of the cluster: the topology that Lettuce's cluster client reads
 * (only to route, never to send), and a {@link NodePool} per master, made as batches
 * reach it.
 */
final class ClusterMasters {

	private static final Log logger = LogFactory.getLog(ClusterMasters.class);

	private final RedisClusterClient topology;

	private final RedisURI template;

	private final BiFunction<String, RedisURI, NodePool> newPool;

	/**
	 * The masters, by {@code host:port}.
	 */
	private final Map<String, NodePool> pools = new ConcurrentHashMap<>();

	/**
	 * @param topology reads the topology
	 * @param template the URI whose settings (credentials, TLS, timeouts) every master's
	 * connections use, with the master's host and port
	 * @param newPool makes the pool of a master from its address ({@code host:port}) and
	 * URI
	 */
	ClusterMasters(RedisClusterClient topology, RedisURI template, BiFunction<String, RedisURI, NodePool> newPool) {
		this.topology = topology;
		this.template = template;
		this.newPool = newPool;
	}

	/**
	 * The master that serves a slot, as the current view of the topology says.
	 * @throws RedisConnectionFailureException when the topology cannot be read or names
	 * no master for the slot
	 */
	RedisClusterNode masterNode(int slot) {
		RedisClusterNode node;
		try {
			node = this.topology.getPartitions().getMasterBySlot(slot);
		}
		catch (RuntimeException ex) {
			throw unreadable(ex);
		}
		if (node == null || node.getUri() == null) {
			throw new RedisConnectionFailureException("No master serves slot " + slot + " in the cluster topology");
		}
		return node;
	}

	/**
	 * The pool of the master at an address (from the topology, or as a {@code MOVED} or
	 * {@code ASK} reply names it).
	 */
	NodePool master(String host, int port) {
		return this.pools.computeIfAbsent(host + ":" + port, (address) -> this.newPool.apply(address,
				RedisURI.builder(this.template).withHost(host).withPort(port).build()));
	}

	/**
	 * The pool of a master of the topology.
	 */
	NodePool master(RedisClusterNode node) {
		return master(node.getUri().getHost(), node.getUri().getPort());
	}

	/**
	 * The pools of the masters that serve slots (never replicas), by the lowest slot each
	 * serves.
	 * @throws RedisConnectionFailureException when the topology cannot be read or names
	 * no master
	 */
	SortedMap<Integer, NodePool> byLowestSlot() {
		List<RedisClusterNode> nodes = new ArrayList<>();
		try {
			this.topology.getPartitions().forEach(nodes::add);
		}
		catch (RuntimeException ex) {
			throw unreadable(ex);
		}
		SortedMap<Integer, NodePool> masters = new TreeMap<>();
		for (RedisClusterNode node : nodes) {
			int lowest = lowestSlot(node);
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && node.getUri() != null && lowest >= 0) {
				masters.put(lowest, master(node));
			}
		}
		if (masters.isEmpty()) {
			throw new RedisConnectionFailureException("The Redis Cluster topology names no master that serves slots");
		}
		return masters;
	}

	/**
	 * Read the topology again (after a {@code MOVED} reply or a lost master). Failures
	 * are ignored: the old view stays, and commands are redirected as needed.
	 */
	void refresh() {
		try {
			this.topology.refreshPartitions();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not refresh the Redis Cluster topology: " + ex.getMessage());
		}
	}

	Collection<NodePool> pools() {
		return this.pools.values();
	}

	void close() {
		this.pools.values().forEach(NodePool::close);
		this.topology.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	/**
	 * The lowest slot a node serves, or {@code -1}: read from its slot bits, without the
	 * list of boxed slots that {@link RedisClusterNode#getSlots()} builds (a scan asks
	 * for every page).
	 */
	private static int lowestSlot(RedisClusterNode node) {
		for (int slot = 0; slot < SlotHash.SLOT_COUNT; slot++) {
			if (node.hasSlot(slot)) {
				return slot;
			}
		}
		return -1;
	}

	private static RedisConnectionFailureException unreadable(RuntimeException ex) {
		return new RedisConnectionFailureException("Cannot read the Redis Cluster topology: " + ex.getMessage(), ex);
	}

}
