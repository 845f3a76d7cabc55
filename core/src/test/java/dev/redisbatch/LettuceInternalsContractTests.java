package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract between redis-batch and the insides of Lettuce and Spring Data Redis that
 * {@link LettuceInternals} relies on, checked against the real libraries and a real
 * server. When an upgrade changes one of them, this fails and names it, instead of a
 * batch quietly losing its one-write-per-chunk path or its at-most-once checks.
 */
@ExtendWith(RedisServerExtension.class)
class LettuceInternalsContractTests {

	private final LettuceInternals.Channels channels = new LettuceInternals.Channels();

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
	void aClosedConnectionRefusesAWriteAsAWholeWithATextTheEngineRecognises(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		connection.close();
		AsyncCommand<byte[], byte[], String> command = ping();

		connection.dispatch(command);

		assertThat(command.isCompletedExceptionally()).isTrue();
		assertThat(LettuceInternals.refusedWholeWrite(LettuceInternals.failureOf(command)))
			.as("the message Lettuce gives a write to a closed connection: %s", LettuceInternals.failureOf(command))
			.isTrue();
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

		assertThat(LettuceInternals.errorReply(incr)).startsWith("ERR value is not an integer");
		assertThat(LettuceInternals.isErrorReply(LettuceInternals.failureOf(incr))).isTrue();
		assertThat(LettuceInternals.refusedWholeWrite(LettuceInternals.failureOf(incr))).isFalse();
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
	void aListOfCommandsWrittenToTheChannelIsQueuedAndAnsweredInOrder(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		List<AsyncCommand<byte[], byte[], ?>> commands = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			commands
				.add(new AsyncCommand<>(new Command<>(CommandType.RPUSH, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
						new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(bytes("list")).addValue(bytes("v" + i)))));
		}

		assertThat(LettuceInternals.writeToChannel(channel, commands)).isTrue();

		await().atMost(Duration.ofSeconds(10)).until(() -> commands.stream().allMatch(CompletableFuture::isDone));
		for (int i = 0; i < commands.size(); i++) {
			assertThat(commands.get(i).getNow(null)).isEqualTo(i + 1L);
		}
		assertThat(server.call("LINDEX", "list", "99")).isEqualTo("v99");
	}

	@Test
	void aClosedChannelTakesNoWrite(RedisProcess server) {
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.channelOf(connection);
		channel.close().syncUninterruptibly();

		assertThat(LettuceInternals.writeToChannel(channel, List.of(ping()))).isFalse();
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
	void theBatchPoolWritesChunksThroughTheChannelOfItsConnections(RedisProcess server) {
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build()) {
			NodePool node = pool.server();
			StatefulConnection<byte[], byte[]> connection = node.borrow();
			try {
				assertThat(node.channelOf(connection))
					.as("without the channel every chunk goes command by command through Lettuce's dispatch")
					.isNotNull();
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

}
