package dev.redisbatch.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * A master, its replicas and three Redis Sentinels that monitor it, all real
 * {@code redis-server} processes on free loopback ports.
 *
 * @since 0.1.0
 */
public final class RedisSentinels implements AutoCloseable {

	/**
	 * The name the sentinels know the master by.
	 */
	public static final String MASTER_NAME = "batchmaster";

	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

	private final List<RedisProcess> servers = new ArrayList<>();

	private final List<RedisProcess> sentinels = new ArrayList<>();

	private RedisSentinels() {
	}

	/**
	 * Start a master with replicas and three sentinels (quorum 2), and wait until the
	 * replicas are in sync and every sentinel knows them all.
	 * @param replicas the number of replicas
	 * @return the running setup
	 */
	public static RedisSentinels start(int replicas) {
		RedisSentinels setup = new RedisSentinels();
		try {
			RedisProcess master = RedisProcess.start();
			setup.servers.add(master);
			for (int i = 0; i < replicas; i++) {
				setup.servers.add(RedisProcess.start("--replicaof", master.host(), Integer.toString(master.port())));
			}
			for (int i = 0; i < 3; i++) {
				setup.sentinels.add(RedisProcess.startSentinel(MASTER_NAME, master, 2));
			}
			await("replicas in sync and known to every sentinel").atMost(FAILOVER_TIMEOUT).until(() -> {
				boolean synced = setup.servers.subList(1, setup.servers.size())
					.stream()
					.allMatch((replica) -> "up".equals(replica.info("replication").get("master_link_status")));
				return synced && setup.sentinels.stream().allMatch((sentinel) -> {
					Object known = sentinel.call("SENTINEL", "REPLICAS", MASTER_NAME);
					Object others = sentinel.call("SENTINEL", "SENTINELS", MASTER_NAME);
					return known instanceof List<?> list && list.size() == replicas && others instanceof List<?> peers
							&& peers.size() == 2;
				});
			});
			return setup;
		}
		catch (RuntimeException | Error ex) {
			setup.close();
			throw ex;
		}
	}

	/**
	 * The master, as the sentinels report it now.
	 * @return the master
	 */
	public RedisProcess master() {
		int port = masterPort();
		return this.servers.stream()
			.filter((server) -> server.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("the sentinels name an unknown master on port " + port));
	}

	/**
	 * The master and its replicas, whatever their role now.
	 * @return the servers
	 */
	public List<RedisProcess> servers() {
		return List.copyOf(this.servers);
	}

	/**
	 * The sentinels.
	 * @return the sentinels
	 */
	public List<RedisProcess> sentinels() {
		return List.copyOf(this.sentinels);
	}

	/**
	 * {@code host:port} of every sentinel, as {@code spring.data.redis.sentinel.nodes}
	 * takes them.
	 * @return the addresses
	 */
	public List<String> sentinelHostsAndPorts() {
		return this.sentinels.stream().map((sentinel) -> sentinel.host() + ":" + sentinel.port()).toList();
	}

	/**
	 * Kill the master with {@code SIGKILL} and wait until the sentinels have promoted a
	 * replica and it accepts writes.
	 * @return the new master
	 */
	public RedisProcess killMasterAndAwaitFailover() {
		RedisProcess old = master();
		old.kill();
		await("the sentinels to promote a replica").atMost(FAILOVER_TIMEOUT).until(() -> {
			int port = masterPort();
			return port != old.port() && this.sentinels.stream().allMatch((sentinel) -> port == masterPort(sentinel))
					&& "master".equals(master().info("replication").get("role"));
		});
		return master();
	}

	@Override
	public void close() {
		this.sentinels.forEach(RedisProcess::close);
		this.servers.forEach(RedisProcess::close);
	}

	private int masterPort() {
		return masterPort(this.sentinels.stream()
			.filter(RedisProcess::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no sentinel runs")));
	}

	private static int masterPort(RedisProcess sentinel) {
		List<?> address = (List<?>) sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
		return Integer.parseInt(String.valueOf(address.get(1)));
	}

}
