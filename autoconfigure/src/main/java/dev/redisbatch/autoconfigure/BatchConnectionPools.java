package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchConnectionPool;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.Node;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.util.StringUtils;

/**
 * Builds the {@link BatchConnectionPool} from Spring Boot's Redis connection details, so
 * that properties, URLs, Testcontainers {@code @ServiceConnection} and Docker Compose all
 * configure batches the way they configure the application's own connection.
 */
final class BatchConnectionPools {

	private BatchConnectionPools() {
	}

	static BatchConnectionPool create(DataRedisConnectionDetails details, @Nullable DataRedisProperties redis,
			RedisBatchProperties.Pool pool) {
		boolean ssl = details.getSslBundle() != null || usesSsl(redis);
		String clientName = clientName(redis);
		BatchConnectionPool.Builder builder;
		if (details.getMasterReplica() != null) {
			throw new IllegalStateException("redis-batch does not support static master/replica setups "
					+ "(spring.data.redis.masterreplica.*): batches need one master per key. "
					+ "Use a standalone, sentinel or cluster setup, or set redis.batch.enabled=false.");
		}
		if (details.getCluster() != null) {
			List<RedisURI> seeds = new ArrayList<>();
			for (Node node : details.getCluster().getNodes()) {
				seeds.add(uri(node.host(), node.port(), details, ssl, clientName).build());
			}
			builder = BatchConnectionPool.clusterBuilder(seeds);
		}
		else if (details.getSentinel() != null) {
			DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
			RedisURI.Builder uri = RedisURI.builder()
				.withSentinelMasterId(sentinel.getMaster())
				.withDatabase(sentinel.getDatabase())
				.withSsl(ssl)
				.withVerifyPeer(SslVerifyMode.FULL);
			credentials(uri, details.getUsername(), details.getPassword());
			if (clientName != null) {
				uri.withClientName(clientName);
			}
			for (Node node : sentinel.getNodes()) {
				RedisURI.Builder sentinelUri = RedisURI.builder()
					.withHost(node.host())
					.withPort(node.port())
					.withSsl(ssl)
					.withVerifyPeer(SslVerifyMode.FULL);
				credentials(sentinelUri, sentinel.getUsername(), sentinel.getPassword());
				uri.withSentinel(sentinelUri.build());
			}
			builder = BatchConnectionPool.builder(uri.build());
		}
		else {
			DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
			if (standalone == null) {
				throw new IllegalStateException("No Redis connection details: set spring.data.redis.host/port or url");
			}
			builder = BatchConnectionPool
				.builder(uri(standalone.getHost(), standalone.getPort(), details, ssl, clientName)
					.withDatabase(standalone.getDatabase())
					.build());
		}
		SslBundle bundle = details.getSslBundle();
		if (bundle != null) {
			builder.sslOptions(sslOptions(bundle));
		}
		Duration connectTimeout = (redis != null && redis.getConnectTimeout() != null) ? redis.getConnectTimeout()
				: BatchConnectionPool.DEFAULT_CONNECT_TIMEOUT;
		return RedisBatchPropertiesValidator.pool(builder.connectTimeout(connectTimeout), pool);
	}

	private static RedisURI.Builder uri(String host, int port, DataRedisConnectionDetails details, boolean ssl,
			@Nullable String clientName) {
		RedisURI.Builder uri = RedisURI.builder()
			.withHost(host)
			.withPort(port)
			.withSsl(ssl)
			.withVerifyPeer(SslVerifyMode.FULL);
		credentials(uri, details.getUsername(), details.getPassword());
		if (clientName != null) {
			uri.withClientName(clientName);
		}
		return uri;
	}

	private static void credentials(RedisURI.Builder uri, @Nullable String username, @Nullable String password) {
		if (StringUtils.hasText(password)) {
			if (StringUtils.hasText(username)) {
				uri.withAuthentication(username, password);
			}
			else {
				uri.withPassword(password.toCharArray());
			}
		}
	}

	private static SslOptions sslOptions(SslBundle bundle) {
		SslOptions.Builder options = SslOptions.builder()
			.keyManager(bundle.getManagers().getKeyManagerFactory())
			.trustManager(bundle.getManagers().getTrustManagerFactory());
		if (bundle.getOptions().getCiphers() != null) {
			options.cipherSuites(bundle.getOptions().getCiphers());
		}
		if (bundle.getOptions().getEnabledProtocols() != null) {
			options.protocols(bundle.getOptions().getEnabledProtocols());
		}
		return options.build();
	}

	private static boolean usesSsl(@Nullable DataRedisProperties redis) {
		String url = (redis != null) ? redis.getUrl() : null;
		return url != null && url.startsWith("rediss://");
	}

	private static @Nullable String clientName(@Nullable DataRedisProperties redis) {
		String name = (redis != null) ? redis.getClientName() : null;
		return StringUtils.hasText(name) ? name + "-batch" : "redis-batch";
	}

}
