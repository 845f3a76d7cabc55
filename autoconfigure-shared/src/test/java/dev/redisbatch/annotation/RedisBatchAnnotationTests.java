package dev.redisbatch.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.autoconfigure.Boot;
import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.autoconfigure.RedisBatchAutoConfiguration;
import dev.redisbatch.autoconfigure.RedisBatchObservationAutoConfiguration;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link RedisBatch @RedisBatch} on existing {@code RedisTemplate} code, against a real
 * redis-server.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchAnnotationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class))
		.withUserConfiguration(Services.class);

	@Test
	void anAnnotatedLoopOfTemplateSetsWritesEveryKeyWithItsTtl(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(OrderService.class).saveAll(10_000);

			assertThat(server.call("DBSIZE")).isEqualTo(10_000L);
			assertThat(server.call("GET", "order:9999")).isEqualTo("json-9999");
			assertThat((Long) server.call("TTL", "order:0")).isBetween(3590L, 3600L);
		});
	}

	@Test
	void theMethodRunsInOneBatchWhoseChunksTheMetricsReport(RedisProcess server) {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(boot().observationAutoConfiguration(),
					boot().metricsAutoConfiguration(), RedisBatchObservationAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("spring.data.redis.port=" + server.port())
			.run((context) -> {
				context.getBean(OrderService.class).saveAll(10_000);

				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("redis.batch").timer().count()).isEqualTo(1);
				// ten chunks of 1,000, after the three smaller first ones (8, 16 and 32
				// KB)
				assertThat(meters.get("redis.batch.chunks").counter().count()).isEqualTo(13);
				assertThat(meters.get("redis.batch.size").summary().totalAmount()).isEqualTo(10_000);
			});
	}

	@Test
	void aFailedMethodReportsItsChunksInTheResults(RedisProcess server) {
		run(server, (context) -> {
			server.call("LPUSH", "order:2500", "a list");

			BatchException failure = catchThrowableOfType(BatchException.class,
					() -> context.getBean(OrderService.class).incrementAllInChunksOf100(2_550));

			assertThat(failure.getResults().chunks()).isEqualTo(26);
			assertThat(failure.getResults().size()).isEqualTo(2_550);
		});
	}

	@Test
	void theLoopTakesOneRoundTripPerChunkInsteadOfOnePerCommand(RedisProcess server) {
		try (TcpProxy proxy = TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(10))) {
			this.contextRunner.withPropertyValues("spring.data.redis.port=" + proxy.port()).run((context) -> {
				OrderService orders = context.getBean(OrderService.class);
				orders.saveAll(1);
				orders.saveAllUnbatched(1);

				long before = proxy.clientReads();
				orders.saveAll(10_000);
				long batchedWrites = proxy.clientReads() - before;

				before = proxy.clientReads();
				orders.saveAllUnbatched(200);
				long unbatchedWrites = proxy.clientReads() - before;

				// 10,000 commands in chunks of 1,000: about ten writes, two chunks in
				// flight, so about five round trips at 10 ms. Without the annotation
				// every command is a round trip: 10,000 would take 100 s here.
				assertThat(batchedWrites).isBetween(10L, 40L);
				assertThat(unbatchedWrites).isEqualTo(200);
				assertThat(server.call("DBSIZE")).isEqualTo(10_200L);
			});
		}
	}

	@Test
	void aWrongTypeInTheMiddleGivesOneExceptionNamingIndexAndCommandWhileTheRestIsApplied(RedisProcess server) {
		run(server, (context) -> {
			server.call("LPUSH", "order:5", "a list, not a string");

			BatchException failure = catchThrowableOfType(BatchException.class,
					() -> context.getBean(OrderService.class).incrementAll(10));

			BatchResults results = failure.getResults();
			assertThat(results.size()).isEqualTo(10);
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(9);
			assertThat(results.failures()).singleElement().satisfies((f) -> {
				assertThat(f.index()).isEqualTo(5);
				assertThat(f.command()).isEqualTo("INCR");
				assertThat(f.message()).startsWith("WRONGTYPE");
			});
			assertThat(server.call("GET", "order:4")).isEqualTo("1");
			assertThat(server.call("GET", "order:6")).isEqualTo("1");
		});
	}

	@Test
	void nestedAnnotatedMethodsAndBatchTemplateCallsJoinOneBatch(RedisProcess server) {
		run(server, (context) -> {
			server.call("LPUSH", "inner:1", "wrong type");

			BatchException failure = catchThrowableOfType(BatchException.class,
					() -> context.getBean(OuterService.class).outerWithInner());

			// 3 outer SETs + 2 inner INCRs, one of them WRONGTYPE: a single batch of 5
			BatchResults results = failure.getResults();
			assertThat(results.size()).isEqualTo(5);
			assertThat(results.count(Outcome.FAILED)).isEqualTo(1);
			assertThat(results.failures().get(0).index()).isEqualTo(4);
			assertThat(server.call("GET", "outer:3")).isEqualTo("x");
		});
	}

	@Test
	void templateReadsReturnNullInsideWhileBatchTemplateResponsesAreComplete(RedisProcess server) {
		run(server, (context) -> {
			server.call("SET", "greeting", "hello");

			List<Object> seen = context.getBean(OrderService.class).readBothWays();

			assertThat(seen).containsExactly(null, "hello");
		});
	}

	@Test
	void whenTheMethodThrowsItsExceptionWinsWithTheBatchOutcomeSuppressed(RedisProcess server) {
		run(server, (context) -> {
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> context.getBean(OrderService.class).writeThenThrow())
				.withMessage("business rule violated")
				.satisfies((ex) -> {
					assertThat(ex.getSuppressed()).singleElement().isInstanceOf(BatchException.class);
					BatchResults results = ((BatchException) ex.getSuppressed()[0]).getResults();
					assertThat(results.size()).isEqualTo(3);
					assertThat(results.count(Outcome.NOT_SENT)).isEqualTo(3);
				});
			assertThat(server.call("DBSIZE")).isEqualTo(0L);
		});
	}

	@Test
	void blockingCommandsAndMultiFailWithAnExplanation(RedisProcess server) {
		run(server, (context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThatExceptionOfType(InvalidDataAccessApiUsageException.class).isThrownBy(orders::blockingPop)
				.withMessageContaining("BLPOP cannot run in a batch")
				.withMessageContaining("@RedisBatch");
			assertThatExceptionOfType(InvalidDataAccessApiUsageException.class).isThrownBy(orders::startTransaction)
				.withMessageContaining("MULTI cannot run in a batch")
				.withMessageContaining("transactional option");
		});
	}

	@Test
	void selfInvocationIsNotBatched(RedisProcess server) {
		run(server, (context) -> {
			server.call("SET", "greeting", "hello");

			assertThat(context.getBean(OrderService.class).readThroughSelfInvocation()).isEqualTo("hello");
		});
	}

	@Test
	void theAnnotationIsInertWhenDisabled(RedisProcess server) {
		this.contextRunner
			.withPropertyValues("spring.data.redis.port=" + server.port(), "redis.batch.annotations.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME);
				OrderService orders = context.getBean(OrderService.class);
				assertThat(AopUtils.isAopProxy(orders)).isFalse();
				server.call("SET", "greeting", "hello");
				assertThat(orders.readBothWays().get(0)).isEqualTo("hello");
			});
	}

	@Test
	void aBootApplicationThatAlsoCarriesEnableRedisBatchHasOnePostProcessorAndItBatches(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withUserConfiguration(AlsoEnabledByAnnotation.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisBatchAnnotationBeanPostProcessor.class);
				// the one of @EnableRedisBatch: the auto-configuration backed off by name
				assertThat(context.getBean(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME, Ordered.class).getOrder())
					.isEqualTo(42);

				context.getBean(OrderService.class).saveAll(2_000);

				assertThat(server.call("DBSIZE")).isEqualTo(2_000L);
				assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isPositive();
			});
	}

	@Test
	void invalidAttributesStopTheApplicationAtStartup(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withUserConfiguration(InvalidService.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("Invalid @RedisBatch on "
						+ Invalid.class.getName() + ".broken: " + "chunkSize must be between 1 and 1000000 but was 0");
			});
	}

	private void run(RedisProcess server,
			org.springframework.boot.test.context.runner.ContextConsumer<org.springframework.boot.test.context.assertj.AssertableApplicationContext> test) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run(test);
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		OrderService orderService(StringRedisTemplate redis, StringBatchTemplate batchTemplate) {
			return new OrderService(redis, batchTemplate);
		}

		@Bean
		InnerService innerService(StringRedisTemplate redis) {
			return new InnerService(redis);
		}

		@Bean
		OuterService outerService(StringRedisTemplate redis, InnerService inner) {
			return new OuterService(redis, inner);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableRedisBatch(order = 42)
	static class AlsoEnabledByAnnotation {

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidService {

		@Bean
		Invalid invalid() {
			return new Invalid();
		}

	}

	static class Invalid {

		@RedisBatch(chunkSize = 0)
		public void broken() {
		}

	}

	static class OrderService {

		private final StringRedisTemplate redis;

		private final StringBatchTemplate batchTemplate;

		OrderService(StringRedisTemplate redis, StringBatchTemplate batchTemplate) {
			this.redis = redis;
			this.batchTemplate = batchTemplate;
		}

		@RedisBatch(chunkSize = 1000)
		public void saveAll(int count) {
			for (int i = 0; i < count; i++) {
				this.redis.opsForValue().set("order:" + i, "json-" + i, Duration.ofHours(1));
			}
		}

		public void saveAllUnbatched(int count) {
			for (int i = 0; i < count; i++) {
				this.redis.opsForValue().set("plain:" + i, "json-" + i, Duration.ofHours(1));
			}
		}

		@RedisBatch
		public void incrementAll(int count) {
			for (int i = 0; i < count; i++) {
				this.redis.opsForValue().increment("order:" + i);
			}
		}

		@RedisBatch(chunkSize = 100)
		public void incrementAllInChunksOf100(int count) {
			for (int i = 0; i < count; i++) {
				this.redis.opsForValue().increment("order:" + i);
			}
		}

		@RedisBatch
		public List<Object> readBothWays() {
			List<Object> seen = new ArrayList<>();
			seen.add(this.redis.opsForValue().get("greeting"));
			Response<String>[] response = new Response[1];
			this.batchTemplate.execute((batch) -> response[0] = batch.get("greeting"));
			seen.add(response[0].get());
			return seen;
		}

		@RedisBatch
		public void writeThenThrow() {
			for (int i = 0; i < 3; i++) {
				this.redis.opsForValue().set("never:" + i, "x");
			}
			throw new IllegalStateException("business rule violated");
		}

		@RedisBatch
		public void blockingPop() {
			this.redis.opsForList().leftPop("queue", Duration.ofSeconds(1));
		}

		@RedisBatch
		public void startTransaction() {
			this.redis.multi();
		}

		public String readThroughSelfInvocation() {
			return (String) readBothWays().get(0);
		}

	}

	static class InnerService {

		private final StringRedisTemplate redis;

		InnerService(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@RedisBatch(name = "inner")
		public void increments() {
			this.redis.opsForValue().increment("inner:0");
			this.redis.opsForValue().increment("inner:1");
		}

	}

	static class OuterService {

		private final StringRedisTemplate redis;

		private final InnerService inner;

		OuterService(StringRedisTemplate redis, InnerService inner) {
			this.redis = redis;
			this.inner = inner;
		}

		@RedisBatch(name = "outer")
		public void outerWithInner() {
			this.redis.opsForValue().set("outer:1", "x");
			this.redis.opsForValue().set("outer:2", "x");
			this.redis.opsForValue().set("outer:3", "x");
			this.inner.increments();
		}

	}

}
