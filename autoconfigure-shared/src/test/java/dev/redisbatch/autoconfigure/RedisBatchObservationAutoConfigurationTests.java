package dev.redisbatch.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchPoolExhaustedException;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.observation.BatchObservationContext;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One {@code redis.batch} observation per batch and the batch and pool meters, against a
 * real redis-server.
 */
@ExtendWith({ RedisServerExtension.class, OutputCaptureExtension.class })
@EveryLine
class RedisBatchObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().observationAutoConfiguration(),
				boot().metricsAutoConfiguration(), boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class,
				RedisBatchObservationAutoConfiguration.class))
		.withUserConfiguration(Registries.class);

	@Test
	void aSuccessfulBatchRecordsAnObservationAndTheExactMeters(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(StringBatchTemplate.class)
				.execute(BatchOptions.builder().chunkSize(100).name("import").build(), (batch) -> {
					for (int i = 0; i < 250; i++) {
						batch.set("k" + i, "v", Duration.ofMinutes(1));
					}
				});

			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasObservationWithNameEqualTo("redis.batch")
				.that()
				.hasContextualNameEqualTo("redis batch import")
				.hasLowCardinalityKeyValue("name", "import")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasLowCardinalityKeyValue("mode", "pipeline")
				.hasLowCardinalityKeyValue("topology", "standalone")
				.hasLowCardinalityKeyValue("path", "caller")
				.hasHighCardinalityKeyValue("redis.batch.size", "250")
				.hasHighCardinalityKeyValue("redis.batch.chunks", "3")
				.hasBeenStopped();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("redis.batch")
				.tags("name", "import", "outcome", "success", "mode", "pipeline", "topology", "standalone", "path",
						"caller")
				.timer()
				.count()).isEqualTo(1);
			assertThat(
					meters.get("redis.batch.commands").tags("name", "import", "outcome", "success").counter().count())
				.isEqualTo(250);
			assertThat(meters.get("redis.batch.commands").tags("name", "import", "outcome", "failed").counter().count())
				.isZero();
			assertThat(meters.get("redis.batch.size").tags("name", "import").summary().totalAmount()).isEqualTo(250);
			assertThat(meters.get("redis.batch.chunks").tags("name", "import").counter().count()).isEqualTo(3);
			assertThat(meters.get("redis.batch.chunk.duration").tags("name", "import").timer().count()).isEqualTo(3);
			assertThat(meters.get("redis.batch.pool.idle").gauge().value()).isEqualTo(1);
			assertThat(meters.get("redis.batch.pool.active").gauge().value()).isZero();
		});
	}

	@Test
	void withTheFastPathOffBatchesTakeThePortablePathAsTheirPathTagSaysWithoutAWarning(RedisProcess server,
			CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("spring.data.redis.port=" + server.port(), "redis.batch.fast-path.enabled=false")
			.run((context) -> {
				context.getBean(StringBatchTemplate.class)
					.execute(BatchOptions.builder().chunkSize(100).name("import").build(), (batch) -> {
						for (int i = 0; i < 250; i++) {
							batch.set("k" + i, "v");
						}
					});

				assertThat(server.call("GET", "k249")).isEqualTo("v");
				assertThat(context.getBean(MeterRegistry.class)
					.get("redis.batch")
					.tags("name", "import", "outcome", "success", "path", "portable")
					.timer()
					.count()).isEqualTo(1);
				assertThat(output).doesNotContain("WARN");
			});
	}

	@Test
	void aBatchWithWrongTypeFailuresIsPartial(RedisProcess server) {
		run(server, (context) -> {
			server.call("LPUSH", "list", "x");
			assertThatExceptionOfType(BatchException.class)
				.isThrownBy(() -> context.getBean(StringBatchTemplate.class).execute((batch) -> {
					batch.incr("counter");
					batch.incr("list");
				}));

			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasObservationWithNameEqualTo("redis.batch")
				.that()
				.hasLowCardinalityKeyValue("outcome", "partial")
				.hasLowCardinalityKeyValue("name", "default");
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("redis.batch.commands").tags("outcome", "success").counter().count()).isEqualTo(1);
			assertThat(meters.get("redis.batch.commands").tags("outcome", "failed").counter().count()).isEqualTo(1);
		});
	}

	@Test
	void aTransactionalBatchIsTaggedTransaction(RedisProcess server) {
		run(server, (context) -> {
			context.getBean(StringBatchTemplate.class)
				.execute(BatchOptions.builder().transactional(true).build(), (batch) -> batch.incr("counter"));

			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasObservationWithNameEqualTo("redis.batch")
				.that()
				.hasLowCardinalityKeyValue("mode", "transaction")
				.hasLowCardinalityKeyValue("outcome", "success");
			assertThat(
					context.getBean(MeterRegistry.class).get("redis.batch").tags("mode", "transaction").timer().count())
				.isEqualTo(1);
		});
	}

	@Test
	void anExhaustedPoolIsCountedAndItsBatchIsAFailure(RedisProcess server) {
		try (TcpProxy proxy = TcpProxy.start(server.port())) {
			this.contextRunner
				.withPropertyValues("spring.data.redis.port=" + proxy.port(), "redis.batch.pool.max-active=1",
						"redis.batch.pool.max-idle=1", "redis.batch.pool.max-wait=200ms", "redis.batch.timeout=5s")
				.run((context) -> {
					StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
					template.execute((batch) -> batch.get("warm-up"));
					// Hold the only connection: a batch whose replies never come back.
					proxy.dropRepliesAfter(0);
					CompletableFuture<Void> holder = CompletableFuture
						.runAsync(() -> template.execute((batch) -> batch.get("held")));
					BatchConnectionPool pool = context.getBean(BatchConnectionPool.class);
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActive() == 1);

					assertThatExceptionOfType(BatchException.class)
						.isThrownBy(() -> template.execute((batch) -> batch.set("a", "b")))
						.withCauseInstanceOf(BatchPoolExhaustedException.class)
						.withMessageContaining("1 NOT_SENT");

					proxy.closeConnections();
					holder.handle((ok, ex) -> null).get(10, TimeUnit.SECONDS);
					MeterRegistry meters = context.getBean(MeterRegistry.class);
					assertThat(meters.get("redis.batch.pool.exhausted").functionCounter().count()).isEqualTo(1);
					assertThat(meters.get("redis.batch.commands").tags("outcome", "not_sent").counter().count())
						.isEqualTo(1);
					// the exhausted batch had no connection (path none), the held one had
					assertThat(meters.get("redis.batch").tags("outcome", "failure", "path", "none").timer().count())
						.isEqualTo(1);
					assertThat(meters.get("redis.batch").tags("outcome", "failure", "path", "caller").timer().count())
						.isEqualTo(1);
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActive() == 0);
				});
		}
	}

	@Test
	void tenThousandBatchesOverDistinctKeysDoNotAddMeters(RedisProcess server) {
		run(server, (context) -> {
			StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			template.execute((batch) -> batch.set("key:first", "v"));
			int meterCount = meters.getMeters().size();

			for (int i = 0; i < 10_000; i++) {
				int n = i;
				template.execute((batch) -> batch.set("key:" + n, "value-" + n));
			}

			assertThat(meters.getMeters()).hasSize(meterCount);
			assertThat(meters.get("redis.batch.commands").tags("outcome", "success").counter().count())
				.isEqualTo(10_001);
			assertThat(meters.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
				.noneSatisfy((tag) -> assertThat(tag.getValue()).startsWith("key:")));
		});
	}

	@Test
	void theBatchLogsADebugLineWithCountsAndNoKeys(RedisProcess server, CapturedOutput output) {
		run(server, (context) -> {
			context.getBean(StringBatchTemplate.class).setAll(Map.of("secret-key-1", "secret-value-1"), null);

			assertThat(output)
				.contains("Batch 'default' ended: 1 SUCCESS, 0 FAILED, 0 UNKNOWN, 0 NOT_SENT of 1 commands")
				.doesNotContain("secret-key-1")
				.doesNotContain("secret-value-1");
		});
	}

	@Test
	void metricsCanBeSwitchedOff(RedisProcess server) {
		this.contextRunner
			.withPropertyValues("spring.data.redis.port=" + server.port(), "redis.batch.metrics.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(BatchConnectionPoolMetrics.class);
				context.getBean(StringBatchTemplate.class).setAll(Map.of("a", "1"), null);
				assertThat(context.getBean(MeterRegistry.class).find("redis.batch.commands").counter()).isNull();
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.doesNotHaveAnyObservation();
			});
	}

	@Test
	void theStarterWorksWithoutMicrometer(RedisProcess server) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class,
					RedisBatchObservationAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class, ObservationRegistry.class))
			.withPropertyValues("spring.data.redis.port=" + server.port())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(BatchConnectionPoolMetrics.class);
				assertThat(context).doesNotHaveBean("redisBatchObservationCustomizer");
				context.getBean(StringBatchTemplate.class).setAll(Map.of("a", "1"), null);
				assertThat(server.call("GET", "a")).isEqualTo("1");
			});
	}

	@Test
	void aCustomConventionReplacesTheDefault(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withUserConfiguration(CustomConvention.class)
			.run((context) -> {
				context.getBean(StringBatchTemplate.class).setAll(Map.of("a", "1"), null);
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.hasObservationWithNameEqualTo("team.batches")
					.that()
					.hasLowCardinalityKeyValue("team", "orders");
			});
	}

	private void run(RedisProcess server,
			org.springframework.boot.test.context.runner.ContextConsumer<org.springframework.boot.test.context.assertj.AssertableApplicationContext> test,
			Class<?>... configurations) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port())
			.withUserConfiguration(configurations)
			.run(test);
	}

	@Configuration(proxyBeanMethods = false)
	static class Registries {

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomConvention {

		@Bean
		dev.redisbatch.observation.BatchObservationConvention teamConvention() {
			return new dev.redisbatch.observation.BatchObservationConvention() {

				@Override
				public String getName() {
					return "team.batches";
				}

				@Override
				public io.micrometer.common.KeyValues getLowCardinalityKeyValues(BatchObservationContext context) {
					return io.micrometer.common.KeyValues.of("team", "orders");
				}

			};
		}

	}

}
