package dev.redisbatch.internals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The contract between redis-batch and the insides of Lettuce, Netty and Spring Data
 * Redis that its fence relies on, checked against the libraries on the classpath and a
 * real server. When an upgrade changes one of them, this fails and names it, and
 * {@link Compatibility} must find the same change, so that batches take the portable path
 * instead of failing.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class LettuceContractTests {

	private static final String HANDLER = "contract-handler";

	/**
	 * The channels of the client's connections, by the key the fence knows them by.
	 */
	private final Map<Object, Channel> channels = new ConcurrentHashMap<>();

	private final List<Channel> refusedLayouts = new ArrayList<>();

	private ClientResources resources;

	private RedisClient client;

	private void start(boolean timeoutCommands, NettyCustomizer first) {
		NettyCustomizer installing = new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				first.afterChannelInitialized(channel);
				Object key = LettucePipeline.install(channel, HANDLER, new ChannelDuplexHandler());
				if (key != null) {
					LettuceContractTests.this.channels.put(key, channel);
				}
				else {
					LettuceContractTests.this.refusedLayouts.add(channel);
				}
			}
		};
		this.resources = DefaultClientResources.builder().nettyCustomizer(installing).build();
		this.client = RedisClient.create(this.resources);
		this.client.setOptions(ClientOptions.builder()
			.autoReconnect(false)
			.timeoutOptions(timeoutCommands ? TimeoutOptions.enabled(Duration.ofSeconds(30))
					: TimeoutOptions.builder().timeoutCommands(false).build())
			.build());
	}

	private void start() {
		start(false, new NettyCustomizer() {
		});
	}

	@AfterEach
	void tearDown() {
		if (this.client != null) {
			this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void everyCheckHoldsOnTheLibrariesOfThisBuild() {
		assertThat(Compatibility.fastPathMismatches()).isEmpty();
		assertThat(Compatibility.callerIoMismatches()).isEmpty();
		assertThat(Compatibility.recordingMismatches()).isEmpty();
		assertThat(Compatibility.springDataRedisRecordingMismatches()).isEmpty();
		assertThat(Compatibility.foundSpringDataRedis()).matches("Spring Data Redis \\d+\\.\\d+\\.\\d+.*");
		assertThat(Compatibility.autoBatchingMismatches()).isEmpty();
		assertThat(SpringDataRedisInternals.canReadConfiguration()).isTrue();
		assertThat(Compatibility.lettuceVersion()).as("as Lettuce's jar names it").matches("\\d+\\.\\d+\\.\\d+.*");
		assertThat(Compatibility.nettyVersion()).matches("4\\.\\d+\\.\\d+.*");
	}

	@Test
	void aMismatchIsDescribedInOneSentenceThatNamesTheVersionsFoundAndTested() {
		String sentence = Compatibility.describe("The fast path of batch connections to 127.0.0.1:6379",
				List.of("CommandHandler.getStack() is missing"), "batches take the portable path");

		assertThat(sentence)
			.startsWith("The fast path of batch connections to 127.0.0.1:6379 is checked against "
					+ Compatibility.TESTED + ", and this application has Lettuce " + Compatibility.lettuceVersion()
					+ " and Netty " + Compatibility.nettyVersion() + ", where CommandHandler.getStack() is missing: ")
			.endsWith("batches take the portable path");
	}

	@Test
	void anErrorReplyIsTellableFromALocalFailure(RedisProcess server) {
		start();
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
		assertThat(LettuceErrors.isErrorReply(failure)).isTrue();
		assertThat(LettuceErrors.isErrorReply(new RedisException("Connection closed"))).isFalse();
	}

	@Test
	void aConnectionClosedDuringItsHandshakeIsTellableFromARefusedOne(RedisProcess server) {
		start();
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

			assertThat(closed).hasStackTraceContaining(LettuceErrors.CLOSED_IN_HANDSHAKE);
			assertThat(LettuceErrors.handshakeAnswerLost(closed)).isTrue();
			assertThat(LettuceErrors.handshakeAnswerLost(refused)).as("refused: %s", refused).isFalse();
			assertThat(denied).hasStackTraceContaining("WRONGPASS");
			assertThat(LettuceErrors.handshakeAnswerLost(denied)).isFalse();
			assertThat(
					LettuceErrors.handshakeAnswerLost(new IllegalStateException(LettuceErrors.HANDSHAKE_HANDLER_GONE)))
				.isTrue();
		}
	}

	@Test
	void aHandlerGoesRightBeforeLettucesEncoderWithLettucesCommandHandlerAfterIt(RedisProcess server) {
		start();
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.get(LettucePipeline.keyOf(connection));
		assertThat(channel).as("the channel behind a connection, known by its command handler's endpoint").isNotNull();
		ChannelPipeline pipeline = channel.pipeline();
		List<String> names = pipeline.names();

		int handler = names.indexOf(HANDLER);
		assertThat(handler).as("the handler in %s", names).isPositive();
		assertThat(pipeline.get(names.get(handler + 1))).isInstanceOf(CommandEncoder.class);
		// ConnectionEventTrigger and RedisChannelHandler.isOpen() depend on it
		assertThat(names.indexOf(pipeline.context(CommandHandler.class).name())).isGreaterThan(handler);
		assertThat(LettucePipeline.onlyLettuceBefore(pipeline, pipeline.get(HANDLER))).isTrue();
		assertThat(connection.sync().ping()).isEqualTo("PONG");
	}

	@Test
	void withCommandTimeoutsLettucesOwnWriterHidesTheEndpointAndTheConnectionIsNotKnown(RedisProcess server) {
		start(true, new NettyCustomizer() {
		});
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);

		assertThat(this.channels).as("the handler was put on the channel").hasSize(1);
		assertThat(this.channels.get(LettucePipeline.keyOf(connection)))
			.as("the connection's channel writer is Lettuce's timeout writer, not the endpoint")
			.isNull();
	}

	@Test
	void anApplicationsHandlerInFrontIsSeenAndAPipelineWithoutLettucesEncoderIsRefused(RedisProcess server) {
		start(false, new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline().addFirst("application", new ChannelDuplexHandler());
				if (LettuceContractTests.this.channels.size() == 1) {
					// the second connection: as if Lettuce laid its pipeline out
					// otherwise
					channel.pipeline().remove(CommandEncoder.class);
				}
			}
		});
		StatefulRedisConnection<byte[], byte[]> first = connect(server);
		Channel channel = this.channels.get(LettucePipeline.keyOf(first));
		assertThat(LettucePipeline.onlyLettuceBefore(channel.pipeline(), channel.pipeline().get(HANDLER))).isFalse();

		catchThrowable(() -> connect(server));
		assertThat(this.refusedLayouts).hasSize(1);
		assertThat(this.refusedLayouts.get(0).pipeline().get(HANDLER)).as("nothing was put").isNull();
	}

	@Test
	void lettucesQueueOfCommandsAwaitingRepliesHoldsACommandUntilItsReply(RedisProcess server) throws Exception {
		start();
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.get(LettucePipeline.keyOf(connection));
		RedisFuture<?> blpop = connection.async().blpop(0.3, bytes("nothing"));
		channel.eventLoop().submit(() -> {
		}).syncUninterruptibly();

		assertThat(channel.eventLoop().submit(() -> LettucePipeline.commandsAwaitingReplies(channel).size()).get())
			.isEqualTo(1);
		blpop.get(10, TimeUnit.SECONDS);
		assertThat(channel.eventLoop().submit(() -> LettucePipeline.commandsAwaitingReplies(channel).isEmpty()).get())
			.isTrue();
	}

	@Test
	void aPlaintextNioChannelGivesItsSocket(RedisProcess server) {
		start();
		StatefulRedisConnection<byte[], byte[]> connection = connect(server);
		Channel channel = this.channels.get(LettucePipeline.keyOf(connection));

		assertThat(NioSockets.available()).isTrue();
		assertThat(NioSockets.socketOf(channel)).as("Netty's NIO channel gives its socket").isNotNull();
		assertThat(NioSockets.socketOf(new EmbeddedChannel())).isNull();
	}

	@Test
	void lettucesDecoderKeepsAReplyReadInPartUntilItsNextBytesCome() {
		ReplyDecoder decoder = new ReplyDecoder();
		StatusOutput<byte[], byte[]> output = new StatusOutput<>(ByteArrayCodec.INSTANCE);
		ByteBuf bytes = Unpooled.copiedBuffer("+PO", StandardCharsets.US_ASCII);
		try {
			assertThat(decoder.decode(bytes, output, (failure) -> {
			})).isFalse();
			bytes.writeCharSequence("NG\r\n", StandardCharsets.US_ASCII);
			assertThat(decoder.decode(bytes, output, (failure) -> {
			})).isTrue();
			assertThat(output.get()).isEqualTo("PONG");
		}
		finally {
			bytes.release();
		}
	}

	@Test
	void aConnectionWithoutASocketHandsEveryCommandLettuceBuildsToItsSink() {
		start();
		List<RedisCommand<byte[], byte[], ?>> written = new ArrayList<>();
		StatefulRedisConnection<byte[], byte[]> connection = RecordingConnections.connectionWritingTo(written::add,
				this.resources);

		connection.async().set(bytes("key"), bytes("value"));
		connection.async().pexpire(bytes("key"), 1000);

		assertThat(written).extracting(RedisCommand::getType).containsExactly(CommandType.SET, CommandType.PEXPIRE);
		assertThat(written.get(0).getArgs().getFirstEncodedKey()).isEqualTo(ByteBuffer.wrap(bytes("key")));
	}

	@Test
	void springDataRedisPipelinedConnectionTurnsTemplateCallsIntoCommandsOnTheProvidedConnection() {
		start();
		List<RedisCommand<byte[], byte[], ?>> written = new ArrayList<>();
		StatefulRedisConnection<byte[], byte[]> recording = RecordingConnections.connectionWritingTo(written::add,
				this.resources);

		LettuceConnection connection = SpringDataRedisInternals.pipelinedConnection(new OneConnection(recording), 1000);

		assertThat(connection.isPipelined()).isTrue();
		assertThat(connection.stringCommands().set(bytes("key"), bytes("value"))).isNull();
		assertThat(connection.keyCommands().del(bytes("key"))).isNull();
		assertThat(written).extracting(RedisCommand::getType).containsExactly(CommandType.SET, CommandType.DEL);
	}

	@Test
	void aConnectionFactorysActiveConfigurationIsRead() {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration("127.0.0.1", 7001);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);

		assertThat(SpringDataRedisInternals.configurationOf(factory)).isSameAs(configuration);
	}

	private StatefulRedisConnection<byte[], byte[]> connect(RedisProcess server) {
		return this.client.connect(ByteArrayCodec.INSTANCE, RedisURI.create(server.uri()));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
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
