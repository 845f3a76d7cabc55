package dev.redisbatch.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.autobatch.AutoBatchingMetrics;
import dev.redisbatch.autobatch.WriteListener;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AutoBatchingAutoConfiguration}: the switch, the client resources Boot
 * builds and those the application defines, the customizers an application has, the Jedis
 * refusal, the kill switch and the meter, against a real redis-server.
 */
@ExtendWith({ RedisServerExtension.class, OutputCaptureExtension.class })
@EveryLine
class AutoBatchingAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class,
				AutoBatchingAutoConfiguration.class))
		.withUserConfiguration(Counting.class);

	@Test
	void itIsOffByDefault(RedisProcess server) {
		run(server, (context) -> {
			assertThat(context).doesNotHaveBean(AutoBatchingPostProcessor.class);
			assertThat(AutoBatching.isApplied(context.getBean(ClientResources.class))).isFalse();
			context.getBean(StringRedisTemplate.class).opsForValue().set("plain", "yes");
			assertThat(context.getBean(Counting.class).commands).hasValue(0);
		});
	}

	@Test
	void theSwitchPutsItOnTheResourcesBootBuildsWhichKeepTheirType(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true").run((context) -> {
			ClientResources resources = context.getBean(ClientResources.class);
			assertThat(resources).isInstanceOf(DefaultClientResources.class);
			assertThat(AutoBatching.isApplied(resources)).isTrue();
			StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
			assertThat(commandsOf(context, () -> {
				template.opsForValue().set("batched", "yes");
				assertThat(template.opsForValue().get("batched")).isEqualTo("yes");
			})).isEqualTo(2);
		});
	}

	@Test
	void anApplicationsOwnClientResourcesKeepTheirNettyCustomizerAndAreShutDownOnce(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true").withUserConfiguration(OwnClientResources.class)
			.run((context) -> {
				OwnClientResources own = context.getBean(OwnClientResources.class);
				ClientResources resources = context.getBean(ClientResources.class);
				assertThat(resources).isNotSameAs(own.original);
				assertThat(AutoBatching.isApplied(resources)).isTrue();
				assertThat(resources.eventLoopGroupProvider()).isSameAs(own.original.eventLoopGroupProvider());
				assertThat(context.getBean(LettuceConnectionFactory.class).getClientResources()).isSameAs(resources);

				assertThat(commandsOf(context,
						() -> context.getBean(StringRedisTemplate.class).opsForValue().set("own", "resources")))
					.isEqualTo(1);
				assertThat(own.channels).singleElement()
					.satisfies((channel) -> assertThat(channel.pipeline().get("theirs")).isNotNull());
				context.close();
				assertThat(own.original.eventExecutorGroup().isShutdown()).isTrue();
			});
	}

	@Test
	void aBuilderCustomizerThatSetsANettyCustomizerOfItsOwnKeepsItFirst(RedisProcess server) {
		List<Channel> channels = new CopyOnWriteArrayList<>();
		boot().withClientResourcesCustomizer(run(server, "redis.batch.auto-batching.enabled=true"),
				(builder) -> builder.nettyCustomizer(new NettyCustomizer() {

					@Override
					public void afterChannelInitialized(Channel channel) {
						channels.add(channel);
					}

				}))
			.run((context) -> {
				assertThat(AutoBatching.isApplied(context.getBean(ClientResources.class))).isTrue();

				assertThat(commandsOf(context,
						() -> context.getBean(StringRedisTemplate.class).opsForValue().set("customized", "yes")))
					.isEqualTo(1);
				assertThat(channels).hasSize(1);
			});
	}

	@Test
	void aLettuceClientConfigurationBuilderCustomizerStillApplies(RedisProcess server) {
		boot()
			.withLettuceClientCustomizer(run(server, "redis.batch.auto-batching.enabled=true"),
					(builder) -> builder.clientName("auto-batched-app"))
			.run((context) -> {
				assertThat(commandsOf(context,
						() -> context.getBean(StringRedisTemplate.class).opsForValue().set("named", "yes")))
					.isEqualTo(1);
				assertThat(String.valueOf(server.call("CLIENT", "LIST"))).contains("name=auto-batched-app");
			});
	}

	@Test
	void theByteBoundComesFromItsProperty(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true", "redis.batch.auto-batching.max-write-bytes=1KB")
			.run((context) -> {
				StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
				template.opsForValue().set("large", "x".repeat(10_000));
				assertThat(template.opsForValue().get("large")).hasSize(10_000);
			});
	}

	@Test
	void aByteBoundOutOfRangeStopsTheApplicationNamingTheProperty(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true", "redis.batch.auto-batching.max-write-bytes=100B")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("redis.batch.auto-batching.max-write-bytes")
				.hasMessageContaining("1024 (1 KB) to 67108864 (64 MB)"));
	}

	@Test
	void aJedisConnectionFactoryStopsTheApplicationWithOneSentence(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true", "spring.data.redis.client-type=jedis")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("redis.batch.auto-batching.enabled=true needs Lettuce, but the RedisConnectionFactory "
						+ "'redisConnectionFactory' is a JedisConnectionFactory: use Lettuce (the default of "
						+ "spring-boot-starter-data-redis) or remove the property."));
		run(server, "spring.data.redis.client-type=jedis").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("redisConnectionFactory")).isInstanceOf(JedisConnectionFactory.class);
		});
	}

	@Test
	void redisBatchEnabledFalseSwitchesItOff(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true", "redis.batch.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(AutoBatchingPostProcessor.class);
			assertThat(AutoBatching.isApplied(context.getBean(ClientResources.class))).isFalse();
		});
	}

	@Test
	void aConnectionFactoryWithResourcesOfItsOwnIsNamedInAWarning(RedisProcess server, CapturedOutput output) {
		run(server, "redis.batch.auto-batching.enabled=true")
			.withBean("ownFactory", LettuceConnectionFactory.class,
					() -> new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", server.port())))
			.run((context) -> assertThat(output).contains("the LettuceConnectionFactory 'ownFactory' does not use a "
					+ "ClientResources bean: its connections are not auto-batched"));
	}

	@Test
	void withMicrometerEachWriteIsRecordedAsCommandsPerWrite(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true")
			.withConfiguration(AutoConfigurations.of(boot().metricsAutoConfiguration()))
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
				template.hasKey("warm-up");
				DistributionSummary commandsPerWrite = context.getBean(MeterRegistry.class)
					.get(AutoBatchingMetrics.COMMANDS_PER_WRITE)
					.summary();
				long writes = commandsPerWrite.count();
				double commands = commandsPerWrite.totalAmount();

				template.opsForValue().set("metered", "yes");

				assertThat(commandsPerWrite.count()).isEqualTo(writes + 1);
				assertThat(commandsPerWrite.totalAmount()).isEqualTo(commands + 1);
			});
	}

	@Test
	void withoutMicrometerItWorksUnmetered(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true")
			.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AutoBatchingMetrics.class);
				assertThat(commandsOf(context,
						() -> context.getBean(StringRedisTemplate.class).opsForValue().set("unmetered", "yes")))
					.isEqualTo(1);
			});
	}

	@Test
	void redisBatchMetricsEnabledFalseLeavesTheMeterOut(RedisProcess server) {
		run(server, "redis.batch.auto-batching.enabled=true", "redis.batch.metrics.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(AutoBatchingMetrics.class));
	}

	/**
	 * The commands auto-batching wrote while the action ran, after a first command has
	 * opened the shared connection (Lettuce's handshake is written through it too).
	 */
	private static long commandsOf(AssertableApplicationContext context, Runnable action) {
		context.getBean(StringRedisTemplate.class).hasKey("warm-up");
		AtomicLong counted = context.getBean(Counting.class).commands;
		long before = counted.get();
		action.run();
		return counted.get() - before;
	}

	private ApplicationContextRunner run(RedisProcess server, String... properties) {
		return this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withPropertyValues(properties);
	}

	private void run(RedisProcess server, ContextConsumer<AssertableApplicationContext> consumer) {
		run(server, new String[0]).run(consumer);
	}

	/**
	 * A write listener bean: auto-batching tells every one of them of each write.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Counting implements WriteListener {

		final AtomicLong commands = new AtomicLong();

		@Override
		public void written(int commands) {
			this.commands.addAndGet(commands);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClientResources {

		final List<Channel> channels = new CopyOnWriteArrayList<>();

		final DefaultClientResources original = DefaultClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				OwnClientResources.this.channels.add(channel);
				channel.pipeline().addLast("theirs", new io.netty.channel.ChannelDuplexHandler());
			}

		}).build();

		@Bean(destroyMethod = "shutdown")
		ClientResources clientResources() {
			return this.original;
		}

	}

}
