package dev.redisbatch.wire;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.internals.ReplyDecoder;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TestSecrets;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A connection's lease, on a real server: its replies reach the batch's thread during a
 * lease and Lettuce between leases, Lettuce's own commands never meet a chunk's, and a
 * connection that can no longer be trusted is closed.
 */
@ExtendWith(RedisServerExtension.class)
@LeakDetection
@EveryLine
class WireLeaseTests {

	private static final long TEN_SECONDS = Duration.ofSeconds(10).toNanos();

	private final BatchChannels channels = new BatchChannels(null);

	private ClientResources resources;

	private RedisClient client;

	@BeforeEach
	void setUp() {
		this.resources = DefaultClientResources.builder().nettyCustomizer(this.channels).build();
		this.client = RedisClient.create(this.resources);
		this.client.setOptions(ClientOptions.builder()
			.autoReconnect(false)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			// as on batch connections: with command timeouts on, Lettuce wraps the
			// endpoint, and the connection is not known
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.build());
	}

	@AfterEach
	void tearDown() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void theChannelOfEachConnectionIsKnownAndForgottenWhenItCloses(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);

		Channel channel = this.channels.channelOf(connection);

		assertThat(channel).isNotNull();
		assertThat(channel.pipeline().get(Wire.NAME)).isInstanceOf(Wire.class);
		assertThat(this.channels.leaseOf(connection)).isSameAs(channel.pipeline().get(Wire.class).lease());
		connection.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.channels.channelOf(connection) == null);
		assertThat(this.channels.leaseOf(connection)).isNull();
	}

	@Test
	void theServersRefusalOfAHandshakeIsReadByTheWireAndNamesNoPassword(RedisProcess server) {
		long start = System.nanoTime();
		this.client.connect(ByteArrayCodec.INSTANCE, RedisURI.create(server.uri())).close();
		assertThat(this.channels.refusals().since(start)).as("no refusal of an accepted handshake").isNull();

		Throwable denied = catchThrowable(() -> this.client.connect(ByteArrayCodec.INSTANCE,
				RedisURI.builder()
					.withHost("127.0.0.1")
					.withPort(server.port())
					.withAuthentication("nobody", TestSecrets.PASSWORD)
					.build()));

		assertThat(denied).isNotNull();
		assertThat(this.channels.refusals().since(start)).startsWith("WRONGPASS").doesNotContain(TestSecrets.MARKER);
		assertThat(this.channels.refusals().since(System.nanoTime())).as("only a refusal after the given time")
			.isNull();
	}

	@Test
	void lettucesOwnTrafficPassesThroughBetweenLeasesAndTheLeaseReadsItsReplies(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		WireLease lease = this.channels.leaseOf(connection);
		assertThat(connection.sync().ping()).isEqualTo("PONG");

		assertThat(lease.begin()).isTrue();
		assertThat(exchange(lease, "*1\r\n$4\r\nPING\r\n", "+PONG\r\n")).isEqualTo("+PONG\r\n");
		assertThat(lease.end()).as("nothing left unread").isTrue();

		assertThat(connection.sync().ping()).as("Lettuce reads its replies again").isEqualTo("PONG");
	}

	@Test
	void onAPlaintextConnectionTheLeasesThreadReadsTheSocketAndTheEventLoopStopsReadingIt(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		WireLease lease = this.channels.leaseOf(connection);

		lease.begin();
		assertThat(lease.callerReads()).isTrue();
		assertThat(channel.config().isAutoRead()).as("the event loop reads during a lease").isFalse();
		assertThat(exchange(lease, "*1\r\n$4\r\nPING\r\n", "+PONG\r\n")).isEqualTo("+PONG\r\n");
		assertThat(lease.end()).isTrue();

		assertThat(connection.sync().ping()).as("Lettuce writing between leases reads again").isEqualTo("PONG");
		assertThat(channel.config().isAutoRead()).isTrue();
	}

	@Test
	void withCallerIoOffTheEventLoopReadsForTheLease(RedisProcess server) {
		System.setProperty(WireLease.CALLER_IO, "false");
		try {
			StatefulRedisConnection<byte[], byte[]> connection = connect(server);
			WireLease lease = this.channels.leaseOf(connection);

			lease.begin();
			assertThat(lease.callerReads()).isFalse();
			assertThat(this.channels.channelOf(connection).config().isAutoRead()).isTrue();
			assertThat(exchange(lease, "*1\r\n$4\r\nPING\r\n", "+PONG\r\n")).isEqualTo("+PONG\r\n");
			assertThat(lease.end()).isTrue();
		}
		finally {
			System.clearProperty(WireLease.CALLER_IO);
		}
	}

	@Test
	void aServerClosingAnIdleConnectionThatTheBatchsThreadReadsIsFoundByTheNextCheck(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		WireLease lease = this.channels.leaseOf(connection);
		lease.begin();
		lease.end();
		assertThat(lease.checkOpen()).isTrue();

		server.call("CLIENT", "KILL", "TYPE", "normal");

		await().atMost(Duration.ofSeconds(10)).until(() -> !lease.checkOpen());
		await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
	}

	@Test
	void lettuceWritingOnALeasedConnectionIsHeldUntilTheLeaseEndsAndItsReplyReachesLettuce(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		WireLease lease = wire.lease();
		lease.begin();

		// as a re-authentication on new credentials does
		RedisFuture<String> ping = connection.async().ping();
		wentOut(connection);
		assertThat(wire.holdsWrites()).isTrue();
		assertThat(exchange(lease, "*2\r\n$4\r\nECHO\r\n$7\r\nchunk's\r\n", "$7\r\nchunk's\r\n"))
			.as("only the chunk's reply reached the lease")
			.isEqualTo("$7\r\nchunk's\r\n");
		assertThat(ping.isDone()).as("Lettuce's command was not sent during the lease").isFalse();

		assertThat(lease.end()).as("no byte of Lettuce's reached the lease").isTrue();
		await().atMost(Duration.ofSeconds(10)).until(ping::isDone);
		assertThat(ping.toCompletableFuture().join()).isEqualTo("PONG");
		assertThat(connection.isOpen()).isTrue();
	}

	@Test
	void aLeaseStartsOnlyOnceLettucesOwnCommandsHaveTheirReplies(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		WireLease lease = this.channels.leaseOf(connection);
		// a reply that comes a moment later, as that of a re-authentication between
		// leases
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		wentOut(connection);

		assertThat(lease.checkOpen()).as("the connection is usable once the reply is in").isTrue();
		assertThat(blpop.isDone()).isTrue();
		lease.begin();
		assertThat(exchange(lease, "*1\r\n$4\r\nPING\r\n", "+PONG\r\n")).as("Lettuce's reply never reached the lease")
			.isEqualTo("+PONG\r\n");
		assertThat(lease.end()).isTrue();
	}

	@Test
	void aLeaseStartedWhileLettuceAwaitsAReplyWaitsForIt(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		WireLease lease = this.channels.leaseOf(connection);
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		wentOut(connection);

		assertThat(lease.begin()).isTrue();
		assertThat(blpop.isDone()).isTrue();
		assertThat(exchange(lease, "*1\r\n$4\r\nPING\r\n", "+PONG\r\n")).isEqualTo("+PONG\r\n");
		assertThat(lease.end()).isTrue();
	}

	@Test
	void aReplyArrivingBetweenLeasesIsNeverTakenForAChunksTheConnectionIsClosed(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		WireLease lease = this.channels.leaseOf(connection);
		lease.begin();
		// a reply no lease will wait for: its lease ends before it arrives
		write(lease, "*3\r\n$5\r\nBLPOP\r\n$7\r\nnothing\r\n$3\r\n0.2\r\n");
		assertThat(lease.end()).as("nothing had arrived yet").isTrue();

		await().atMost(Duration.ofSeconds(10)).until(() -> !lease.checkOpen());
		await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
	}

	@Test
	void aClosedConnectionTakesNoWriteAndItsLeaseKnowsItClosed(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		WireLease lease = this.channels.leaseOf(connection);
		channel.close().syncUninterruptibly();

		await().atMost(Duration.ofSeconds(10)).until(lease::isClosed);
		assertThat(lease.begin()).isFalse();
		assertThat(write(lease, "*1\r\n$4\r\nPING\r\n")).isFalse();
		lease.end();
	}

	/**
	 * Wait until the connection's event loop has taken what Lettuce wrote: it runs every
	 * task before this one.
	 */
	private void wentOut(StatefulRedisConnection<byte[], byte[]> connection) {
		this.channels.channelOf(connection).eventLoop().submit(() -> {
		}).syncUninterruptibly();
	}

	private StatefulRedisConnection<byte[], byte[]> connect(RedisProcess server) {
		return this.client.connect(ByteArrayCodec.INSTANCE, RedisURI.create(server.uri()));
	}

	/**
	 * Write a request on a lease and read as many bytes as the expected reply has.
	 */
	private static String exchange(WireLease lease, String request, String expected) {
		Text reply = new Text(expected.length());
		assertThat(write(lease, request)).isTrue();
		lease.written(reply);
		lease.await(reply, System.nanoTime() + TEN_SECONDS);
		return reply.read.toString();
	}

	/**
	 * Write a command on a lease, as a chunk does: the buffer stays the writer's.
	 */
	private static boolean write(WireLease lease, String command) {
		ByteBuf bytes = Unpooled.copiedBuffer(command, StandardCharsets.US_ASCII);
		try {
			boolean written = lease.write(bytes, System.nanoTime() + TEN_SECONDS);
			assertThat(bytes.readableBytes()).as("the writer's buffer keeps its bytes").isEqualTo(command.length());
			return written;
		}
		finally {
			bytes.release();
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Takes a number of bytes as they are, without decoding them.
	 */
	private static final class Text implements ReplyReader {

		private final int length;

		private final StringBuilder read = new StringBuilder();

		Text(int length) {
			this.length = length;
		}

		@Override
		public boolean read(ByteBuf bytes, ReplyDecoder decoder) {
			int taken = Math.min(bytes.readableBytes(), this.length - this.read.length());
			this.read.append(bytes.readCharSequence(taken, StandardCharsets.US_ASCII));
			return isDecoded();
		}

		@Override
		public boolean isDecoded() {
			return this.read.length() >= this.length;
		}

	}

}
