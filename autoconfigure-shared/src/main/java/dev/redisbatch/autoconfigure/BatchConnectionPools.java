package dev.redisbatch.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.autoconfigure.RedisConnectionSettings.Node;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import org.jspecify.annotations.Nullable;

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

	static BatchConnectionPool create(RedisConnectionSettings settings, RedisBatchProperties properties) {
		String clientName = StringUtils.hasText(settings.clientName()) ? settings.clientName() + "-batch"
				: "redis-batch";
		BatchConnectionPool.Builder builder = switch (settings.mode()) {
			case CLUSTER -> {
				List<RedisURI> seeds = new ArrayList<>();
				for (Node node : settings.nodes()) {
					seeds.add(uri(node, settings, clientName).build());
				}
				yield BatchConnectionPool.clusterBuilder(seeds);
			}
			case SENTINEL -> {
				RedisURI.Builder uri = RedisURI.builder()
					.withSentinelMasterId(settings.sentinelMaster())
					.withDatabase(settings.database())
					.withSsl(settings.ssl())
					.withVerifyPeer(SslVerifyMode.FULL)
					.withClientName(clientName);
				credentials(uri, settings.username(), settings.password());
				for (Node node : settings.nodes()) {
					RedisURI.Builder sentinel = RedisURI.builder()
						.withHost(node.host())
						.withPort(node.port())
						.withSsl(settings.ssl())
						.withVerifyPeer(SslVerifyMode.FULL);
					credentials(sentinel, settings.sentinelUsername(), settings.sentinelPassword());
					uri.withSentinel(sentinel.build());
				}
				yield BatchConnectionPool.builder(uri.build());
			}
			case STANDALONE -> BatchConnectionPool
				.builder(uri(settings.nodes().get(0), settings, clientName).withDatabase(settings.database()).build());
		};
		SslBundle bundle = settings.sslBundle();
		if (bundle != null) {
			builder.sslOptions(sslOptions(bundle));
		}
		if (settings.connectTimeout() != null) {
			builder.connectTimeout(settings.connectTimeout());
		}
		builder.fastPath(properties.getFastPath().isEnabled());
		return RedisBatchPropertiesValidator.pool(builder, properties.getPool());
	}

	private static RedisURI.Builder uri(Node node, RedisConnectionSettings settings, String clientName) {
		RedisURI.Builder uri = RedisURI.builder()
			.withHost(node.host())
			.withPort(node.port())
			.withSsl(settings.ssl())
			.withVerifyPeer(SslVerifyMode.FULL)
			.withClientName(clientName);
		credentials(uri, settings.username(), settings.password());
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

}
