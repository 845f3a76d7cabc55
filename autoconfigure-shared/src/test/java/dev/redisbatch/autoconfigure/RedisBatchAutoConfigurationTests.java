package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.Map;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisClient;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link RedisBatchAutoConfiguration}.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class));

	@Test
	void bothTemplatesAreAvailableWithNoConfiguration() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(StringBatchTemplate.class);
			assertThat(context).hasSingleBean(BatchConnectionPool.class);
			assertThat(context).hasBean("stringBatchTemplate");
			assertThat(context).hasBean("batchTemplate");
			assertThat(context.getBean("batchTemplate")).isInstanceOf(BatchTemplate.class)
				.isNotInstanceOf(StringBatchTemplate.class);
			assertThat(context.getBean(StringBatchTemplate.class).getDefaultOptions()).isEqualTo(BatchOptions.builder()
				.chunkSize(BatchTemplate.DEFAULT_CHUNK_SIZE)
				.maxInFlightBytes(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES)
				.maxInFlightCommands(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS)
				.timeout(BatchTemplate.DEFAULT_TIMEOUT)
				.transactional(false)
				.name(BatchOptions.DEFAULT_NAME)
				.maxChunkBytes(BatchTemplate.DEFAULT_MAX_CHUNK_BYTES)
				.retry(0, Duration.ZERO)
				.maxCommandsPerSecond(BatchTemplate.DEFAULT_MAX_COMMANDS_PER_SECOND)
				.maxBytesPerSecond(BatchTemplate.DEFAULT_MAX_BYTES_PER_SECOND)
				.build());
		});
	}

	@Test
	void theTemplatesWorkAgainstTheConfiguredServer(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run((context) -> {
			StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
			template.setAll(Map.of("greeting", "hello"), Duration.ofMinutes(1));
			assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get("greeting")).isEqualTo("hello");
			assertThat(template.getAll(java.util.List.of("greeting", "missing"))).containsExactly("hello", null);
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theObjectTemplateUsesTheSerializersOfTheRedisTemplateBean(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withUserConfiguration(CustomRedisTemplateConfiguration.class)
			.run((context) -> {
				BatchTemplate<Object, Object> batchTemplate = context.getBean("batchTemplate", BatchTemplate.class);
				RedisTemplate<Object, Object> redisTemplate = context.getBean("redisTemplate", RedisTemplate.class);
				StringRedisTemplate raw = context.getBean(StringRedisTemplate.class);
				batchTemplate.setAll(Map.of("order:1", "ada"), null);
				assertThat(raw.opsForValue().get("order:1")).isEqualTo("v1:ada");
				assertThat(redisTemplate.opsForValue().get("order:1")).isEqualTo("ada");
				redisTemplate.opsForValue().set("order:2", "grace");
				assertThat(batchTemplate.getAll(java.util.List.of("order:2"))).containsExactly("grace");
			});
	}

	@Test
	void theBatchPoolIsSeparateAndTheApplicationConnectionFactoryIsUntouched() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RedisConnectionFactory.class);
			assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(LettuceConnectionFactory.class);
			assertThat(context).getBean("redisConnectionFactory")
				.isSameAs(context.getBean(RedisConnectionFactory.class));
		});
	}

	@Test
	void propertiesSetTheDefaultsAndThePool() {
		this.contextRunner.withPropertyValues("redis.batch.chunk-size=250", "redis.batch.max-in-flight-bytes=2MB",
				"redis.batch.max-in-flight-commands=5000", "redis.batch.timeout=2s", "redis.batch.transactional=true",
				"redis.batch.pool.max-active=12", "redis.batch.pool.max-idle=6", "redis.batch.pool.min-idle=1",
				"redis.batch.pool.max-wait=750ms", "redis.batch.max-chunk-bytes=64KB")
			.run((context) -> {
				BatchOptions options = context.getBean(StringBatchTemplate.class).getDefaultOptions();
				assertThat(options.chunkSize()).isEqualTo(250);
				assertThat(options.maxInFlightBytes()).isEqualTo(2 * 1024 * 1024);
				assertThat(options.maxInFlightCommands()).isEqualTo(5000);
				assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(2));
				assertThat(options.transactional()).isTrue();
				assertThat(options.maxChunkBytes()).isEqualTo(64 * 1024);
				assertThat(context.getBean(BatchConnectionPool.class).getMaxActive()).isEqualTo(12);
			});
	}

	@Test
	void anUnconvertibleValueStopsTheApplication() {
		this.contextRunner.withPropertyValues("redis.batch.transactional=maybe").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("maybe");
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theReactiveTemplatesRunOnTheBlockingTemplatesAndWorkAgainstTheServer(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run((context) -> {
			ReactiveBatchTemplate<String, String> reactive = context.getBean("reactiveStringBatchTemplate",
					ReactiveBatchTemplate.class);
			assertThat(reactive.getBatchTemplate()).isSameAs(context.getBean(StringBatchTemplate.class));
			assertThat(context.getBean("reactiveBatchTemplate", ReactiveBatchTemplate.class).getBatchTemplate())
				.isSameAs(context.getBean("batchTemplate"));
			reactive.setAll(Flux.just(Map.entry("reactive", "yes")), null).block(Duration.ofSeconds(30));
			assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get("reactive")).isEqualTo("yes");
		});
	}

	@Test
	void theReactiveTemplatesBackOffWithoutReactor() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Flux.class)).run((context) -> {
			assertThat(context).doesNotHaveBean(ReactiveBatchTemplate.class);
			assertThat(context).hasSingleBean(StringBatchTemplate.class);
		});
	}

	@Test
	void theUsersBeansWin() {
		this.contextRunner.withUserConfiguration(UserBeansConfiguration.class).run((context) -> {
			assertThat(context.getBean(StringBatchTemplate.class)).isSameAs(UserBeansConfiguration.STRING_TEMPLATE);
			assertThat(context.getBean("batchTemplate")).isSameAs(UserBeansConfiguration.OBJECT_TEMPLATE);
			assertThat(context.getBean(BatchConnectionPool.class)).isSameAs(UserBeansConfiguration.POOL);
			assertThat(context.getBean("reactiveStringBatchTemplate"))
				.isSameAs(UserBeansConfiguration.REACTIVE_TEMPLATE);
			assertThat(context.getBean("reactiveBatchTemplate", ReactiveBatchTemplate.class).getBatchTemplate())
				.isSameAs(UserBeansConfiguration.OBJECT_TEMPLATE);
		});
	}

	@Test
	void itCanBeSwitchedOff() {
		this.contextRunner.withPropertyValues("redis.batch.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(BatchConnectionPool.class);
			assertThat(context).doesNotHaveBean(StringBatchTemplate.class);
			assertThat(context).doesNotHaveBean("batchTemplate");
			assertThat(context).doesNotHaveBean(ReactiveBatchTemplate.class);
			assertThat(context).hasSingleBean(StringRedisTemplate.class);
		});
	}

	@Test
	void itBacksOffWithoutLettuce() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(RedisClient.class)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(BatchConnectionPool.class);
			assertThat(context).doesNotHaveBean(StringBatchTemplate.class);
		});
	}

	@Test
	void itBacksOffWithoutCommonsPool() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(GenericObjectPool.class)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(BatchConnectionPool.class);
		});
	}

	@Test
	void staticMasterReplicaIsRejectedWithAClearMessage() {
		assumeTrue(boot().generation() >= 4, "Spring Boot 3.5 has no static master/replica setup");
		this.contextRunner.withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:1,127.0.0.1:2")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("does not support static master/replica");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomRedisTemplateConfiguration {

		@Bean
		RedisTemplate<Object, Object> redisTemplate(RedisConnectionFactory connectionFactory) {
			RedisTemplate<Object, Object> template = new RedisTemplate<>();
			template.setConnectionFactory(connectionFactory);
			template.setKeySerializer(RedisSerializer.string());
			template.setValueSerializer(new VersionedSerializer());
			return template;
		}

	}

	/**
	 * Writes values as {@code v1:<text>}, so the stored bytes show which serializer wrote
	 * them.
	 */
	static class VersionedSerializer implements RedisSerializer<Object> {

		@Override
		public byte[] serialize(Object value) {
			return ("v1:" + value).getBytes(java.nio.charset.StandardCharsets.UTF_8);
		}

		@Override
		public Object deserialize(byte[] bytes) {
			return (bytes != null) ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8).substring(3) : null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeansConfiguration {

		static final BatchConnectionPool POOL = BatchConnectionPool
			.builder(io.lettuce.core.RedisURI.create("redis://127.0.0.1:1"))
			.build();

		static final StringBatchTemplate STRING_TEMPLATE = new StringBatchTemplate(POOL);

		static final BatchTemplate<Object, Object> OBJECT_TEMPLATE = new BatchTemplate<>(POOL, RedisSerializer.java(),
				RedisSerializer.java());

		static final ReactiveBatchTemplate<String, String> REACTIVE_TEMPLATE = new ReactiveBatchTemplate<>(
				STRING_TEMPLATE);

		@Bean
		BatchConnectionPool myPool() {
			return POOL;
		}

		@Bean
		StringBatchTemplate myStringBatchTemplate() {
			return STRING_TEMPLATE;
		}

		@Bean
		BatchTemplate<Object, Object> batchTemplate() {
			return OBJECT_TEMPLATE;
		}

		@Bean
		ReactiveBatchTemplate<String, String> reactiveStringBatchTemplate() {
			return REACTIVE_TEMPLATE;
		}

	}

}
