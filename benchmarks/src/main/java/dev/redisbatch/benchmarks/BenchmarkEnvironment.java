package dev.redisbatch.benchmarks;

import java.util.Arrays;
import java.util.List;

/**
 * What the suite's {@link Main} hands to the forked benchmark JVMs as system properties:
 * the port of the one Redis server of the run, and the ports of the latency-adding
 * proxies in front of it.
 */
final class BenchmarkEnvironment {

	/**
	 * The system property with the Redis server's port.
	 */
	static final String PORT = "redisbatch.bench.port";

	/**
	 * The prefix of the system properties with the proxies' ports, followed by the
	 * network name (for example {@code redisbatch.bench.proxy.rtt10}).
	 */
	static final String PROXY_PREFIX = "redisbatch.bench.proxy.";

	/**
	 * The system property with the ports of the local Redis Cluster's masters,
	 * comma-separated.
	 */
	static final String CLUSTER = "redisbatch.bench.cluster";

	/**
	 * The network name of the benchmarks against the local Redis Cluster.
	 */
	static final String CLUSTER_NETWORK = "cluster";

	/**
	 * The networks through the proxy, with the round trip each adds in milliseconds.
	 */
	static final List<String> PROXIED = List.of("rtt0", "rtt1", "rtt5", "rtt10");

	/**
	 * The heap's initial size, equal to {@link #HEAP_MAX} so that the heap is fixed: for
	 * {@link #HEAP} and the paired benchmarks' {@code @Fork}.
	 */
	static final String HEAP_MIN = "-Xms4g";

	/**
	 * The heap's largest size: for {@link #HEAP} and the paired benchmarks'
	 * {@code @Fork}.
	 */
	static final String HEAP_MAX = "-Xmx4g";

	/**
	 * The heap's pre-touch, for {@link #HEAP} and the paired benchmarks' {@code @Fork}.
	 */
	static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

	/**
	 * The heap of every forked benchmark JVM: fixed, and touched before the run starts. A
	 * service that has run for a while has touched its heap; without the pre-touch a 4 GB
	 * heap is touched for the first time during the measurement, and each client pays
	 * page faults in proportion to what it allocates (profiled in
	 * docs/performance/reply-path-log.md, tenth session).
	 */
	static final List<String> HEAP = List.of(HEAP_MIN, HEAP_MAX, PRE_TOUCH);

	private BenchmarkEnvironment() {
	}

	static int serverPort() {
		String port = System.getProperty(PORT);
		if (port == null) {
			throw new IllegalStateException("No Redis server: run the suite with dev.redisbatch.benchmarks.Main "
					+ "(benchmarks/run.sh), which starts one and sets -D" + PORT);
		}
		return Integer.parseInt(port);
	}

	static Endpoint direct() {
		return new Endpoint(serverPort(), "direct", 0);
	}

	static Endpoint endpoint(String network) {
		if ("direct".equals(network)) {
			return direct();
		}
		if (CLUSTER_NETWORK.equals(network)) {
			return new Endpoint(Integer.parseInt(clusterNodes().get(0).split(":")[1]), CLUSTER_NETWORK, 0);
		}
		String port = System.getProperty(PROXY_PREFIX + network);
		if (port == null) {
			throw new IllegalStateException(
					"No proxy for network '" + network + "' (-D" + PROXY_PREFIX + network + ")");
		}
		return new Endpoint(Integer.parseInt(port), network, rttMillis(network));
	}

	/**
	 * The masters of the local Redis Cluster, as {@code host:port}.
	 * @return the addresses
	 */
	static List<String> clusterNodes() {
		String ports = System.getProperty(CLUSTER);
		if (ports == null) {
			throw new IllegalStateException("No Redis Cluster: run the cluster group with "
					+ "dev.redisbatch.benchmarks.Main (benchmarks/run.sh --groups cluster), which starts one and sets -D"
					+ CLUSTER);
		}
		return Arrays.stream(ports.split(",")).map((port) -> Endpoint.HOST + ":" + port).toList();
	}

	static int rttMillis(String network) {
		if ("direct".equals(network) || CLUSTER_NETWORK.equals(network)) {
			return 0;
		}
		if (!network.startsWith("rtt")) {
			throw new IllegalArgumentException("Unknown network '" + network + "': direct, rtt0, rtt1 or rtt10");
		}
		return Integer.parseInt(network.substring(3));
	}

}
