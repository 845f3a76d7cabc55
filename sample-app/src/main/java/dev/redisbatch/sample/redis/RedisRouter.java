package dev.redisbatch.sample.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;

import dev.redisbatch.sample.SampleProperties;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.Standalone;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Decides where the application's Redis traffic goes, before anything connects:
 * <ol>
 * <li>if nothing answers at the configured standalone address and it is on loopback, it
 * starts an embedded {@code redis-server} (the one on {@code PATH}, else the binary in
 * the embedded-redis jar) and logs which one and where;</li>
 * <li>unless {@code sample.proxy.enabled=false}, it puts a {@link TcpProxy} on loopback
 * in front of the server, with {@code sample.simulated-rtt} as its added round-trip
 * time.</li>
 * </ol>
 * The connection details that Spring Boot's {@code RedisConnectionFactory} and the
 * redis-batch pool are built from are rewritten to point at the result, so both take the
 * same path. The proxy and the embedded server stop with the application context.
 *
 * @since 0.1.0
 */
public final class RedisRouter implements DisposableBean {

	/**
	 * The bean name of the router.
	 */
	public static final String BEAN_NAME = "sampleRedisRouter";

	private static final Logger logger = LoggerFactory.getLogger(RedisRouter.class);

	private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

	private final SampleProperties properties;

	private final Object monitor = new Object();

	private @Nullable RedisProcess embedded;

	private @Nullable TcpProxy proxy;

	private @Nullable RedisRoute route;

	private Duration roundTrip = Duration.ZERO;

	/**
	 * Create a router; nothing starts until {@link #route(DataRedisConnectionDetails)}.
	 * @param properties the sample's properties
	 */
	public RedisRouter(SampleProperties properties) {
		this.properties = properties;
	}

	/**
	 * Route the given connection details: start the embedded server and the proxy as
	 * needed, and return details that point at the address to connect to.
	 * @param details the connection details from the configuration
	 * @return the details to connect with (the same instance when nothing changes)
	 */
	public DataRedisConnectionDetails route(DataRedisConnectionDetails details) {
		synchronized (this.monitor) {
			if (this.route != null) {
				logger.debug("More than one DataRedisConnectionDetails bean: only the first one is routed");
				return details;
			}
			Standalone standalone = details.getStandalone();
			if (standalone == null || details.getSentinel() != null || details.getCluster() != null
					|| details.getMasterReplica() != null) {
				this.route = RedisRoute.unrouted("sentinel, cluster or master/replica configuration");
				warnIfRttIgnored("Redis is not a standalone server");
				return details;
			}
			String host = standalone.getHost();
			int port = standalone.getPort();
			String targetHost = host;
			int targetPort = port;
			RedisRoute.Origin origin = RedisRoute.Origin.CONFIGURED;
			@Nullable String binary = null;
			boolean loopback = isLoopback(host);
			if (loopback && !answers(host, port)) {
				String reason = embeddedNotPossible(details);
				if (reason == null) {
					RedisProcess server = startEmbedded(port);
					this.embedded = server;
					targetHost = server.host();
					targetPort = server.port();
					origin = RedisRoute.Origin.EMBEDDED;
					RedisServerBinary used = server.binary();
					binary = "redis-server " + used.version() + " from " + used.source() + " (" + used.path() + ")";
					logger.info(
							"Nothing answers at {}:{}, so the sample started an embedded Redis on {}:{}: {}. It stops with the application. "
									+ "Set spring.data.redis.host/port to use your own Redis.",
							host, port, targetHost, targetPort, binary);
				}
				else {
					logger.warn("Nothing answers at {}:{}, and no embedded Redis is started: {}", host, port, reason);
				}
			}
			String server = targetHost + ":" + targetPort;
			if (!this.properties.getProxy().isEnabled()) {
				this.route = new RedisRoute(server, origin, binary, null, "sample.proxy.enabled=false");
				warnIfRttIgnored("the proxy is disabled (sample.proxy.enabled=false)");
				return rewrite(details, standalone, origin, targetHost, targetPort);
			}
			if (!isLoopback(targetHost) || details.getSslBundle() != null) {
				String why = (details.getSslBundle() != null) ? "Redis uses TLS" : "Redis is not on loopback";
				this.route = new RedisRoute(server, origin, binary, null, why);
				warnIfRttIgnored(why);
				return rewrite(details, standalone, origin, targetHost, targetPort);
			}
			// only the delay: tracking requests would parse every byte, CPU the app needs
			TcpProxy started = TcpProxy.start(targetPort).trackOutstandingRequests(false);
			this.proxy = started;
			this.roundTrip = this.properties.getSimulatedRtt();
			started.roundTrip(this.roundTrip);
			this.route = new RedisRoute(server, origin, binary, started.port(), null);
			logger.info("Redis traffic goes through a latency proxy on 127.0.0.1:{} to {} (simulated round trip {} ms)",
					started.port(), server, this.roundTrip.toMillis());
			return new RoutedConnectionDetails(details, "127.0.0.1", started.port(), standalone.getDatabase());
		}
	}

	/**
	 * Where traffic goes.
	 * @return the route, or {@code null} before the connection details were routed
	 */
	public @Nullable RedisRoute route() {
		synchronized (this.monitor) {
			return this.route;
		}
	}

	/**
	 * The round-trip time the proxy adds.
	 * @return the added round-trip time, zero when there is no proxy
	 */
	public Duration roundTrip() {
		synchronized (this.monitor) {
			return this.roundTrip;
		}
	}

	/**
	 * Whether the added round-trip time can be changed: traffic goes through the proxy.
	 * @return whether there is a proxy
	 */
	public boolean isRoundTripAdjustable() {
		synchronized (this.monitor) {
			return this.proxy != null;
		}
	}

	/**
	 * Change the round-trip time the proxy adds, from now on, without reconnecting.
	 * @param roundTrip the added round-trip time
	 * @throws IllegalStateException if traffic does not go through the proxy
	 */
	public void roundTrip(Duration roundTrip) {
		Assert.isTrue(!roundTrip.isNegative(), "roundTrip must not be negative");
		synchronized (this.monitor) {
			TcpProxy current = this.proxy;
			if (current == null) {
				RedisRoute known = this.route;
				throw new IllegalStateException("Redis traffic does not go through the latency proxy"
						+ ((known != null && known.proxyOff() != null) ? ": " + known.proxyOff() : ""));
			}
			current.roundTrip(roundTrip);
			this.roundTrip = roundTrip;
			logger.info("Simulated round trip is now {} ms", roundTrip.toMillis());
		}
	}

	@Override
	public void destroy() {
		synchronized (this.monitor) {
			TcpProxy currentProxy = this.proxy;
			this.proxy = null;
			if (currentProxy != null) {
				currentProxy.close();
			}
			RedisProcess currentServer = this.embedded;
			this.embedded = null;
			if (currentServer != null) {
				logger.info("Stopping the embedded Redis on {}:{}", currentServer.host(), currentServer.port());
				currentServer.close();
			}
		}
	}

	private DataRedisConnectionDetails rewrite(DataRedisConnectionDetails details, Standalone standalone,
			RedisRoute.Origin origin, String host, int port) {
		if (origin == RedisRoute.Origin.CONFIGURED) {
			return details;
		}
		return new RoutedConnectionDetails(details, host, port, standalone.getDatabase());
	}

	private @Nullable String embeddedNotPossible(DataRedisConnectionDetails details) {
		if (!this.properties.getEmbeddedRedis().isEnabled()) {
			return "sample.embedded-redis.enabled=false";
		}
		if (details.getSslBundle() != null) {
			return "TLS is configured";
		}
		if (StringUtils.hasText(details.getPassword())) {
			return "a password is configured";
		}
		return null;
	}

	private RedisProcess startEmbedded(int port) {
		if (port > 0 && FreePorts.isFree(port)) {
			return RedisProcess.startOnPort(port);
		}
		return RedisProcess.start();
	}

	private void warnIfRttIgnored(String why) {
		if (!this.properties.getSimulatedRtt().isZero()) {
			logger.warn("sample.simulated-rtt={} ms is ignored: {}", this.properties.getSimulatedRtt().toMillis(), why);
		}
	}

	static boolean isLoopback(String host) {
		try {
			return InetAddress.getByName(host).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	static boolean answers(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
			return true;
		}
		catch (IOException | IllegalArgumentException ex) {
			return false;
		}
	}

}
