package dev.redisbatch.benchmarks;

/**
 * Where a strategy connects: the Redis server itself, or the latency proxy in front of
 * it.
 *
 * @param port the port to connect to on 127.0.0.1
 * @param rttMillis the round trip the proxy adds, 0 when direct
 */
record Endpoint(int port, int rttMillis) {

	static final String HOST = "127.0.0.1";

	String uri() {
		return "redis://" + HOST + ":" + this.port;
	}

}
