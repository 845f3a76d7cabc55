package dev.redisbatch;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisSentinels;
import dev.redisbatch.testsupport.RespConnection;
import dev.redisbatch.testsupport.TestSecrets;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.RedisCredentialsProviderFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link BatchConnectionPool#builder(RedisConnectionFactory)}: a pool that connects where
 * a Spring Data Redis {@link LettuceConnectionFactory} connects, read from the factory
 * without starting it, against real servers; and a clear refusal, before any I/O, of what
 * batches cannot run on.
 */
@BothPaths
@EveryLine
class PoolFromConnectionFactoryTests {

	private static final String BATCHER_PASSWORD = TestSecrets.PASSWORD + "-batcher";

	private static RedisProcess server;

	@BeforeAll
	static void startServerWithPassword() {
		server = RedisProcess.start("--requirepass", TestSecrets.PASSWORD);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@BeforeEach
	void emptyTheServer() throws IOException {
		try (RespConnection admin = admin()) {
			admin.call("FLUSHALL");
			admin.call("ACL", "SETUSER", "batcher", "reset", "on", ">" + BATCHER_PASSWORD, "~*", "+@all");
		}
	}

	@Test
	void passwordDatabaseAndClientNameComeFromTheFactoryWhichIsNeverStarted() throws IOException {
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(server.host(), server.port());
		standalone.setDatabase(3);
		standalone.setPassword(TestSecrets.PASSWORD);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(standalone,
				LettuceClientConfiguration.builder().clientName("orders").build());

		try (BatchConnectionPool pool = BatchConnectionPool.builder(factory).build()) {
			new StringBatchTemplate(pool).setAll(Map.of("in-database-3", "yes"), null);

			try (RespConnection admin = admin()) {
				assertThat(admin.call("CLIENT", "LIST")).asString().contains("name=orders-batch").contains("db=3");
				assertThat(admin.call("EXISTS", "in-database-3")).isEqualTo(0L);
				admin.call("SELECT", "3");
				assertThat(admin.call("GET", "in-database-3")).isEqualTo("yes");
			}
			assertThat(pool.topology()).isEqualTo(BatchConnectionPool.Topology.STANDALONE);
		}
		assertThat(factory.isRunning()).isFalse();
	}

	@Test
	void anAclUserLogsInWithItsPasswordAndTheClientNameDefaultsToRedisBatch() throws IOException {
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(server.host(), server.port());
		standalone.setUsername("batcher");
		standalone.setPassword(BATCHER_PASSWORD);

		try (BatchConnectionPool pool = BatchConnectionPool.builder(new LettuceConnectionFactory(standalone)).build();
				RespConnection admin = admin()) {
			new StringBatchTemplate(pool).setAll(Map.of("by-batcher", "yes"), null);

			assertThat(admin.call("GET", "by-batcher")).isEqualTo("yes");
			assertThat(admin.call("CLIENT", "LIST")).asString().contains("name=redis-batch").contains("user=batcher");
		}
	}

	@Test
	void theCredentialsProviderOfTheClientConfigurationIsUsed() throws IOException {
		RedisCredentialsProviderFactory credentials = new RedisCredentialsProviderFactory() {

			@Override
			public RedisCredentialsProvider createCredentialsProvider(RedisConfiguration configuration) {
				return RedisCredentialsProvider.from(() -> RedisCredentials.just("batcher", BATCHER_PASSWORD));
			}

		};
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().redisCredentialsProviderFactory(credentials).build());

		try (BatchConnectionPool pool = BatchConnectionPool.builder(factory).build(); RespConnection admin = admin()) {
			new StringBatchTemplate(pool).setAll(Map.of("through-provider", "yes"), null);

			assertThat(admin.call("GET", "through-provider")).isEqualTo("yes");
			assertThat(admin.call("CLIENT", "LIST")).asString().contains("user=batcher");
		}
	}

	@Test
	void connectionsReauthenticateOnStreamedCredentialsWhenTheFactorysClientOptionsSaySo() throws IOException {
		StreamingCredentials credentials = new StreamingCredentials("batcher", BATCHER_PASSWORD);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder()
					.clientOptions(ClientOptions.builder()
						.reauthenticateBehavior(ClientOptions.ReauthenticateBehavior.ON_NEW_CREDENTIALS)
						.build())
					.redisCredentialsProviderFactory(new RedisCredentialsProviderFactory() {

						@Override
						public RedisCredentialsProvider createCredentialsProvider(RedisConfiguration configuration) {
							return credentials;
						}

					})
					.build());

		try (BatchConnectionPool pool = BatchConnectionPool.builder(factory).build(); RespConnection admin = admin()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			template.setAll(Map.of("as-batcher", "yes"), null);
			assertThat(admin.call("CLIENT", "LIST")).asString().contains("user=batcher");
			admin.call("ACL", "SETUSER", "rotated", "reset", "on", ">" + BATCHER_PASSWORD, "~*", "+@all");

			credentials.rotate("rotated", BATCHER_PASSWORD);

			await().atMost(Duration.ofSeconds(10))
				.until(() -> String.valueOf(admin.call("CLIENT", "LIST")).contains("user=rotated"));
			template.setAll(Map.of("as-rotated", "yes"), null);
			assertThat(admin.call("GET", "as-rotated")).isEqualTo("yes");
			assertThat(pool.getCreatedCount()).as("the open connection re-authenticated").isEqualTo(1);
		}
	}

	@Test
	void aFactoryCreatedFromAGenericRedisConfigurationIsReadAsWell() throws IOException {
		// Built this way, the factory's getStandaloneConfiguration() is a default
		// localhost:6379: the pool must use the configuration the factory connects with.
		RedisConfiguration configuration = LettuceConnectionFactory.createRedisConfiguration(RedisURI.builder()
			.withHost(server.host())
			.withPort(server.port())
			.withPassword(TestSecrets.PASSWORD.toCharArray())
			.withDatabase(2)
			.build());

		try (BatchConnectionPool pool = BatchConnectionPool.builder(new LettuceConnectionFactory(configuration))
			.build(); RespConnection admin = admin()) {
			new StringBatchTemplate(pool).setAll(Map.of("in-database-2", "yes"), null);

			admin.call("SELECT", "2");
			assertThat(admin.call("GET", "in-database-2")).isEqualTo("yes");
		}
	}

	@Test
	@ExtendWith(RedisClusterExtension.class)
	void aClusterFactoryGivesAClusterPoolThatReachesEveryMaster(RedisCluster cluster) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(cluster.hostsAndPorts()));
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < 300; i++) {
			entries.put("key:" + i, "value-" + i);
		}

		try (BatchConnectionPool pool = BatchConnectionPool.builder(factory).build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			template.setAll(entries, Duration.ofHours(1));

			assertThat(pool.topology()).isEqualTo(BatchConnectionPool.Topology.CLUSTER);
			for (RedisProcess master : cluster.masters()) {
				assertThat((Long) master.call("DBSIZE")).as("keys on master %d", master.port()).isPositive();
			}
			assertThat(template.getAll(List.copyOf(entries.keySet()))).containsExactlyElementsOf(entries.values());
		}
	}

	@Test
	void aSentinelFactoryGivesAPoolOnTheMasterSentinelNamesInTheFactorysDatabase() throws IOException {
		try (RedisSentinels sentinels = RedisSentinels.start(0)) {
			RedisSentinelConfiguration configuration = new RedisSentinelConfiguration(RedisSentinels.MASTER_NAME,
					sentinels.sentinels()
						.stream()
						.map((sentinel) -> sentinel.host() + ":" + sentinel.port())
						.collect(Collectors.toSet()));
			configuration.setDatabase(1);

			try (BatchConnectionPool pool = BatchConnectionPool.builder(new LettuceConnectionFactory(configuration))
				.build()) {
				new StringBatchTemplate(pool).setAll(Map.of("through-sentinel", "yes"), null);

				assertThat(pool.topology()).isEqualTo(BatchConnectionPool.Topology.SENTINEL);
				assertThat(sentinels.master().call("EXISTS", "through-sentinel")).isEqualTo(0L);
				try (RespConnection master = RespConnection.open(sentinels.master().port(), Duration.ofSeconds(5))) {
					master.call("SELECT", "1");
					assertThat(master.call("GET", "through-sentinel")).isEqualTo("yes");
				}
			}
		}
	}

	@Test
	void anotherKindOfFactoryIsRefusedWithoutBeingUsed() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchConnectionPool.builder(new ForeignFactory()))
			.withMessageContaining(ForeignFactory.class.getName())
			.withMessageContaining("only a LettuceConnectionFactory")
			.withMessageContaining("BatchConnectionPool.builder(RedisURI)");
	}

	@Test
	void aStaticMasterReplicaFactoryIsRefused() {
		RedisStaticMasterReplicaConfiguration masterReplica = new RedisStaticMasterReplicaConfiguration(server.host(),
				server.port());

		assertThatIllegalArgumentException()
			.isThrownBy(() -> BatchConnectionPool.builder(new LettuceConnectionFactory(masterReplica)))
			.withMessageContaining("RedisStaticMasterReplicaConfiguration")
			.withMessageContaining("BatchConnectionPool.builder(RedisURI)");
	}

	@Test
	void aUnixDomainSocketFactoryIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BatchConnectionPool
				.builder(new LettuceConnectionFactory(new RedisSocketConfiguration("/tmp/redis.sock"))))
			.withMessageContaining("Unix domain socket")
			.withMessageContaining("BatchConnectionPool.builder(RedisURI)");
	}

	private static RespConnection admin() throws IOException {
		RespConnection connection = RespConnection.open(server.port(), Duration.ofSeconds(5));
		connection.call("AUTH", TestSecrets.PASSWORD);
		return connection;
	}

	/**
	 * A connection factory of another kind (Jedis, for example), which fails if it is
	 * used at all.
	 */
	private static final class ForeignFactory implements RedisConnectionFactory {

		@Override
		public boolean getConvertPipelineAndTxResults() {
			throw new AssertionError("the factory must not be used");
		}

		@Override
		public RedisConnection getConnection() {
			throw new AssertionError("the factory must not be used");
		}

		@Override
		public org.springframework.data.redis.connection.RedisClusterConnection getClusterConnection() {
			throw new AssertionError("the factory must not be used");
		}

		@Override
		public org.springframework.data.redis.connection.RedisSentinelConnection getSentinelConnection() {
			throw new AssertionError("the factory must not be used");
		}

		@Override
		public org.springframework.dao.DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			throw new AssertionError("the factory must not be used");
		}

	}

}
