package dev.redisbatch.docs;

import java.util.List;

import dev.redisbatch.BatchException;
import dev.redisbatch.BatchResults;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.autoconfigure.RedisBatchAutoConfiguration;
import dev.redisbatch.autoconfigure.RedisBatchObservationAutoConfiguration;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The documentation's examples run, against a real redis-server.
 */
@ExtendWith(RedisServerExtension.class)
class DocumentationExamplesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, DataRedisAutoConfiguration.class,
				RedisBatchAutoConfiguration.class, RedisBatchObservationAutoConfiguration.class))
		.withBean(TestObservationRegistry.class, TestObservationRegistry::create)
		.withBean(OrderCache.class)
		.withBean(AnnotationExamples.class)
		.withUserConfiguration(ObservabilityExamples.class);

	@Test
	void gettingStarted(RedisProcess server) {
		run(server, (context) -> {
			OrderCache cache = context.getBean(OrderCache.class);
			BatchResults results = cache.cacheAll(List.of(new Order(1, "{\"total\":9.5}"), new Order(2, "{}")));
			assertThat(results.isSuccess()).isTrue();
			assertThat(cache.findAll(List.of(1L, 3L, 2L))).containsExactly("{\"total\":9.5}", null, "{}");
			assertThat((Long) server.call("TTL", "order:1")).isPositive();
		});
	}

	@Test
	void apiGuide(RedisProcess server) {
		run(server, (context) -> {
			ApiGuideExamples examples = new ApiGuideExamples(context.getBean(StringBatchTemplate.class));
			server.call("HSET", "user:42", "name", "Ada");
			assertThat(examples.typedResponses()).containsEntry("name", "Ada");
			server.call("SET", "stock:2", "not a number");
			examples.handleFailures();
			assertThat(examples.options(List.of(new Order(7, "{}"))).chunks()).isEqualTo(1);
			assertThat(examples.transactional().size()).isEqualTo(2);
			assertThat(server.call("GET", "account:bob")).isEqualTo("30");
			assertThat(examples.script()).isEqualTo(5L);
			assertThat(examples.retry(List.of(new Order(8, "{}"))).count(dev.redisbatch.Outcome.SUCCESS)).isEqualTo(2);
			assertThat(examples.endEarly(List.of(new Order(9, "{}"), new Order(10, "{}")).iterator()).size())
				.isEqualTo(2);
			assertThat(server.call("GET", "order:10")).isEqualTo("{}");
		});
	}

	@Test
	void aBatchWithNoConnectionTellsAnUnreachableServerFromABusyPool(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + FreePorts.next()).run((context) -> {
			ApiGuideExamples examples = new ApiGuideExamples(context.getBean(StringBatchTemplate.class));
			assertThat(examples.whyNoConnection(List.of(new Order(1, "{}")))).isEqualTo("unreachable");
		});
		run(server, (context) -> {
			ApiGuideExamples examples = new ApiGuideExamples(context.getBean(StringBatchTemplate.class));
			assertThat(examples.whyNoConnection(List.of(new Order(1, "{}")))).isEqualTo("written");
		});
	}

	@Test
	void annotation(RedisProcess server) {
		run(server, (context) -> {
			AnnotationExamples examples = context.getBean(AnnotationExamples.class);
			examples.cacheAll(List.of(new Order(1, "a"), new Order(2, "b")));
			assertThat(server.call("GET", "order:2")).isEqualTo("b");
			assertThat(examples.refreshAndCount(List.of(new Order(3, "c")))).isEqualTo(1L);
			examples.programmatic(List.of(new Order(4, "d")));
			assertThat(server.call("GET", "order:4")).isEqualTo("d");
			server.call("LPUSH", "order:5", "a list");
			assertThatExceptionOfType(BatchException.class).isThrownBy(() -> examples.refreshAndCountFailing());
		});
	}

	@Test
	void observabilityConvention(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(OrderCache.class).cacheAll(List.of(new Order(1, "a")));
			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasObservationWithNameEqualTo("redis.batch")
				.that()
				.hasLowCardinalityKeyValue("team", "orders")
				.hasLowCardinalityKeyValue("outcome", "success");
		});
	}

	private void run(RedisProcess server,
			org.springframework.boot.test.context.runner.ContextConsumer<org.springframework.boot.test.context.assertj.AssertableApplicationContext> test) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run(test);
	}

}
