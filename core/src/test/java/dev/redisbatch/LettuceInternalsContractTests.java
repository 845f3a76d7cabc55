package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import dev.redisbatch.testsupport.TestSecrets;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPipeline;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The contract between redis-batch and the insides of Lettuce and Spring Data Redis that
 * {@link LettuceInternals} relies on, checked against the real libraries and a real
 * server. When an upgrade changes one of them, this fails and names it, instead of a
 * batch quietly losing its one-write-per-chunk path or its at-most-once checks.
 */
@ExtendWith(RedisServerExtension.class)
class LettuceInternalsContractTests {

	private static final long TEN_SECONDS = Duration.ofSeconds(10).toNanos();

	private final LettuceInternals.Channels channels = new LettuceInternals.Channels(null);

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
			// endpoint
			// and its channel is not found
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.build());
	}

	@AfterEach
	void tearDown() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void anErrorReplyIsTellableFromALocalFailure(RedisProcess server) throws Exception {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		connection.sync().set(bytes("text"), bytes("not a number"));
		AsyncCommand<byte[], byte[], Long> incr = new AsyncCommand<>(
				new Command<>(CommandType.INCR, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
						new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(bytes("text"))));

		connection.dispatch(incr);
		await().atMost(Duration.ofSeconds(10)).until(incr::isDone);

		assertThat(incr.isCompletedExceptionally()).isTrue();
		Throwable failure = catchThrowable(() -> incr.getNow(null)).getCause();
		assertThat(failure).hasMessageStartingWith("ERR value is not an integer");
		assertThat(LettuceInternals.isErrorReply(failure)).isTrue();
		assertThat(LettuceInternals.isErrorReply(new RedisException("Connection closed"))).isFalse();
	}

	@Test
	void aConnectionClosedDuringItsHandshakeIsTellableFromARefusedOne(RedisProcess server) {
		try (TcpProxy proxy = TcpProxy.start(server.port()).closeOnRequest("HELLO", 1)) {
			Throwable closed = catchThrowable(() -> this.client.connect(ByteArrayCodec.INSTANCE,
					RedisURI.create("redis://127.0.0.1:" + proxy.port())));
			Throwable refused = catchThrowable(() -> this.client.connect(ByteArrayCodec.INSTANCE,
					RedisURI.create("redis://127.0.0.1:" + FreePorts.next())));
			Throwable denied = catchThrowable(() -> this.client.connect(ByteArrayCodec.INSTANCE,
					RedisURI.builder()
						.withHost("127.0.0.1")
						.withPort(server.port())
						.withAuthentication(new StaticCredentialsProvider("nobody", "wrong".toCharArray()))
						.build()));

			assertThat(closed).hasStackTraceContaining(LettuceInternals.CLOSED_IN_HANDSHAKE);
			assertThat(LettuceInternals.handshakeAnswerLost(closed)).isTrue();
			assertThat(LettuceInternals.handshakeAnswerLost(refused)).as("refused: %s", refused).isFalse();
			assertThat(denied).hasStackTraceContaining("WRONGPASS");
			assertThat(LettuceInternals.handshakeAnswerLost(denied)).isFalse();
			assertThat(LettuceInternals
				.handshakeAnswerLost(new IllegalStateException(LettuceInternals.HANDSHAKE_HANDLER_GONE))).isTrue();
		}
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
	void theChannelOfEachConnectionIsKnownAndForgottenWhenItCloses(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);

		Channel channel = this.channels.channelOf(connection);

		assertThat(channel).as("the channel behind a connection, found through its command handler's endpoint")
			.isNotNull();
		assertThat(channel.isActive()).isTrue();
		connection.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.channels.channelOf(connection) == null);
	}

	@Test
	void aConnectionWithoutASocketHandsEveryCommandLettuceBuildsToItsWriter() {
		RecordingWriter writer = new RecordingWriter(this.resources);
		StatefulRedisConnection<byte[], byte[]> connection = LettuceInternals.connectionWritingTo(writer, writer);

		connection.async().set(bytes("key"), bytes("value"));
		connection.async().pexpire(bytes("key"), 1000);

		assertThat(writer.written).extracting(RedisCommand::getType)
			.containsExactly(CommandType.SET, CommandType.PEXPIRE);
		assertThat(writer.written.get(0).getArgs().getFirstEncodedKey())
			.isEqualTo(java.nio.ByteBuffer.wrap(bytes("key")));
	}

	@Test
	void springDataRedisPipelinedConnectionTurnsTemplateCallsIntoCommandsOnTheProvidedConnection() {
		RecordingWriter writer = new RecordingWriter(this.resources);
		StatefulRedisConnection<byte[], byte[]> recording = LettuceInternals.connectionWritingTo(writer, writer);

		LettuceConnection connection = LettuceInternals.pipelinedConnection(new OneConnection(recording), 1000);

		assertThat(connection.isPipelined()).isTrue();
		assertThat(connection.stringCommands().set(bytes("key"), bytes("value"))).isNull();
		assertThat(connection.keyCommands().del(bytes("key"))).isNull();
		assertThat(writer.written).extracting(RedisCommand::getType).containsExactly(CommandType.SET, CommandType.DEL);
	}

	@Test
	void theWireSitsRightBeforeLettucesEncoderWithLettucesCommandHandlerStillInThePipeline(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		List<String> names = this.channels.channelOf(connection).pipeline().names();

		int wire = names.indexOf(Wire.NAME);
		assertThat(wire).as("the batch's handler in %s", names).isPositive();
		ChannelPipeline pipeline = this.channels.channelOf(connection).pipeline();
		assertThat(pipeline.get(names.get(wire + 1))).isInstanceOf(CommandEncoder.class);
		// ConnectionEventTrigger and RedisChannelHandler.isOpen() depend on it
		assertThat(pipeline.get(CommandHandler.class)).isNotNull();
		assertThat(names.indexOf(pipeline.context(CommandHandler.class).name())).isGreaterThan(wire);
	}

	@Test
	void lettucesOwnTrafficPassesThroughTheWireBetweenLeasesAndTheLeaseReadsItsReplies(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		assertThat(connection.sync().ping()).isEqualTo("PONG");

		wire.lease();
		assertThat(write(wire, "*1\r\n$4\r\nPING\r\n")).isTrue();
		StringBuilder received = new StringBuilder();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			wire.awaitBytes(System.nanoTime() + 10_000_000L);
			ByteBuf bytes;
			while ((bytes = wire.poll()) != null) {
				received.append(bytes.toString(StandardCharsets.US_ASCII));
				bytes.release();
			}
			return received.toString().equals("+PONG\r\n");
		});
		assertThat(wire.endLease()).as("nothing left unread").isTrue();

		assertThat(connection.sync().ping()).as("Lettuce reads its replies again").isEqualTo("PONG");
	}

	@Test
	void onAPlaintextConnectionTheLeasesThreadReadsTheSocketAndTheEventLoopStopsReadingIt(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		assertThat(LettuceInternals.callerSocketOf(channel)).as("Netty's NIO channel gives its socket").isNotNull();
		Wire wire = channel.pipeline().get(Wire.class);

		wire.lease();
		assertThat(channel.config().isAutoRead()).as("the event loop reads during a lease").isFalse();
		write(wire, "*1\r\n$4\r\nPING\r\n");
		wire.awaitBytes(System.nanoTime() + TEN_SECONDS);
		ByteBuf reply = wire.poll();
		assertThat(reply).isNotNull();
		assertThat(reply.toString(StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
		reply.release();
		assertThat(wire.endLease()).isTrue();

		assertThat(connection.sync().ping()).as("Lettuce writing between leases reads again").isEqualTo("PONG");
		assertThat(channel.config().isAutoRead()).isTrue();
	}

	@Test
	void aServerClosingAnIdleConnectionThatTheBatchsThreadReadsIsFoundByTheNextCheck(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		wire.lease();
		wire.endLease();
		assertThat(wire.checkOpen()).isTrue();

		server.call("CLIENT", "KILL", "TYPE", "normal");

		await().atMost(Duration.ofSeconds(10)).until(() -> !wire.checkOpen());
		await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
	}

	@Test
	void lettuceWritingOnALeasedConnectionIsHeldUntilTheLeaseEndsAndItsReplyReachesLettuce(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		wire.lease();

		// as a re-authentication on new credentials does
		RedisFuture<String> ping = connection.async().ping();
		wentOut(connection);
		write(wire, "*2\r\n$4\r\nECHO\r\n$7\r\nchunk's\r\n");
		assertThat(readUntil(wire, "$7\r\nchunk's\r\n")).as("only the chunk's reply reached the lease")
			.isEqualTo("$7\r\nchunk's\r\n");
		assertThat(wire.isClosed()).isFalse();
		assertThat(ping.isDone()).as("Lettuce's command was not sent during the lease").isFalse();

		assertThat(wire.endLease()).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(ping::isDone);
		assertThat(ping.toCompletableFuture().join()).isEqualTo("PONG");
		assertThat(connection.isOpen()).isTrue();
	}

	@Test
	void lettucesQueueOfCommandsAwaitingRepliesHoldsACommandUntilItsReply(RedisProcess server) throws Exception {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		wentOut(connection);

		assertThat(channel.eventLoop().submit(() -> LettuceInternals.commandsAwaitingReplies(channel).size()).get())
			.isEqualTo(1);
		blpop.get(10, TimeUnit.SECONDS);
		assertThat(channel.eventLoop().submit(() -> LettuceInternals.commandsAwaitingReplies(channel).isEmpty()).get())
			.isTrue();
	}

	@Test
	void aLeaseStartsOnlyOnceLettucesOwnCommandsHaveTheirReplies(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		// a reply that comes a moment later, as that of a re-authentication between
		// leases
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		wentOut(connection);

		assertThat(wire.checkOpen()).as("the connection is usable once the reply is in").isTrue();
		assertThat(blpop.isDone()).isTrue();
		wire.lease();
		write(wire, "*1\r\n$4\r\nPING\r\n");
		assertThat(readUntil(wire, "+PONG\r\n")).as("Lettuce's reply never reached the lease").isEqualTo("+PONG\r\n");
		assertThat(wire.endLease()).isTrue();
	}

	@Test
	void aLeaseStartedWhileLettuceAwaitsAReplyWaitsForIt(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		wentOut(connection);

		wire.lease();
		assertThat(blpop.isDone()).isTrue();
		write(wire, "*1\r\n$4\r\nPING\r\n");
		assertThat(readUntil(wire, "+PONG\r\n")).isEqualTo("+PONG\r\n");
		assertThat(wire.endLease()).isTrue();
	}

	/**
	 * Wait until the connection's event loop has taken what Lettuce wrote: it runs every
	 * task before this one.
	 */
	private void wentOut(StatefulRedisConnection<byte[], byte[]> connection) {
		this.channels.channelOf(connection).eventLoop().submit(() -> {
		}).syncUninterruptibly();
	}

	/**
	 * What a lease reads until it has read the expected bytes (or more, or its deadline
	 * passed).
	 */
	private static String readUntil(Wire wire, String expected) {
		StringBuilder received = new StringBuilder();
		long deadline = System.nanoTime() + TEN_SECONDS;
		while (received.length() < expected.length() && deadline - System.nanoTime() > 0 && !wire.isClosed()) {
			wire.awaitBytes(deadline);
			ByteBuf bytes;
			while ((bytes = wire.poll()) != null) {
				received.append(bytes.toString(StandardCharsets.US_ASCII));
				bytes.release();
			}
		}
		return received.toString();
	}

	@Test
	void aClosedConnectionTakesNoWriteAndTheWireKnowsItClosed(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		Wire wire = channel.pipeline().get(Wire.class);
		channel.close().syncUninterruptibly();

		await().atMost(Duration.ofSeconds(10)).until(wire::isClosed);
		assertThat(write(wire, "*1\r\n$4\r\nPING\r\n")).isFalse();
	}

	@Test
	void theApplicationsNettyCustomizerRunsFirstOnBatchConnections(RedisProcess server) {
		List<String> seen = new ArrayList<>();
		onPoolOfTheApplicationsResources(server,
				(channel) -> seen.add(String.valueOf(channel.pipeline().get(Wire.class))), (node, connection) -> {
					assertThat(node.wireOf(connection)).isNotNull();
					assertThat(seen).as("the application's customizer ran, before the Wire was added")
						.containsExactly("null");
				});
	}

	@Test
	void anApplicationsHandlerInFrontOfTheBatchsKeepsTheEventLoopsPathSoThatItSeesEveryByte(RedisProcess server) {
		AtomicReference<Channel> opened = new AtomicReference<>();
		onPoolOfTheApplicationsResources(server, (channel) -> {
			channel.pipeline().addFirst("application", new ChannelDuplexHandler());
			opened.set(channel);
		}, (node, connection) -> {
			assertThat(opened.get().pipeline().names()).startsWith("application");
			assertThat(LettuceInternals.callerSocketOf(opened.get())).isNull();
		});
	}

	/**
	 * Check a connection borrowed from a pool built on the application's client
	 * resources, whose Netty customizer runs the given code on each new channel.
	 */
	private static void onPoolOfTheApplicationsResources(RedisProcess server, Consumer<Channel> customizer,
			BiConsumer<NodePool, StatefulConnection<byte[], byte[]>> check) {
		NettyCustomizer application = new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				customizer.accept(channel);
			}
		};
		ClientResources applicationResources = DefaultClientResources.builder().nettyCustomizer(application).build();
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri()))
			.clientResources(applicationResources)
			.build()) {
			NodePool node = pool.server();
			StatefulConnection<byte[], byte[]> connection = node.borrow();
			try {
				check.accept(node, connection);
			}
			finally {
				node.release(connection);
			}
		}
		finally {
			applicationResources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void aReplyArrivingBetweenLeasesIsNeverTakenForAChunksTheConnectionIsClosed(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Wire wire = this.channels.channelOf(connection).pipeline().get(Wire.class);
		wire.lease();
		// a reply no lease will wait for: its lease ends before it arrives
		write(wire, "*3\r\n$5\r\nBLPOP\r\n$7\r\nnothing\r\n$3\r\n0.2\r\n");
		assertThat(wire.endLease()).as("nothing had arrived yet").isTrue();

		await().atMost(Duration.ofSeconds(10)).until(() -> !wire.checkOpen());
		await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
		assertThat(wire.poll()).isNull();
	}

	@Test
	void theBatchPoolsConnectionsHaveTheWireAndNeverReconnectThemselves(RedisProcess server) {
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build()) {
			NodePool node = pool.server();
			StatefulConnection<byte[], byte[]> connection = node.borrow();
			try {
				assertThat(node.wireOf(connection)).isNotNull();
				// a reconnected connection would have a new channel that no lease knows
				assertThat(connection.getOptions().isAutoReconnect()).isFalse();
			}
			finally {
				node.release(connection);
			}
		}
	}

	private StatefulRedisConnection<byte[], byte[]> connect(RedisProcess server) {
		return this.client.connect(ByteArrayCodec.INSTANCE, RedisURI.create(server.uri()));
	}

	private static AsyncCommand<byte[], byte[], String> ping() {
		return new AsyncCommand<>(new Command<>(CommandType.PING, new StatusOutput<>(ByteArrayCodec.INSTANCE)));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A channel writer that keeps what it is given.
	 */
	private static final class RecordingWriter implements RedisChannelWriter, PushHandler {

		private final ClientResources resources;

		private final List<RedisCommand<?, ?, ?>> written = new ArrayList<>();

		RecordingWriter(ClientResources resources) {
			this.resources = resources;
		}

		@Override
		public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
			this.written.add(command);
			return command;
		}

		@Override
		public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
			List<RedisCommand<K, V, ?>> all = new ArrayList<>(commands);
			this.written.addAll(all);
			return all;
		}

		@Override
		public void close() {
		}

		@Override
		public CompletableFuture<Void> closeAsync() {
			return CompletableFuture.completedFuture(null);
		}

		// declared by Lettuce 6.8's RedisChannelWriter, no longer by Lettuce 7's
		public void reset() {
		}

		@Override
		public void setConnectionFacade(ConnectionFacade connection) {
		}

		@Override
		public void setAutoFlushCommands(boolean autoFlush) {
		}

		@Override
		public void flushCommands() {
		}

		@Override
		public ClientResources getClientResources() {
			return this.resources;
		}

		@Override
		public void addListener(PushListener listener) {
		}

		@Override
		public void removeListener(PushListener listener) {
		}

		@Override
		public Collection<PushListener> getPushListeners() {
			return List.of();
		}

	}

	/**
	 * Hands Spring Data Redis one connection.
	 */
	private record OneConnection(
			StatefulRedisConnection<byte[], byte[]> connection) implements LettuceConnectionProvider {

		@Override
		@SuppressWarnings("unchecked")
		public <T extends StatefulConnection<?, ?>> T getConnection(Class<T> connectionType) {
			return (T) this.connection;
		}

		@Override
		public <T extends StatefulConnection<?, ?>> CompletableFuture<T> getConnectionAsync(Class<T> connectionType) {
			return CompletableFuture.completedFuture(getConnection(connectionType));
		}

		@Override
		public void release(StatefulConnection<?, ?> connection) {
		}

	}

	/**
	 * Write a command on a wire, as a lease does: the buffer stays the writer's.
	 */
	private static boolean write(Wire wire, String command) {
		ByteBuf bytes = Unpooled.copiedBuffer(command, StandardCharsets.US_ASCII);
		try {
			boolean written = wire.write(bytes, System.nanoTime() + TEN_SECONDS);
			assertThat(bytes.readableBytes()).as("the writer's buffer keeps its bytes").isEqualTo(command.length());
			return written;
		}
		finally {
			bytes.release();
		}
	}

}
