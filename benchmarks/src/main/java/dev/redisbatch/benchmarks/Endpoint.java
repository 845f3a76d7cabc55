package dev.redisbatch.benchmarks;

/**
 * Where a strategy connects: the Redis server itself, or a latency-adding proxy in front
 * of it.
 *
 * @param port the port to connect to on 127.0.0.1
 * @param network the network name: {@code direct}, or {@code rtt0}, {@code rtt1},
 * {@code rtt5}, {@code rtt10} through the proxy
 * @param rttMillis the round trip the proxy adds, 0 when direct
 */
record Endpoint(int port, String network, int rttMillis) {

	static final String HOST = "127.0.0.1";

	String uri() {
		return "redis://" + HOST + ":" + this.port;
	}

	boolean viaProxy() {
		return !"direct".equals(this.network);
	}

}
