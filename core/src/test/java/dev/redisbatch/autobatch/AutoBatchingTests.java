package dev.redisbatch.autobatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.docs.AutoBatchingConfig;
import dev.redisbatch.internals.CommandEncoding;
import dev.redisbatch.internals.Compatibility;
import dev.redisbatch.testsupport.CapturedOutput;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.OutputCaptureExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Auto-batching on a standalone server, through Spring Data Redis's templates on a
 * {@link LettuceConnectionFactory} as an application has them: order, counts, the writes
 * at low load, the connections the factory dedicates, the client resources it wraps, and
 * that without it nothing changes.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class AutoBatchingTests {

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<ClientResources> resources = new ArrayList<>();

	private final List<Channel> channels = new CopyOnWriteArrayList<>();

	private final CountingListener listener = new CountingListener();

	@AfterEach
	void close() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.resources.forEach((resources) -> resources.shutdown(0, 2, TimeUnit.SECONDS));
	}

	@ParameterizedTest
	@EnumSource(value = ProtocolVersion.class, names = { "RESP2", "RESP3" })
	void concurrentCallersOfAStringRedisTemplateKeepTheirOrderAndEveryCommandPassesOnce(ProtocolVersion protocol,
			RedisProcess server) throws InterruptedException {
		StringRedisTemplate template = new StringRedisTemplate(
				factory(server, autoBatching(), ClientOptions.builder().protocolVersion(protocol).build()));
		template.hasKey("warm-up");
		this.listener.reset();

		long sent = Sequences.run(template, "sequence", 16, 300);

		// the final GETs of Sequences.run are counted too
		assertThat(this.listener.commands()).isEqualTo(sent + 16);
		assertThat(this.listener.largestWrite()).as("some write carried more than one command").isGreaterThan(1);
		assertThat(this.listener.writes()).isLessThan(this.listener.commands());
	}

	@Test
	void concurrentSequencesOfAReactiveTemplateKeepTheirOrder(RedisProcess server) {
		ReactiveStringRedisTemplate template = new ReactiveStringRedisTemplate(
				factory(server, autoBatching(), ClientOptions.create()));
		template.hasKey("warm-up").block();
		this.listener.reset();

		long sent = Sequences.run(template, "reactive", 32, 200);

		assertThat(this.listener.commands()).isEqualTo(sent + 32);
		assertThat(this.listener.largestWrite()).as("some write carried more than one command").isGreaterThan(1);
	}

	@Test
	void aSingleCallerAtLowLoadSendsEveryCommandInAWriteOfItsOwn(RedisProcess server) {
		StringRedisTemplate template = new StringRedisTemplate(factory(server, autoBatching(), ClientOptions.create()));
		template.hasKey("warm-up");
		this.listener.reset();

		for (int i = 0; i < 100; i++) {
			template.opsForValue().set("alone:" + i, "value");
			assertThat(template.opsForValue().get("alone:" + i)).isEqualTo("value");
		}

		assertThat(this.listener.commands()).isEqualTo(200);
		assertThat(this.listener.writes()).isEqualTo(200);
		assertThat(this.listener.largestWrite()).isEqualTo(1);
	}

	@Test
	void aValueLargerThanTheByteBoundLeavesOnItsOwnAndArrivesWhole(RedisProcess server) {
		AutoBatching settings = AutoBatching.builder()
			.maxWriteBytes(AutoBatching.MIN_MAX_WRITE_BYTES)
			.writeListener(this.listener)
			.build();
		StringRedisTemplate template = new StringRedisTemplate(factory(server, settings, ClientOptions.create()));
		String large = "x".repeat(1_000_000);

		template.opsForValue().set("large", large);

		assertThat(template.opsForValue().get("large")).isEqualTo(large);
		assertThat(server.call("STRLEN", "large")).isEqualTo(1_000_000L);
	}

	@Test
	void pipelinesTransactionsBlockingCommandsAndPubSubKeepTheirMeaning(RedisProcess server) throws Exception {
		LettuceConnectionFactory factory = factory(server, autoBatching(), ClientOptions.create());
		StringRedisTemplate template = new StringRedisTemplate(factory);

		List<Object> pipelined = template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (int i = 0; i < 100; i++) {
				connection.stringCommands().incr("pipelined".getBytes());
			}
			return null;
		});
		assertThat(pipelined).hasSize(100).element(99).isEqualTo(100L);

		List<Object> transaction = template.execute(new SessionCallback<>() {

			@Override
			@SuppressWarnings({ "unchecked", "rawtypes" })
			public List<Object> execute(RedisOperations operations) {
				operations.multi();
				operations.opsForValue().increment("in-transaction");
				operations.opsForValue().increment("in-transaction");
				return operations.exec();
			}

		});
		assertThat(transaction).containsExactly(1L, 2L);

		CompletableFuture<String> popped = CompletableFuture
			.supplyAsync(() -> template.opsForList().leftPop("blocking", 10, TimeUnit.SECONDS));
		await().atMost(5, TimeUnit.SECONDS)
			.until(() -> String.valueOf(server.call("CLIENT", "LIST")).contains("cmd=blpop"));
		template.opsForList().rightPush("blocking", "pushed");
		assertThat(popped.get(10, TimeUnit.SECONDS)).isEqualTo("pushed");

		BlockingQueue<String> received = new LinkedBlockingQueue<>();
		var subscription = factory.getConnection();
		subscription.subscribe((message, pattern) -> received.add(new String(message.getBody())), "news".getBytes());
		await().atMost(5, TimeUnit.SECONDS).until(() -> {
			template.convertAndSend("news", "hello");
			return received.poll(100, TimeUnit.MILLISECONDS) != null;
		});
		subscription.close();
	}

	@Test
	void withoutItThePipelineIsLettucesOwn(RedisProcess server) {
		StringRedisTemplate template = new StringRedisTemplate(
				factory(server, recordingChannels(), ClientOptions.create()));

		template.hasKey("connect");

		assertThat(this.channels).isNotEmpty().allSatisfy((channel) -> {
			assertThat(channel.pipeline().get(CallerWrites.NAME)).isNull();
			assertThat(channel.pipeline().get(WriteCoalescer.NAME)).isNull();
		});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void withoutWhatTheCoalescerReliesOnConnectionsStayLettucesOwnAndOneWarningNamesTheVersions(RedisProcess server,
			CapturedOutput output) {
		ClientResources resources = DefaultClientResources.builder()
			.nettyCustomizer(new AutoBatchingNettyCustomizer(null, autoBatching(),
					() -> List.of("RedisCommand.encode() is missing")))
			.build();
		StringRedisTemplate template = new StringRedisTemplate(factory(server, resources, ClientOptions.create()));
		StringRedisTemplate second = new StringRedisTemplate(factory(server, resources, ClientOptions.create()));

		template.opsForValue().set("one", "1");
		second.opsForValue().set("two", "2");

		assertThat(server.call("MGET", "one", "two")).asList().containsExactly("1", "2");
		assertThat(this.listener.writes()).as("no write went through the coalescer").isZero();
		// the customizer's warnings: a garbage-collected object of another test may warn
		// meanwhile, from the finalizer
		assertThat(output.toString()
			.lines()
			.filter((line) -> line.contains("WARN") && line.contains("AutoBatchingNettyCustomizer"))
			.toList()).singleElement()
			.asString()
			.contains("Auto-batching is checked against " + Compatibility.TESTED)
			.contains("this application has Lettuce " + Compatibility.lettuceVersion())
			.contains("where RedisCommand.encode() is missing")
			.contains("left as Lettuce made them");
	}

	@Test
	void withItTheCallersWritesComeFirstAndTheCoalescerRightAfterLettucesEncoder(RedisProcess server) {
		ClientResources resources = autoBatching().clientResources(recordingChannels());
		StringRedisTemplate template = new StringRedisTemplate(factory(server, resources, ClientOptions.create()));

		template.hasKey("connect");

		assertThat(this.channels).isNotEmpty().allSatisfy((channel) -> {
			List<String> names = channel.pipeline().names();
			String encoder = CommandEncoding.encoderOf(channel.pipeline()).name();
			assertThat(names.get(names.indexOf(encoder) + 1)).isEqualTo(WriteCoalescer.NAME);
			assertThat(channel.pipeline().last()).isInstanceOf(CallerWrites.class);
			assertThat(channel.pipeline().get("application")).isNotNull();
		});
	}

	@Test
	void theApplicationsNettyCustomizerRunsFirstOnEveryChannelAndItsBootstrap(RedisProcess server) {
		List<String> calls = Collections.synchronizedList(new ArrayList<>());
		NettyCustomizer application = new NettyCustomizer() {

			@Override
			public void afterBootstrapInitialized(Bootstrap bootstrap) {
				calls.add("bootstrap");
			}

			@Override
			public void afterChannelInitialized(Channel channel) {
				calls.add("channel with " + channel.pipeline().get(CallerWrites.NAME));
			}

		};
		ClientResources resources = track(DefaultClientResources.builder()
			.nettyCustomizer(AutoBatching.builder().writeListener(this.listener).build().nettyCustomizer(application))
			.build());
		StringRedisTemplate template = new StringRedisTemplate(factory(server, resources, ClientOptions.create()));

		template.opsForValue().set("customized", "yes");

		assertThat(calls).containsExactly("bootstrap", "channel with null");
		assertThat(AutoBatching.isApplied(resources)).isTrue();
		assertThat(this.listener.commands()).isPositive();
	}

	@Test
	void wrappedResourcesAreTheSameResourcesAndShuttingThemDownShutsDownTheOriginal() throws Exception {
		DefaultClientResources original = DefaultClientResources.create();
		ClientResources wrapped = AutoBatching.defaults().clientResources(original);

		assertThat(AutoBatching.isApplied(wrapped)).isTrue();
		assertThat(AutoBatching.isApplied(original)).isFalse();
		assertThat(AutoBatching.defaults().clientResources(wrapped)).isSameAs(wrapped);
		assertThat(wrapped.eventLoopGroupProvider()).isSameAs(original.eventLoopGroupProvider());
		assertThat(wrapped.eventExecutorGroup()).isSameAs(original.eventExecutorGroup());
		assertThat(wrapped.timer()).isSameAs(original.timer());
		assertThat(wrapped).isEqualTo(wrapped)
			.isNotEqualTo(original)
			.hasToString("ClientResources with auto-batching: " + original);

		assertThat(wrapped.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(original.eventExecutorGroup().isShutdown()).isTrue();
	}

	@Test
	void resourcesMutatedFromWrappedOnesKeepAutoBatching() {
		DefaultClientResources original = DefaultClientResources.create();
		ClientResources wrapped = AutoBatching.defaults().clientResources(original);
		ClientResources mutated = track(wrapped.mutate().build());
		try {
			assertThat(AutoBatching.isApplied(mutated)).isTrue();
		}
		finally {
			original.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void aCommandThatCannotBeEncodedFailsAndTheConnectionRecoversAsWithoutIt(RedisProcess server) {
		Throwable without = unencodable(server, DefaultClientResources.create());
		Throwable with = unencodable(server, autoBatching().clientResources(DefaultClientResources.create()));

		assertThat(with).isInstanceOf(without.getClass());
		assertThat(with.getCause()).isInstanceOf(without.getCause().getClass());
		assertThat(with).isInstanceOf(EncoderException.class);
	}

	@Test
	void thePlainSpringConfigurationOfTheDocsBatchesItsTemplatesWrites(RedisProcess server) {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("server",
						Map.of("redis.host", server.host(), "redis.port", String.valueOf(server.port()))));
			context.register(AutoBatchingConfig.class);
			context.refresh();
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(AutoBatchingMetrics.class).bindTo(registry);

			context.getBean(StringRedisTemplate.class).opsForValue().set("documented", "yes");

			assertThat(AutoBatching.isApplied(context.getBean(ClientResources.class))).isTrue();
			assertThat(server.call("GET", "documented")).isEqualTo("yes");
			assertThat(registry.get(AutoBatchingMetrics.COMMANDS_PER_WRITE).summary().totalAmount()).isPositive();
		}
	}

	@Test
	void nettyCallsAHandlerOfTheImmediateExecutorOnTheThreadThatWrites(RedisProcess server) {
		// what CallerWrites relies on: Netty hands it a write on the caller's thread,
		// before any task of the event loop
		List<Thread> writers = new CopyOnWriteArrayList<>();
		ClientResources resources = track(DefaultClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline()
					.addLast(ImmediateEventExecutor.INSTANCE, "probe", new ChannelOutboundHandlerAdapter() {

						@Override
						public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
							writers.add(Thread.currentThread());
							ctx.write(msg, promise);
						}

					});
			}

		}).build());
		RedisClient client = RedisClient.create(resources, RedisURI.create(server.host(), server.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			connection.sync().set("probed", "yes");
		}
		finally {
			client.shutdown(0, 2, TimeUnit.SECONDS);
		}
		assertThat(writers).contains(Thread.currentThread());
	}

	@Test
	void theByteBoundIsChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> AutoBatching.builder().maxWriteBytes(1023))
			.withMessageContaining("1024 (1 KB) to 67108864 (64 MB)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> AutoBatching.builder().maxWriteBytes(64 * 1024 * 1024 + 1));
		assertThat(AutoBatching.builder().maxWriteBytes(1024).build().maxWriteBytes()).isEqualTo(1024);
		assertThat(AutoBatching.defaults().maxWriteBytes()).isEqualTo(AutoBatching.DEFAULT_MAX_WRITE_BYTES);
		assertThat(AutoBatching.defaults().writeListener()).isSameAs(WriteListener.NONE);
	}

	/**
	 * SET of a value its codec cannot encode, then a GET on the same connection: the SET
	 * fails as Lettuce fails it, and the connection comes back where Lettuce's does.
	 */
	private Throwable unencodable(RedisProcess server, ClientResources resources) {
		track(resources);
		RedisClient client = RedisClient.create(resources, RedisURI.create(server.host(), server.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect(new Unencodable())) {
			ExecutionException failure = org.assertj.core.api.Assertions.catchThrowableOfType(ExecutionException.class,
					() -> connection.async().set("unencodable", Unencodable.POISON).get(10, TimeUnit.SECONDS));
			if (CommandEncoding.closesOnFailure()) {
				// Lettuce 6.8 and 7.x close the connection, whose state may be out of
				// sync, and it comes back; 6.6 leaves the failed command awaiting the
				// next
				// reply, so the connection serves no more commands, with auto-batching or
				// without
				assertThat(connection.sync().get("unencodable")).isNull();
			}
			return failure.getCause();
		}
		finally {
			client.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	private AutoBatching autoBatching() {
		return AutoBatching.builder().writeListener(this.listener).build();
	}

	private LettuceConnectionFactory factory(RedisProcess server, AutoBatching settings, ClientOptions options) {
		return factory(server, settings.clientResources(recordingChannels()), options);
	}

	private LettuceConnectionFactory factory(RedisProcess server, ClientResources resources, ClientOptions options) {
		track(resources);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().clientResources(resources).clientOptions(options).build());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	/**
	 * Resources whose own Netty customizer notes every channel and adds a handler of the
	 * application's.
	 */
	private ClientResources recordingChannels() {
		return DefaultClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				AutoBatchingTests.this.channels.add(channel);
				channel.pipeline().addLast("application", new ApplicationHandler());
			}

		}).build();
	}

	private <T extends ClientResources> T track(T resources) {
		this.resources.add(resources);
		return resources;
	}

	@ChannelHandler.Sharable
	static final class ApplicationHandler extends ChannelDuplexHandler {

	}

	/**
	 * A string codec that cannot encode one value.
	 */
	static final class Unencodable implements RedisCodec<String, String> {

		static final String POISON = "poison";

		@Override
		public String decodeKey(ByteBuffer bytes) {
			return StringCodec.UTF8.decodeKey(bytes);
		}

		@Override
		public String decodeValue(ByteBuffer bytes) {
			return StringCodec.UTF8.decodeValue(bytes);
		}

		@Override
		public ByteBuffer encodeKey(String key) {
			return StringCodec.UTF8.encodeKey(key);
		}

		@Override
		public ByteBuffer encodeValue(String value) {
			if (POISON.equals(value)) {
				throw new IllegalStateException("this value cannot be encoded");
			}
			return StringCodec.UTF8.encodeValue(value);
		}

	}

}
