package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.autoconfigure.RedisConnectionSettings.Mode;
import dev.redisbatch.autoconfigure.RedisConnectionSettings.Node;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.ssl.SslBundle;

/**
 * What this module knows of the Spring Boot line it is built for, Spring Boot 3.5: its
 * generation, and how its Redis connection details read (an SSL bundle per standalone,
 * Sentinel or Cluster setup).
 */
final class BootLine implements SpringBootLine<RedisConnectionDetails, RedisProperties> {

	/**
	 * This module's line.
	 */
	static final BootLine INSTANCE = new BootLine();

	private BootLine() {
	}

	@Override
	public int generation() {
		return 3;
	}

	@Override
	public String oldest() {
		return "3.5";
	}

	@Override
	public RedisConnectionSettings settings(RedisConnectionDetails details, @Nullable RedisProperties redis) {
		boolean tlsUrl = RedisConnectionSettings.isTlsUrl((redis != null) ? redis.getUrl() : null);
		String clientName = (redis != null) ? redis.getClientName() : null;
		Duration connectTimeout = (redis != null) ? redis.getConnectTimeout() : null;
		RedisConnectionDetails.Cluster cluster = details.getCluster();
		if (cluster != null) {
			SslBundle bundle = cluster.getSslBundle();
			return new RedisConnectionSettings(Mode.CLUSTER, nodes(cluster.getNodes()), 0, null, details.getUsername(),
					details.getPassword(), null, null, bundle, bundle != null || tlsUrl, clientName, connectTimeout);
		}
		RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
		if (sentinel != null) {
			SslBundle bundle = sentinel.getSslBundle();
			return new RedisConnectionSettings(Mode.SENTINEL, nodes(sentinel.getNodes()), sentinel.getDatabase(),
					sentinel.getMaster(), details.getUsername(), details.getPassword(), sentinel.getUsername(),
					sentinel.getPassword(), bundle, bundle != null || tlsUrl, clientName, connectTimeout);
		}
		RedisConnectionDetails.Standalone standalone = details.getStandalone();
		if (standalone == null) {
			throw new IllegalStateException("No Redis connection details: set spring.data.redis.host/port or url");
		}
		SslBundle bundle = standalone.getSslBundle();
		return new RedisConnectionSettings(Mode.STANDALONE,
				List.of(new Node(standalone.getHost(), standalone.getPort())), standalone.getDatabase(), null,
				details.getUsername(), details.getPassword(), null, null, bundle, bundle != null || tlsUrl, clientName,
				connectTimeout);
	}

	private static List<Node> nodes(List<RedisConnectionDetails.Node> nodes) {
		List<Node> converted = new ArrayList<>(nodes.size());
		for (RedisConnectionDetails.Node node : nodes) {
			converted.add(new Node(node.host(), node.port()));
		}
		return converted;
	}

}
