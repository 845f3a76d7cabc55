package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;

/**
 * What the batch connection pool takes from Spring Boot's Redis connection details and
 * properties, in the same shape whichever Spring Boot line provides them (each line makes
 * it, {@link SpringBootLine#settings}).
 *
 * @param mode standalone, Sentinel or Cluster
 * @param nodes the standalone server (one), the sentinels, or the cluster's seed nodes
 * @param database the database of a standalone server or of Sentinel's master
 * @param sentinelMaster the name of Sentinel's master, for {@link Mode#SENTINEL}
 * @param username the user of the data nodes
 * @param password the password of the data nodes
 * @param sentinelUsername the user of the sentinels
 * @param sentinelPassword the password of the sentinels
 * @param sslBundle the SSL bundle, or {@code null}
 * @param ssl whether connections use TLS
 * @param clientName the application's client name, or {@code null}
 * @param connectTimeout the connect timeout, or {@code null} for the pool's default
 */
record RedisConnectionSettings(Mode mode, List<Node> nodes, int database, @Nullable String sentinelMaster,
		@Nullable String username, @Nullable String password, @Nullable String sentinelUsername,
		@Nullable String sentinelPassword, @Nullable SslBundle sslBundle, boolean ssl, @Nullable String clientName,
		@Nullable Duration connectTimeout) {

	/**
	 * How the application reaches Redis.
	 */
	enum Mode {

		STANDALONE, SENTINEL, CLUSTER

	}

	/**
	 * A host and port.
	 *
	 * @param host the host
	 * @param port the port
	 */
	record Node(String host, int port) {
	}

	/**
	 * Whether a Redis URL asks for TLS.
	 * @param url the URL, or {@code null}
	 * @return whether it starts with {@code rediss://}
	 */
	static boolean isTlsUrl(@Nullable String url) {
		return url != null && url.startsWith("rediss://");
	}

}
