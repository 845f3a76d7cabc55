package dev.redisbatch.annotation;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchResults;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.docs.OrderImporter;
import dev.redisbatch.docs.RedisConfig;
import dev.redisbatch.docs.VisitCounter;
import dev.redisbatch.internals.Compatibility;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * {@link EnableRedisBatch @EnableRedisBatch} in a Spring application without Spring Boot:
 * the configuration of the getting-started guide, a plain
 * {@link AnnotationConfigApplicationContext}, and a real redis-server.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class PlainSpringTests {

	@Test
	void theAnnotatedMethodWritesEveryKeyThroughTheBatchPool(RedisProcess server) {
		run(server, (context) -> {
			Map<Long, String> orders = new LinkedHashMap<>();
			for (long id = 0; id < 2_500; id++) {
				orders.put(id, "{\"id\":" + id + "}");
			}

			context.getBean(OrderImporter.class).importAll(orders);

			assertThat(server.call("DBSIZE")).isEqualTo(2_500L);
			assertThat(server.call("GET", "order:2499")).isEqualTo("{\"id\":2499}");
			assertThat((Long) server.call("TTL", "order:0")).isBetween(3590L, 3600L);
			assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isPositive();
		}, RedisConfig.class, OrderImporter.class);
	}

	@Test
	void aWrongTypeInsideTheMethodSurfacesAsOneBatchExceptionWhileTheRestIsApplied(RedisProcess server) {
		run(server, (context) -> {
			server.call("LPUSH", "views:5", "a list, not a counter");

			BatchException failure = catchThrowableOfType(BatchException.class,
					() -> context.getBean(ViewCounter.class).countViews(10));

			BatchResults results = failure.getResults();
			assertThat(results.size()).isEqualTo(10);
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(9);
			assertThat(results.failures()).singleElement().satisfies((failed) -> {
				assertThat(failed.index()).isEqualTo(5);
				assertThat(failed.command()).isEqualTo("INCR");
				assertThat(failed.message()).startsWith("WRONGTYPE");
			});
			assertThat(server.call("GET", "views:4")).isEqualTo("1");
			assertThat(server.call("GET", "views:6")).isEqualTo("1");
		}, RedisConfig.class, ViewCounter.class);
	}

	@Test
	void anExactlyOnceMethodRunsItsChunksAsScriptsAndLeavesNoMarker(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(VisitCounter.class).countVisits(List.of("home", "home", "cart"));

			assertThat(server.call("GET", "visits:home")).isEqualTo("2");
			assertThat(server.call("GET", "visits:cart")).isEqualTo("1");
			assertThat(String.valueOf(server.call("INFO", "commandstats"))).contains("cmdstat_eval:calls=1,");
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.call("DBSIZE")).isEqualTo(2L));
		}, RedisConfig.class, VisitCounter.class);
	}

	@Test
	void thePostProcessorHasItsConstantNameTheInfrastructureRoleAndTheAnnotationsOrder(RedisProcess server) {
		run(server, (context) -> {
			assertThat(context.getBeansOfType(RedisBatchAnnotationBeanPostProcessor.class))
				.containsOnlyKeys(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME);
			assertThat(context.getBeanDefinition(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME).getRole())
				.isEqualTo(BeanDefinition.ROLE_INFRASTRUCTURE);
			RedisBatchAnnotationBeanPostProcessor postProcessor = context
				.getBean(RedisBatchAnnotationBeanPostProcessor.class);
			assertThat(postProcessor.getOrder()).isEqualTo(42);
			assertThat(postProcessor.isProxyTargetClass()).isTrue();
		}, RedisConfig.class, OrderedAndClassProxies.class);
	}

	@Test
	void aPostProcessorAlreadyRegisteredUnderTheNameIsKept(RedisProcess server) {
		run(server, (context) -> {
			assertThat(context.getBeansOfType(RedisBatchAnnotationBeanPostProcessor.class))
				.containsOnlyKeys(RedisBatchAnnotationBeanPostProcessor.BEAN_NAME);
			assertThat(context.getBean(RedisBatchAnnotationBeanPostProcessor.class).getOrder()).isEqualTo(7);
		}, OwnPostProcessor.class, RedisConfig.class);
	}

	@Test
	void withSeveralTemplatesTheStringBatchTemplateIsUsed(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(OrderImporter.class).importAll(Map.of(1L, "one"));

			assertThat(server.call("GET", "order:1")).isEqualTo("one");
			assertThat(context.getBean("stringPool", BatchConnectionPool.class).getCreatedCount()).isPositive();
			assertThat(context.getBean("objectPool", BatchConnectionPool.class).getCreatedCount()).isZero();
		}, RedisBeans.class, TwoTemplates.class, OrderImporter.class);
	}

	@Test
	void withSeveralTemplatesThePrimaryOneIsUsed(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(OrderImporter.class).importAll(Map.of(1L, "one"));

			assertThat(server.call("GET", "order:1")).isEqualTo("one");
			assertThat(context.getBean("objectPool", BatchConnectionPool.class).getCreatedCount()).isPositive();
			assertThat(context.getBean("stringPool", BatchConnectionPool.class).getCreatedCount()).isZero();
		}, RedisBeans.class, TwoTemplates.class, PrimaryObjectTemplate.class, OrderImporter.class);
	}

	@Test
	void severalTemplatesWithNoWayToChooseFailTheFirstCallWithAMessageNamingThem(RedisProcess server) {
		run(server, (context) -> {
			assertThatIllegalStateException()
				.isThrownBy(() -> context.getBean(OrderImporter.class).importAll(Map.of(1L, "one")))
				.withMessageContaining("[firstTemplate, secondTemplate]")
				.withMessageContaining("@Primary");
			assertThat(server.call("EXISTS", "order:1")).isEqualTo(0L);
		}, RedisBeans.class, TwoObjectTemplates.class, OrderImporter.class);
	}

	@Test
	void noTemplateFailsTheFirstCallWithAMessageSayingWhatToDefine(RedisProcess server) {
		run(server,
				(context) -> assertThatIllegalStateException()
					.isThrownBy(() -> context.getBean(OrderImporter.class).importAll(Map.of(1L, "one")))
					.withMessageContaining("define a StringBatchTemplate bean"),
				RedisBeans.class, OrderImporter.class);
	}

	@Test
	void withoutWhatRecordingReliesOnTheApplicationStopsAtStartupWithOneSentenceNamingTheVersions(RedisProcess server) {
		Throwable failure = catchThrowable(() -> run(server, (context) -> fail("started"), RedisBeans.class,
				RecordingBroken.class, OrderImporter.class));

		assertThat(failure).rootCause()
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("@RedisBatch on " + OrderImporter.class.getName()
					+ ", which records RedisTemplate commands on connections of its own, is checked against "
					+ Compatibility.TESTED + ", and this application has Lettuce " + Compatibility.lettuceVersion()
					+ " and Netty " + Compatibility.nettyVersion()
					+ ", where the constructor StatefulRedisConnectionImpl(4 arguments) is missing: it has no "
					+ "portable equivalent; use a Lettuce of the tested range, or set "
					+ "redis.batch.annotations.enabled=false (without Spring Boot, leave out @EnableRedisBatch) and "
					+ "run the commands through a BatchTemplate");
		assertThat(server.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void whenSpringDataRedisChangedTheSentenceNamesSpringDataRedisAndHowToTurnTheAnnotationsOff(RedisProcess server) {
		Throwable failure = catchThrowable(() -> run(server, (context) -> fail("started"), RedisBeans.class,
				SpringDataRedisRecordingBroken.class, OrderImporter.class));

		assertThat(failure).rootCause()
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("@RedisBatch on " + OrderImporter.class.getName()
					+ ", which records RedisTemplate commands on connections of its own, is checked against "
					+ "Spring Data Redis 3.5 to 4.1, and this application has Spring Data Redis "
					+ StringRedisTemplate.class.getPackage().getImplementationVersion()
					+ ", where the constructor LettuceConnection(4 arguments) is missing: it has no portable "
					+ "equivalent; use a Spring Data Redis of the tested range, or set "
					+ "redis.batch.annotations.enabled=false (without Spring Boot, leave out @EnableRedisBatch) and "
					+ "run the commands through a BatchTemplate")
			.message()
			.doesNotContain(Compatibility.TESTED);
		assertThat(server.call("DBSIZE")).isEqualTo(0L);
	}

	private static void run(RedisProcess server, Consumer<AnnotationConfigApplicationContext> test,
			Class<?>... components) {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("test",
						Map.of("redis.host", server.host(), "redis.port", String.valueOf(server.port()))));
			context.register(components);
			context.refresh();
			test.accept(context);
		}
	}

	static class ViewCounter {

		private final StringRedisTemplate redisTemplate;

		ViewCounter(StringRedisTemplate redisTemplate) {
			this.redisTemplate = redisTemplate;
		}

		@RedisBatch
		public void countViews(int pages) {
			for (int i = 0; i < pages; i++) {
				this.redisTemplate.opsForValue().increment("views:" + i);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableRedisBatch(order = 42, proxyTargetClass = true)
	static class OrderedAndClassProxies {

	}

	/**
	 * A post-processor of the annotation whose template is never asked for.
	 */
	static RedisBatchAnnotationBeanPostProcessor postProcessorWithoutTemplate() {
		return new RedisBatchAnnotationBeanPostProcessor(() -> {
			throw new IllegalStateException("not used");
		}, List::of);
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingBroken {

		@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static RedisBatchAnnotationBeanPostProcessor brokenPostProcessor() {
			RedisBatchAnnotationBeanPostProcessor postProcessor = postProcessorWithoutTemplate();
			postProcessor.recordingChecks(
					() -> List.of("the constructor StatefulRedisConnectionImpl(4 arguments) is missing"), List::of);
			return postProcessor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SpringDataRedisRecordingBroken {

		@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static RedisBatchAnnotationBeanPostProcessor brokenPostProcessor() {
			RedisBatchAnnotationBeanPostProcessor postProcessor = postProcessorWithoutTemplate();
			postProcessor.recordingChecks(List::of,
					() -> List.of("the constructor LettuceConnection(4 arguments) is missing"));
			return postProcessor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPostProcessor {

		@Bean(name = RedisBatchAnnotationBeanPostProcessor.BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static RedisBatchAnnotationBeanPostProcessor ownPostProcessor() {
			RedisBatchAnnotationBeanPostProcessor postProcessor = postProcessorWithoutTemplate();
			postProcessor.setOrder(7);
			return postProcessor;
		}

	}

	/**
	 * A plain Spring application's Redis beans, with {@code @EnableRedisBatch} and no
	 * template.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableRedisBatch
	static class RedisBeans {

		@Bean
		LettuceConnectionFactory redisConnectionFactory(@Value("${redis.host}") String host,
				@Value("${redis.port}") int port) {
			return new LettuceConnectionFactory(host, port);
		}

		@Bean
		StringRedisTemplate stringRedisTemplate(LettuceConnectionFactory redisConnectionFactory) {
			return new StringRedisTemplate(redisConnectionFactory);
		}

	}

	/**
	 * A {@code StringBatchTemplate} and an object template, each on a pool of its own.
	 */
	@Configuration(proxyBeanMethods = false)
	static class TwoTemplates {

		@Bean(destroyMethod = "close")
		BatchConnectionPool stringPool(LettuceConnectionFactory redisConnectionFactory) {
			return BatchConnectionPool.builder(redisConnectionFactory).build();
		}

		@Bean(destroyMethod = "close")
		BatchConnectionPool objectPool(LettuceConnectionFactory redisConnectionFactory) {
			return BatchConnectionPool.builder(redisConnectionFactory).build();
		}

		@Bean
		StringBatchTemplate stringBatchTemplate(BatchConnectionPool stringPool) {
			return new StringBatchTemplate(stringPool);
		}

		@Bean
		BatchTemplate<Object, Object> batchTemplate(BatchConnectionPool objectPool) {
			return objectTemplate(objectPool);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryObjectTemplate {

		@Bean
		@Primary
		BatchTemplate<Object, Object> primaryTemplate(BatchConnectionPool objectPool) {
			return objectTemplate(objectPool);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoObjectTemplates {

		@Bean(destroyMethod = "close")
		BatchConnectionPool pool(LettuceConnectionFactory redisConnectionFactory) {
			return BatchConnectionPool.builder(redisConnectionFactory).build();
		}

		@Bean
		BatchTemplate<Object, Object> firstTemplate(BatchConnectionPool pool) {
			return objectTemplate(pool);
		}

		@Bean
		BatchTemplate<Object, Object> secondTemplate(BatchConnectionPool pool) {
			return objectTemplate(pool);
		}

	}

	private static BatchTemplate<Object, Object> objectTemplate(BatchConnectionPool pool) {
		return BatchTemplate.builder(pool)
			.keySerializer(RedisSerializer.java())
			.valueSerializer(RedisSerializer.java())
			.build();
	}

}
