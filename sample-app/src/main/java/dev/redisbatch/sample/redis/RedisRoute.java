package dev.redisbatch.sample.redis;

import org.jspecify.annotations.Nullable;

/**
 * Where the sample's Redis traffic goes. It never contains credentials.
 *
 * @param server the Redis server, as {@code host:port}, or a description when it is not a
 * standalone server
 * @param origin whether the server was configured or started by the sample
 * @param embeddedBinary the {@code redis-server} binary of an embedded server, with its
 * version and where it was found
 * @param proxyPort the loopback port of the latency proxy, {@code null} when traffic goes
 * to the server directly
 * @param proxyOff why traffic does not go through the proxy, {@code null} when it does
 * @since 0.1.0
 */
public record RedisRoute(String server, Origin origin, @Nullable String embeddedBinary, @Nullable Integer proxyPort,
		@Nullable String proxyOff) {

	static RedisRoute unrouted(String why) {
		return new RedisRoute(why, Origin.CONFIGURED, null, null, why);
	}

	/**
	 * Where the Redis server came from.
	 */
	public enum Origin {

		/**
		 * The server at {@code spring.data.redis.*}.
		 */
		CONFIGURED,

		/**
		 * A server the sample started because nothing answered at the configured address.
		 */
		EMBEDDED

	}

}
