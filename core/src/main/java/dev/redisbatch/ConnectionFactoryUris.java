package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.internals.SpringDataRedisInternals;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConverters;
import org.springframework.data.redis.connection.lettuce.RedisCredentialsProviderFactory;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Reads the connection settings of an application's {@link LettuceConnectionFactory} into
 * a {@link BatchConnectionPool.Builder}, for Spring applications without Spring Boot:
 * <ul>
 * <li>the deployment: a standalone server and its database, the master that Redis
 * Sentinel names, or a Redis Cluster;</li>
 * <li>the ACL user and password (or the factory's credentials provider);</li>
 * <li>TLS, its peer verification mode, STARTTLS, and the {@code SslOptions} and connect
 * timeout of the client options;</li>
 * <li>the client name, with {@code -batch} appended (as the Spring Boot path does), so
 * that {@code CLIENT LIST} tells batch connections apart.</li>
 * </ul>
 * The factory's command timeout, {@code ReadFrom} and client resources do not apply:
 * batches have per-chunk deadlines, always run on masters, and use event loops of their
 * own. Nothing here opens a connection, and the factory need not be started.
 */
final class ConnectionFactoryUris {

	private static final String DEFAULT_CLIENT_NAME = "redis-batch";

	private ConnectionFactoryUris() {
	}

	/**
	 * A builder for a pool that connects where the factory connects.
	 * @param connectionFactory a {@link LettuceConnectionFactory}
	 * @return the builder, with the factory's connect timeout and TLS options
	 * @throws IllegalArgumentException if the factory is of another kind, or uses a
	 * configuration that batches cannot run on
	 */
	static BatchConnectionPool.Builder builder(RedisConnectionFactory connectionFactory) {
		Assert.notNull(connectionFactory, "connectionFactory must not be null");
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
			throw unsupported("it is a " + connectionFactory.getClass().getName()
					+ ", and only a LettuceConnectionFactory can be read");
		}
		LettuceClientConfiguration client = lettuce.getClientConfiguration();
		BatchConnectionPool.Builder builder;
		RedisClusterConfiguration cluster = lettuce.getClusterConfiguration();
		RedisSentinelConfiguration sentinel = lettuce.getSentinelConfiguration();
		if (cluster != null) {
			builder = BatchConnectionPool.clusterBuilder(clusterUris(cluster, client));
		}
		else if (sentinel != null) {
			builder = BatchConnectionPool.builder(sentinelUri(sentinel, client));
		}
		else if (lettuce.getSocketConfiguration() != null) {
			throw unsupported("it connects through a Unix domain socket");
		}
		else {
			builder = BatchConnectionPool.builder(standaloneUri(standaloneConfiguration(lettuce), client));
		}
		ClientOptions options = client.getClientOptions().orElse(null);
		if (options != null) {
			builder.connectTimeout(options.getSocketOptions().getConnectTimeout());
			builder.sslOptions(options.getSslOptions());
			builder.reauthenticate(options.getReauthenticateBehaviour());
		}
		return builder;
	}

	/**
	 * The factory's standalone configuration. {@code LettuceConnectionFactory} has public
	 * getters for its Sentinel, Cluster and socket configurations, but none that tells a
	 * standalone configuration from a static master/replica one, and
	 * {@code getStandaloneConfiguration()} returns a default {@code localhost:6379} when
	 * the factory was created from a {@code RedisConfiguration}: the active one is read
	 * ({@link SpringDataRedisInternals#configurationOf}), so that no setup is ever
	 * mistaken for {@code localhost:6379}.
	 */
	private static RedisStandaloneConfiguration standaloneConfiguration(LettuceConnectionFactory factory) {
		if (!SpringDataRedisInternals.canReadConfiguration()) {
			throw unsupported("this version of Spring Data Redis does not let it tell a standalone "
					+ "configuration from a static master/replica one");
		}
		Object configuration = SpringDataRedisInternals.configurationOf(factory);
		if (configuration instanceof RedisStandaloneConfiguration standalone) {
			return standalone;
		}
		String kind = (configuration != null) ? configuration.getClass().getSimpleName() : "no configuration";
		throw unsupported("its configuration is a " + kind
				+ ", not a standalone, Sentinel or Cluster one (static master/replica setups have no one master "
				+ "per key for batches to use)");
	}

	private static RedisURI standaloneUri(RedisStandaloneConfiguration standalone, LettuceClientConfiguration client) {
		RedisURI uri = RedisURI.Builder.redis(standalone.getHostName(), standalone.getPort())
			.withDatabase(standalone.getDatabase())
			.build();
		authenticate(uri, standalone, client);
		return withClientSettings(uri, client);
	}

	private static RedisURI sentinelUri(RedisSentinelConfiguration sentinel, LettuceClientConfiguration client) {
		// Spring Data Redis's own translation: master name, sentinels, and the
		// credentials of the data nodes and of the sentinels.
		RedisURI uri = LettuceConverters.sentinelConfigurationToRedisURI(sentinel);
		uri.setDatabase(sentinel.getDatabase());
		RedisCredentialsProviderFactory credentials = client.getRedisCredentialsProviderFactory().orElse(null);
		if (credentials != null) {
			uri.setCredentialsProvider(credentials.createCredentialsProvider(sentinel));
			RedisCredentialsProvider sentinelCredentials = credentials.createSentinelCredentialsProvider(sentinel);
			uri.getSentinels().forEach((node) -> node.setCredentialsProvider(sentinelCredentials));
		}
		uri.getSentinels().forEach((node) -> withClientSettings(node, client));
		return withClientSettings(uri, client);
	}

	private static List<RedisURI> clusterUris(RedisClusterConfiguration cluster, LettuceClientConfiguration client) {
		List<RedisURI> seeds = new ArrayList<>();
		for (RedisNode node : cluster.getClusterNodes()) {
			// (getHost and getPort: Spring Data Redis 3.5 has no getRequiredHost)
			String host = node.getHost();
			Integer port = node.getPort();
			Assert.state(host != null && port != null, "A cluster node of the connection factory has no host or port");
			RedisURI uri = RedisURI.Builder.redis(host, port).build();
			authenticate(uri, cluster, client);
			seeds.add(withClientSettings(uri, client));
		}
		return seeds;
	}

	private static <C extends RedisConfiguration & RedisConfiguration.WithAuthentication> void authenticate(
			RedisURI uri, C configuration, LettuceClientConfiguration client) {
		RedisCredentialsProviderFactory credentials = client.getRedisCredentialsProviderFactory().orElse(null);
		if (credentials != null) {
			uri.setCredentialsProvider(credentials.createCredentialsProvider(configuration));
			return;
		}
		RedisPassword password = configuration.getPassword();
		if (password.isPresent()) {
			// a static provider rather than setAuthentication, which Lettuce 6.8 lacks
			String username = configuration.getUsername();
			uri.setCredentialsProvider(
					new StaticCredentialsProvider(StringUtils.hasText(username) ? username : null, password.get()));
		}
	}

	private static RedisURI withClientSettings(RedisURI uri, LettuceClientConfiguration client) {
		uri.setSsl(client.isUseSsl());
		uri.setVerifyPeer(client.getVerifyMode());
		uri.setStartTls(client.isStartTls());
		uri.setClientName(client.getClientName()
			.filter(StringUtils::hasText)
			.map((name) -> name + "-batch")
			.orElse(DEFAULT_CLIENT_NAME));
		return uri;
	}

	private static IllegalArgumentException unsupported(String reason) {
		return new IllegalArgumentException("Cannot build a BatchConnectionPool from this RedisConnectionFactory: "
				+ reason + ". Use BatchConnectionPool.builder(RedisURI) or "
				+ "BatchConnectionPool.clusterBuilder(Iterable<RedisURI>) instead.");
	}

}
