package dev.redisbatch.autobatch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisSentinels;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.TestCertificates;
import dev.redisbatch.testsupport.TestCertificates.ServerCertificate;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Auto-batching wherever the connection factory connects: a cluster (a connection per
 * node, each batched on its own), a master found through Sentinel, and TLS (the coalesced
 * writes go through Netty's TLS handler): the same sequences keep their order.
 */
@ExtendWith(RedisClusterExtension.class)
class AutoBatchingTopologiesTests {

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<Channel> channels = new CopyOnWriteArrayList<>();

	private final CountingListener listener = new CountingListener();

	private ClientResources resources = DefaultClientResources.create();

	@AfterEach
	void close() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void onAClusterEveryNodeConnectionKeepsTheOrderOfItsCallers(RedisCluster cluster) throws InterruptedException {
		StringRedisTemplate template = template(new RedisClusterConfiguration(cluster.hostsAndPorts()),
				LettuceClientConfiguration.builder());

		long sent = Sequences.run(template, "cluster-sequence", 24, 150);

		assertThat(this.listener.commands()).isGreaterThanOrEqualTo(sent);
		assertThat(this.listener.largestWrite()).isGreaterThan(1);
		List<Integer> masters = new ArrayList<>();
		for (int caller = 0; caller < 24; caller++) {
			masters.add(cluster.masters().indexOf(cluster.masterOf("cluster-sequence:" + caller)));
		}
		assertThat(masters).as("the keys live on every master").containsAll(List.of(0, 1, 2));
		// a connection per master, and those of topology refreshes, whose pipelines are
		// emptied when they close
		assertThat(this.channels.stream().map((channel) -> channel.pipeline().last()).filter(Objects::nonNull))
			.hasSizeGreaterThanOrEqualTo(3)
			.allSatisfy((last) -> assertThat(last).isInstanceOf(CallerWrites.class));
	}

	@Test
	void throughSentinelTheMastersConnectionKeepsTheOrderOfItsCallers() throws InterruptedException {
		try (RedisSentinels sentinels = RedisSentinels.start(0)) {
			RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration(RedisSentinels.MASTER_NAME,
					new HashSet<>(sentinels.sentinelHostsAndPorts()));
			StringRedisTemplate template = template(sentinel, LettuceClientConfiguration.builder());
			template.hasKey("warm-up");
			this.listener.reset();

			long sent = Sequences.run(template, "sentinel-sequence", 16, 200);

			assertThat(this.listener.commands()).isEqualTo(sent + 16);
			assertThat(this.listener.largestWrite()).isGreaterThan(1);
			assertThat(sentinels.master().call("GET", "sentinel-sequence:15")).isEqualTo("200");
		}
	}

	@Test
	void overTlsTheCoalescedWritesAreEncryptedAndKeepTheirOrder() throws InterruptedException {
		assumeTrue(RedisServerBinary.locate().tls(), "the redis-server binary has no TLS support");
		TestCertificates authority = TestCertificates.authority("redis-batch-auto-batching-ca");
		ServerCertificate certificate = authority.issue("auto-batching", "dns:redis.auto-batching.example");
		int tlsPort = FreePorts.next();
		try (RedisProcess server = RedisProcess.start("--tls-port", String.valueOf(tlsPort), "--tls-cert-file",
				certificate.certificate().toString(), "--tls-key-file", certificate.privateKey().toString(),
				"--tls-ca-cert-file", authority.caCertificate().toString(), "--tls-auth-clients", "no")) {
			StringRedisTemplate template = template(new RedisStandaloneConfiguration(server.host(), tlsPort),
					LettuceClientConfiguration.builder()
						.clientOptions(ClientOptions.builder()
							.sslOptions(SslOptions.builder().trustManager(authority.caCertificate().toFile()).build())
							.build())
						.useSsl()
						.verifyPeer(SslVerifyMode.CA)
						.and());
			template.hasKey("warm-up");
			this.listener.reset();

			long sent = Sequences.run(template, "tls-sequence", 16, 200);

			assertThat(this.listener.commands()).isEqualTo(sent + 16);
			assertThat(this.listener.largestWrite()).isGreaterThan(1);
			assertThat(this.channels).singleElement().satisfies((channel) -> {
				assertThat(channel.pipeline().first()).isInstanceOf(SslHandler.class);
				assertThat(channel.pipeline().last()).isInstanceOf(CallerWrites.class);
			});
		}
	}

	private StringRedisTemplate template(RedisConfiguration configuration,
			LettuceClientConfiguration.LettuceClientConfigurationBuilder client) {
		this.resources = AutoBatching.builder()
			.writeListener(this.listener)
			.build()
			.clientResources(DefaultClientResources.builder().nettyCustomizer(new NettyCustomizer() {

				@Override
				public void afterChannelInitialized(Channel channel) {
					AutoBatchingTopologiesTests.this.channels.add(channel);
				}

			}).build());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
				client.clientResources(this.resources).build());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return new StringRedisTemplate(factory);
	}

}
