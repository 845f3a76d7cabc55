package dev.redisbatch.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import static org.awaitility.Awaitility.await;

/**
 * A local Redis Cluster of real {@code redis-server} processes on free loopback ports:
 * masters that share the 16384 slots evenly, each with its replicas. Built with the
 * cluster commands themselves ({@code CLUSTER ADDSLOTS}, {@code MEET},
 * {@code REPLICATE}), so it needs nothing but {@code redis-server}.
 * <p>
 * It can move a slot from one master to another the way {@code redis-cli --cluster
 * reshard} does ({@code SETSLOT IMPORTING/MIGRATING}, {@code MIGRATE},
 * {@code SETSLOT NODE}), and fail a master over by killing it.
 *
 * @since 0.1.0
 */
public final class RedisCluster implements AutoCloseable {

	/**
	 * The number of hash slots of a Redis Cluster.
	 */
	public static final int SLOTS = 16384;

	private static final Duration CONVERGENCE_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisProcess> nodes;

	private final Map<RedisProcess, String> ids = new HashMap<>();

	private RedisCluster(List<RedisProcess> nodes) {
		this.nodes = nodes;
	}

	/**
	 * Start a cluster and wait until every node agrees that it is healthy.
	 * @param masters the number of masters (at least 3 for a failover quorum)
	 * @param replicasPerMaster the replicas of each master
	 * @return the running cluster
	 */
	public static RedisCluster start(int masters, int replicasPerMaster) {
		List<RedisProcess> nodes = new ArrayList<>();
		RedisCluster cluster = new RedisCluster(nodes);
		try {
			for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
				nodes.add(RedisProcess.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
						"--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0"));
			}
			cluster.form(masters, replicasPerMaster);
			return cluster;
		}
		catch (RuntimeException | Error ex) {
			cluster.close();
			throw ex;
		}
	}

	private void form(int masters, int replicasPerMaster) {
		for (RedisProcess node : this.nodes) {
			this.ids.put(node, (String) node.call("CLUSTER", "MYID"));
		}
		for (int m = 0; m < masters; m++) {
			int from = m * SLOTS / masters;
			int to = (m + 1) * SLOTS / masters;
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			for (int slot = from; slot < to; slot++) {
				command.add(Integer.toString(slot));
			}
			this.nodes.get(m).call(command.toArray(String[]::new));
		}
		RedisProcess first = this.nodes.get(0);
		for (RedisProcess node : this.nodes.subList(1, this.nodes.size())) {
			first.call("CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
		}
		await("all nodes to know each other").atMost(CONVERGENCE_TIMEOUT)
			.until(() -> this.nodes.stream().allMatch((node) -> clusterNodes(node).size() == this.nodes.size()));
		for (int r = 0; r < masters * replicasPerMaster; r++) {
			RedisProcess replica = this.nodes.get(masters + r);
			RedisProcess master = this.nodes.get(r % masters);
			replica.call("CLUSTER", "REPLICATE", this.ids.get(master));
		}
		awaitHealthy();
	}

	/**
	 * Wait until every running node reports {@code cluster_state:ok}, every slot has a
	 * master that every node agrees on, and every replica's link to its master is up.
	 */
	public void awaitHealthy() {
		await("the cluster to be healthy").atMost(CONVERGENCE_TIMEOUT).until(this::isHealthy);
	}

	private boolean isHealthy() {
		Map<Integer, String> reference = null;
		for (RedisProcess node : running()) {
			if (!"ok".equals(clusterInfo(node).get("cluster_state"))) {
				return false;
			}
			Map<Integer, String> owners = slotOwners(node);
			if (owners.size() != SLOTS) {
				return false;
			}
			if (reference == null) {
				reference = owners;
			}
			else if (!reference.equals(owners)) {
				return false;
			}
			if ("slave".equals(node.info("replication").get("role"))
					&& !"up".equals(node.info("replication").get("master_link_status"))) {
				return false;
			}
		}
		return reference != null;
	}

	/**
	 * The nodes, running or not, in the order they were started.
	 * @return the nodes
	 */
	public List<RedisProcess> nodes() {
		return List.copyOf(this.nodes);
	}

	/**
	 * The running nodes that are masters now.
	 * @return the masters
	 */
	public List<RedisProcess> masters() {
		return running().stream().filter((node) -> "master".equals(node.info("replication").get("role"))).toList();
	}

	/**
	 * {@code redis://} URIs of every node, for a client's seed list.
	 * @return the URIs
	 */
	public List<String> uris() {
		return this.nodes.stream().map(RedisProcess::uri).toList();
	}

	/**
	 * {@code host:port} of every node, as {@code spring.data.redis.cluster.nodes} takes
	 * them.
	 * @return the addresses
	 */
	public List<String> hostsAndPorts() {
		return this.nodes.stream().map((node) -> node.host() + ":" + node.port()).toList();
	}

	/**
	 * The slot of a key, as the cluster computes it.
	 * @param key the key
	 * @return the slot
	 */
	public int slot(String key) {
		return ((Long) requireRunning().call("CLUSTER", "KEYSLOT", key)).intValue();
	}

	/**
	 * The master that serves a slot now.
	 * @param slot the slot
	 * @return the master
	 */
	public RedisProcess masterOf(int slot) {
		String id = slotOwners(requireRunning()).get(slot);
		return nodeWithId(id);
	}

	/**
	 * The master that serves a key now.
	 * @param key the key
	 * @return the master
	 */
	public RedisProcess masterOf(String key) {
		return masterOf(slot(key));
	}

	/**
	 * Run a command on the master that serves a key.
	 * @param key the key that routes the command
	 * @param command the command and its arguments
	 * @return the reply
	 */
	public @Nullable Object call(String key, String... command) {
		return masterOf(key).call(command);
	}

	/**
	 * Empty every master.
	 */
	public void flushAll() {
		for (RedisProcess master : masters()) {
			master.call("FLUSHALL");
		}
	}

	/**
	 * Move a slot, with its keys, to another master, as a resharding tool does.
	 * @param slot the slot
	 * @param target the master that receives it
	 */
	public void migrateSlot(int slot, RedisProcess target) {
		startMigration(slot, target);
		finishMigration(slot, target);
	}

	/**
	 * Mark a slot as migrating from its master to {@code target} and importing there,
	 * without moving a key yet. From now on the source answers {@code ASK} for keys of
	 * the slot that it no longer has.
	 * @param slot the slot
	 * @param target the master that will receive it
	 */
	public void startMigration(int slot, RedisProcess target) {
		RedisProcess source = masterOf(slot);
		if (source == target) {
			throw new IllegalArgumentException("slot " + slot + " is already served by port " + target.port());
		}
		target.call("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", this.ids.get(source));
		source.call("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", this.ids.get(target));
	}

	/**
	 * Move some keys of a migrating slot to {@code target} (see
	 * {@link #startMigration(int, RedisProcess)}): the source answers {@code ASK} for
	 * them from now on.
	 * @param slot the slot
	 * @param target the master that receives them
	 * @param keys the keys, all in the slot
	 */
	public void migrateKeys(int slot, RedisProcess target, String... keys) {
		List<String> migrate = new ArrayList<>(
				List.of("MIGRATE", target.host(), Integer.toString(target.port()), "", "0", "10000", "KEYS"));
		migrate.addAll(List.of(keys));
		masterOf(slot).call(migrate.toArray(String[]::new));
	}

	/**
	 * Move every key of a migrating slot to {@code target}, then assign the slot to it on
	 * every master: from now on the old master answers {@code MOVED}.
	 * @param slot the slot
	 * @param target the master that receives it
	 */
	public void finishMigration(int slot, RedisProcess target) {
		RedisProcess source = masterOf(slot);
		while (true) {
			@SuppressWarnings("unchecked")
			List<String> keys = (List<String>) source.call("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "1000");
			if (keys == null || keys.isEmpty()) {
				break;
			}
			List<String> migrate = new ArrayList<>(
					List.of("MIGRATE", target.host(), Integer.toString(target.port()), "", "0", "10000", "KEYS"));
			migrate.addAll(keys);
			source.call(migrate.toArray(String[]::new));
		}
		String targetId = this.ids.get(target);
		target.call("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId);
		source.call("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId);
		for (RedisProcess master : masters()) {
			if (master != source && master != target) {
				master.call("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId);
			}
		}
		awaitHealthy();
	}

	/**
	 * Kill a master with {@code SIGKILL} and wait until one of its replicas has taken
	 * over its slots and the cluster is healthy again without it.
	 * @param master the master
	 * @return the replica that took over
	 */
	public RedisProcess killMasterAndAwaitFailover(RedisProcess master) {
		Set<Integer> slots = slotsOf(this.ids.get(master));
		master.kill();
		return awaitFailover(master, slots);
	}

	/**
	 * The slots a master serves now.
	 * @param master the master
	 * @return its slots
	 */
	public Set<Integer> slotsOf(RedisProcess master) {
		return slotsOf(this.ids.get(master));
	}

	/**
	 * Wait until a replica of a killed master has taken over the slots it served and the
	 * cluster is healthy again without it.
	 * @param master the killed master
	 * @param slots the slots it served
	 * @return the replica that took over
	 */
	public RedisProcess awaitFailover(RedisProcess master, Set<Integer> slots) {
		String id = this.ids.get(master);
		await("a replica to take over from port " + master.port()).atMost(CONVERGENCE_TIMEOUT).until(() -> {
			Map<Integer, String> owners = slotOwners(requireRunning());
			return slots.stream().noneMatch((slot) -> id.equals(owners.get(slot))) && isHealthy();
		});
		return masterOf(slots.iterator().next());
	}

	/**
	 * Start a killed node again; it rejoins the cluster (as a replica if it was failed
	 * over) and the cluster is healthy again.
	 * @param node the node
	 */
	public void rejoin(RedisProcess node) {
		if (!node.isRunning()) {
			node.restart();
		}
		awaitHealthy();
	}

	@Override
	public void close() {
		for (RedisProcess node : this.nodes) {
			node.close();
		}
	}

	private List<RedisProcess> running() {
		return this.nodes.stream().filter(RedisProcess::isRunning).toList();
	}

	private RedisProcess requireRunning() {
		return running().stream()
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no node of the cluster runs"));
	}

	private RedisProcess nodeWithId(@Nullable String id) {
		return this.nodes.stream()
			.filter((node) -> this.ids.get(node).equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no node with id " + id));
	}

	private Set<Integer> slotsOf(String id) {
		return slotOwners(requireRunning()).entrySet()
			.stream()
			.filter((entry) -> entry.getValue().equals(id))
			.map(Map.Entry::getKey)
			.collect(Collectors.toCollection(TreeSet::new));
	}

	private static Map<String, String> clusterInfo(RedisProcess node) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : String.valueOf(node.call("CLUSTER", "INFO")).split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0) {
				fields.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return fields;
	}

	/**
	 * The lines of {@code CLUSTER NODES}, skipping nodes that are marked as failed and
	 * have been forgotten.
	 */
	private static List<String[]> clusterNodes(RedisProcess node) {
		List<String[]> lines = new ArrayList<>();
		for (String line : String.valueOf(node.call("CLUSTER", "NODES")).split("\n")) {
			if (!line.isBlank()) {
				lines.add(line.trim().split(" "));
			}
		}
		return lines;
	}

	/**
	 * The master id of every slot, by slot number, as one node sees it. Slots in
	 * migration ({@code [slot->-id]}) are not owner entries.
	 */
	private static Map<Integer, String> slotOwners(RedisProcess node) {
		Map<Integer, String> owners = new HashMap<>();
		for (String[] fields : clusterNodes(node)) {
			if (!fields[2].contains("master") || fields[2].contains("fail")) {
				continue;
			}
			for (int i = 8; i < fields.length; i++) {
				String range = fields[i];
				if (range.startsWith("[")) {
					continue;
				}
				int dash = range.indexOf('-');
				int from = Integer.parseInt((dash < 0) ? range : range.substring(0, dash));
				int to = (dash < 0) ? from : Integer.parseInt(range.substring(dash + 1));
				for (int slot = from; slot <= to; slot++) {
					owners.put(slot, fields[0]);
				}
			}
		}
		return owners;
	}

}
