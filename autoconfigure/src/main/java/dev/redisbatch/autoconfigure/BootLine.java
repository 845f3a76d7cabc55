package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.autoconfigure.RedisConnectionSettings.Mode;
import dev.redisbatch.autoconfigure.RedisConnectionSettings.Node;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.ssl.SslBundle;

/**
 * What this module knows of the Spring Boot line it is built for, Spring Boot 4: its
 * generation, and how its Redis connection details read.
 */
final class BootLine implements SpringBootLine<DataRedisConnectionDetails, DataRedisProperties> {

	/**
	 * This module's line.
	 */
	static final BootLine INSTANCE = new BootLine();

	private BootLine() {
	}

	@Override
	public int generation() {
		return 4;
	}

	@Override
	public String oldest() {
		return "4.0";
	}

	@Override
	public RedisConnectionSettings settings(DataRedisConnectionDetails details, @Nullable DataRedisProperties redis) {
		if (details.getMasterReplica() != null) {
			throw new IllegalStateException("redis-batch does not support static master/replica setups "
					+ "(spring.data.redis.masterreplica.*): batches need one master per key. "
					+ "Use a standalone, sentinel or cluster setup, or set redis.batch.enabled=false.");
		}
		SslBundle bundle = details.getSslBundle();
		boolean ssl = bundle != null || RedisConnectionSettings.isTlsUrl((redis != null) ? redis.getUrl() : null);
		String clientName = (redis != null) ? redis.getClientName() : null;
		if (details.getCluster() != null) {
			return new RedisConnectionSettings(Mode.CLUSTER, nodes(details.getCluster().getNodes()), 0, null,
					details.getUsername(), details.getPassword(), null, null, bundle, ssl, clientName,
					connectTimeout(redis));
		}
		DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
		if (sentinel != null) {
			return new RedisConnectionSettings(Mode.SENTINEL, nodes(sentinel.getNodes()), sentinel.getDatabase(),
					sentinel.getMaster(), details.getUsername(), details.getPassword(), sentinel.getUsername(),
					sentinel.getPassword(), bundle, ssl, clientName, connectTimeout(redis));
		}
		DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
		if (standalone == null) {
			throw new IllegalStateException("No Redis connection details: set spring.data.redis.host/port or url");
		}
		return new RedisConnectionSettings(Mode.STANDALONE,
				List.of(new Node(standalone.getHost(), standalone.getPort())), standalone.getDatabase(), null,
				details.getUsername(), details.getPassword(), null, null, bundle, ssl, clientName,
				connectTimeout(redis));
	}

	private static List<Node> nodes(List<DataRedisConnectionDetails.Node> nodes) {
		List<Node> converted = new ArrayList<>(nodes.size());
		for (DataRedisConnectionDetails.Node node : nodes) {
			converted.add(new Node(node.host(), node.port()));
		}
		return converted;
	}

	private static @Nullable Duration connectTimeout(@Nullable DataRedisProperties redis) {
		return (redis != null) ? redis.getConnectTimeout() : null;
	}

}
