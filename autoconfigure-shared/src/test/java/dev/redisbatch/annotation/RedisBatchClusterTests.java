package dev.redisbatch.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.autoconfigure.Boot;
import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchException;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.autoconfigure.RedisBatchAutoConfiguration;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A Spring Boot application on Redis Cluster ({@code spring.data.redis.cluster.nodes}):
 * the auto-configured templates route per master, and {@link RedisBatch @RedisBatch}
 * methods pipeline template code there, splitting the multi-key commands that can be
 * split and refusing the others before anything is sent.
 */
@ExtendWith(RedisClusterExtension.class)
@EveryLine
class RedisBatchClusterTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class))
		.withUserConfiguration(Services.class);

	@Test
	void theAutoConfiguredTemplateRunsOnTheCluster(RedisCluster cluster) {
		run(cluster, (context) -> {
			assertThat(context.getBean(BatchConnectionPool.class).topology())
				.isEqualTo(BatchConnectionPool.Topology.CLUSTER);
			StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
			List<String> keys = keys("plain", 1000);

			template.execute((batch) -> keys.forEach((key) -> batch.set(key, "v-" + key)));

			assertThat(template.getAll(keys)).allSatisfy((value) -> assertThat(value).startsWith("v-plain:"));
			assertThat(cluster.masters()).allSatisfy((master) -> assertThat((Long) master.call("DBSIZE")).isPositive());
		});
	}

	@Test
	void anAnnotatedMethodPipelinesTemplateCodeAndSplitsDeleteAcrossSlots(RedisCluster cluster) {
		run(cluster, (context) -> {
			ClusterService service = context.getBean(ClusterService.class);
			List<String> keys = keys("user", 2000);

			service.saveAll(keys);
			assertThat(cluster.call(keys.get(0), "GET", keys.get(0))).isEqualTo("saved");
			assertThat((Long) cluster.call(keys.get(0), "TTL", keys.get(0))).isBetween(3500L, 3600L);

			service.deleteAll(keys.subList(0, 1500));
			for (String key : keys.subList(0, 1500)) {
				assertThat(cluster.call(key, "EXISTS", key)).as(key).isEqualTo(0L);
			}
			assertThat(cluster.call(keys.get(1999), "EXISTS", keys.get(1999))).isEqualTo(1L);
		});
	}

	@Test
	void aMultiKeyWriteAcrossSlotsIsRefusedBeforeSendingWithTheSlotsNamed(RedisCluster cluster) {
		run(cluster, (context) -> {
			ClusterService service = context.getBean(ClusterService.class);

			BatchException failure = catchThrowableOfType(BatchException.class,
					() -> service.renameAcrossSlots("card-number-1", "card-number-2"));

			assertThat(failure.getResults().failures()).singleElement().satisfies((failed) -> {
				assertThat(failed.command()).isEqualTo("RENAME");
				assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
				assertThat(failed.message()).contains("different slots").doesNotContain("card-number");
			});
			for (RedisProcess master : cluster.masters()) {
				assertThat(master.info("commandstats")).doesNotContainKey("cmdstat_rename");
			}
		});
	}

	private void run(RedisCluster cluster, ContextConsumer<AssertableApplicationContext> test) {
		this.contextRunner
			.withPropertyValues("spring.data.redis.cluster.nodes=" + String.join(",", cluster.hostsAndPorts()))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				test.accept(context);
			});
	}

	private static List<String> keys(String prefix, int count) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			keys.add(prefix + ":" + i);
		}
		return keys;
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		ClusterService clusterService(StringRedisTemplate redisTemplate) {
			return new ClusterService(redisTemplate);
		}

	}

	static class ClusterService {

		private final StringRedisTemplate redisTemplate;

		ClusterService(StringRedisTemplate redisTemplate) {
			this.redisTemplate = redisTemplate;
		}

		@RedisBatch
		public void saveAll(List<String> keys) {
			for (String key : keys) {
				this.redisTemplate.opsForValue().set(key, "saved", Duration.ofHours(1));
			}
		}

		@RedisBatch
		public void deleteAll(List<String> keys) {
			this.redisTemplate.delete(keys);
		}

		@RedisBatch
		public void renameAcrossSlots(String from, String to) {
			this.redisTemplate.rename(from, to);
		}

	}

}
