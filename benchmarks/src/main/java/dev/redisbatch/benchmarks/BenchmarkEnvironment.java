package dev.redisbatch.benchmarks;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the runner ({@link Main}) hands to the forked benchmark JVMs as system properties:
 * the port of the one Redis server of the run, and the ports of the latency proxies in
 * front of it. A network is named {@code direct} (loopback, no proxy) or {@code rtt<ms>}
 * (through the proxy of {@code test-support}, which adds half the round trip each way).
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

	static final String DIRECT = "direct";

	/**
	 * The heap of the forked JVMs: fixed, and touched before the run starts. A service
	 * that has run for a while has touched its heap; without the pre-touch each client
	 * pays page faults during the measurement in proportion to what it allocates.
	 */
	static final List<String> HEAP = List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch");

	private static @Nullable Server server;

	private BenchmarkEnvironment() {
	}

	/**
	 * The server of the run, as this JVM's benchmarks and profilers use it: one
	 * connection, opened before the first reading of any of them, so that no profiler
	 * counts another's.
	 * @return the server
	 */
	static synchronized Server server() {
		int port = serverPort();
		if (server == null || server.port() != port) {
			if (server != null) {
				server.close();
			}
			server = new Server(port);
		}
		return server;
	}

	static int serverPort() {
		String port = System.getProperty(PORT);
		if (port == null) {
			throw new IllegalStateException("No Redis server: run the benchmarks with benchmarks/run.sh, which starts "
					+ "one and sets -D" + PORT);
		}
		return Integer.parseInt(port);
	}

	static Endpoint direct() {
		return new Endpoint(serverPort(), 0);
	}

	static Endpoint endpoint(String network) {
		int rtt = rttMillis(network);
		if (rtt == 0) {
			return direct();
		}
		String port = System.getProperty(PROXY_PREFIX + network);
		if (port == null) {
			throw new IllegalStateException(
					"No proxy for network '" + network + "' (-D" + PROXY_PREFIX + network + ")");
		}
		return new Endpoint(Integer.parseInt(port), rtt);
	}

	/**
	 * The round trip a network adds.
	 * @param network {@code direct} or {@code rtt<ms>}
	 * @return milliseconds
	 */
	static int rttMillis(String network) {
		if (DIRECT.equals(network)) {
			return 0;
		}
		if (!network.startsWith("rtt")) {
			throw new IllegalArgumentException("Unknown network '" + network + "': direct or rtt<ms>");
		}
		return Integer.parseInt(network.substring(3));
	}

	/**
	 * The name of the network with this round trip.
	 * @param rttMillis milliseconds, 0 for loopback
	 * @return {@code direct} or {@code rtt<ms>}
	 */
	static String network(int rttMillis) {
		return (rttMillis == 0) ? DIRECT : "rtt" + rttMillis;
	}

}
