package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import dev.redisbatch.internals.NioSockets;
import dev.redisbatch.testsupport.NativeTransportJvm;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.RespConnection;
import dev.redisbatch.wire.BatchChannels;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Transports;
import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Batch connections when Lettuce picks Netty's native epoll transport, as it does in
 * every Spring WebFlux application on Linux (Reactor Netty depends on epoll's native
 * library): they still use NIO, so that the batch's thread reads and writes their sockets
 * itself. These tests run in a JVM of their own, with epoll on its classpath (the
 * {@code native-transport} execution in {@code core/pom.xml}); everywhere else Lettuce
 * picks NIO.
 */
@ExtendWith(RedisServerExtension.class)
@NativeTransportJvm
class NativeTransportTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@BeforeAll
	static void epollIsThere() {
		assumeTrue(Epoll.isAvailable(), "Netty's epoll transport is not available: it needs Linux on x86_64, and the "
				+ "native-transport execution of core/pom.xml, which puts its library on the classpath");
	}

	@Test
	void lettucePicksEpollAndBatchConnectionsStillUseNioWithTheBatchsThreadOnTheSocket(RedisProcess server) {
		assertThat(Transports.socketChannelClass()).as("Lettuce's own pick").isEqualTo(EpollSocketChannel.class);
		BatchChannels channels = new BatchChannels(null);
		ClientResources resources = BatchClients.resources(null, channels);
		RedisClient client = BatchClients.client(resources, null, TIMEOUT, ClientOptions.ReauthenticateBehavior.DEFAULT,
				true, UnaryOperator.identity());
		try {
			// a host name, resolved without Lettuce's DNS resolver (built for epoll)
			StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE,
					RedisURI.create("redis://localhost:" + server.port()));
			Channel channel = channels.channelOf(connection);
			assertThat(channel).isInstanceOf(NioSocketChannel.class);
			assertThat(NioSockets.socketOf(channel)).as("the batch's thread can use the socket").isNotNull();
			assertThat(connection.sync().ping()).isEqualTo("PONG");
		}
		finally {
			client.shutdown(Duration.ZERO, TIMEOUT);
			resources.shutdown(0, TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}
	}

	@Test
	void batchesRunOnTheApplicationsResourcesAndTheirNioEventLoopGoesBackWithThePool(RedisProcess server)
			throws Exception {
		ClientResources application = DefaultClientResources.create();
		try {
			Map<String, String> entries = new LinkedHashMap<>();
			for (int i = 0; i < 500; i++) {
				entries.put("native:" + i, "value-" + i);
			}
			List<String> keys = new ArrayList<>(entries.keySet());
			try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri()))
				.clientResources(application)
				.build()) {
				StringBatchTemplate template = new StringBatchTemplate(pool);
				template.setAll(entries, null);
				assertThat(template.getAll(keys)).containsExactlyElementsOf(entries.values());
				assertThat(nioEventLoops()).as("batch connections have an NIO event loop").isPositive();
			}
			try (RespConnection redis = RespConnection.open(server.port(), TIMEOUT)) {
				assertThat(redis.call("DBSIZE")).isEqualTo(500L);
				assertThat(redis.call("GET", "native:499")).isEqualTo("value-499");
			}
			// the application's provider keeps its own event loops, and shuts the one it
			// made for batch connections once the pool gave it back
			await().atMost(TIMEOUT).until(() -> nioEventLoops() == 0);
		}
		finally {
			application.shutdown(0, TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}
	}

	private static long nioEventLoops() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("lettuce-nioEventLoop"))
			.count();
	}

}
