package dev.redisbatch.starter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchResults;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.annotation.RedisBatch;
import dev.redisbatch.autobatch.AutoBatching;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TestCertificates;
import dev.redisbatch.testsupport.TestCertificates.ServerCertificate;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An application whose only dependency is this starter, on the Spring Boot line the
 * starter is for: with no redis-batch configuration at all, it gets both templates and
 * they work, and so do {@code @RedisBatch} methods, reactive batches, auto-batching, a
 * cluster and TLS. The starter for Spring Boot 3.5 runs these same tests.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class StarterApplicationTests {

	@Test
	void anApplicationWithOnlyTheStarterGetsBothTemplatesWithNoConfiguration(RedisProcess server) {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.port=" + server.port())) {
			StringBatchTemplate strings = context.getBean(StringBatchTemplate.class);
			String[] objectTemplates = context.getBeanNamesForType(
					ResolvableType.forClassWithGenerics(BatchTemplate.class, Object.class, Object.class));
			assertThat(objectTemplates).contains("batchTemplate");
			assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isZero();

			strings.setAll(Map.of("starter:a", "1", "starter:b", "2"), Duration.ofMinutes(1));

			assertThat(strings.getAll(List.of("starter:a", "starter:b", "starter:c"))).containsExactly("1", "2", null);
			assertThat(server.call("GET", "starter:b")).isEqualTo("2");
		}
	}

	@Test
	void aRedisBatchMethodPipelinesTheApplicationsTemplateCalls(RedisProcess server) {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.port=" + server.port())) {
			Counters counters = context.getBean(Counters.class);

			List<Long> inside = counters.incrementAll(List.of("counter:a", "counter:b", "counter:a"));

			assertThat(inside).as("inside the method, template calls answer null, as in any pipeline")
				.containsOnlyNulls();
			assertThat(server.call("GET", "counter:a")).isEqualTo("2");
			assertThat(server.call("GET", "counter:b")).isEqualTo("1");
			assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isOne();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void aReactiveBatchRunsAFluxOfCommands(RedisProcess server) {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.port=" + server.port())) {
			ReactiveBatchTemplate<String, String> reactive = context.getBean("reactiveStringBatchTemplate",
					ReactiveBatchTemplate.class);

			BatchResults results = reactive
				.execute(Flux.range(0, 500), (batch, i) -> batch.set("reactive:" + i, String.valueOf(i)))
				.block(Duration.ofSeconds(30));

			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(500);
			assertThat(server.call("GET", "reactive:499")).isEqualTo("499");
		}
	}

	@Test
	void autoBatchingCoalescesTheApplicationsOwnConnection(RedisProcess server) {
		try (ConfigurableApplicationContext context = run("--spring.data.redis.port=" + server.port(),
				"--redis.batch.auto-batching.enabled=true")) {
			assertThat(AutoBatching.isApplied(context.getBean(ClientResources.class))).isTrue();

			context.getBean(StringRedisTemplate.class).opsForValue().set("auto-batched", "yes");

			assertThat(server.call("GET", "auto-batched")).isEqualTo("yes");
		}
	}

	@Test
	@ExtendWith(RedisClusterExtension.class)
	void onAClusterEveryMasterGetsItsKeys(RedisCluster cluster) {
		try (ConfigurableApplicationContext context = run(
				"--spring.data.redis.cluster.nodes=" + String.join(",", cluster.hostsAndPorts()))) {
			StringBatchTemplate strings = context.getBean(StringBatchTemplate.class);
			List<String> keys = new ArrayList<>();
			for (int i = 0; i < 300; i++) {
				keys.add("cluster:" + i);
			}

			strings.execute((batch) -> keys.forEach((key) -> batch.set(key, key)));

			assertThat(strings.getAll(keys)).isEqualTo(keys);
			assertThat(context.getBean(BatchConnectionPool.class).getCreatedCount()).isEqualTo(3);
		}
	}

	@Test
	void batchesRunOverTls() {
		assumeTrue(RedisServerBinary.locate().tls(), "the redis-server binary has no TLS support");
		TestCertificates authority = TestCertificates.authority("redis-batch-starter-ca");
		ServerCertificate certificate = authority.issue("loopback", "ip:127.0.0.1,dns:localhost");
		int tlsPort = FreePorts.next();
		try (RedisProcess server = RedisProcess.start("--tls-port", String.valueOf(tlsPort), "--tls-cert-file",
				certificate.certificate().toString(), "--tls-key-file", certificate.privateKey().toString(),
				"--tls-ca-cert-file", authority.caCertificate().toString(), "--tls-auth-clients", "no");
				ConfigurableApplicationContext context = run("--spring.data.redis.port=" + tlsPort,
						"--spring.data.redis.ssl.enabled=true", "--spring.data.redis.ssl.bundle=redis",
						"--spring.ssl.bundle.pem.redis.truststore.certificate=file:" + authority.caCertificate())) {
			context.getBean(StringBatchTemplate.class).setAll(Map.of("over-tls", "yes"), null);

			assertThat(server.call("GET", "over-tls")).isEqualTo("yes");
		}
	}

	@Test
	void theApplicationRunsTheSpringBootLineOfThisStarter() {
		// the same tests run for each starter, on its own line's versions (the
		// compatibility
		// modules check theirs with CompatibilityVersionsTests)
		String line = System.getProperty("starter.spring-boot.line");
		assumeTrue(line != null, "run outside a starter's module");
		assertThat(SpringBootVersion.getVersion()).startsWith(line);
	}

	private static ConfigurableApplicationContext run(String... arguments) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application.run(arguments);
	}

	@SpringBootApplication
	static class Application {

		@Bean
		Counters counters(StringRedisTemplate redisTemplate) {
			return new Counters(redisTemplate);
		}

	}

	/**
	 * A bean whose method pipelines the template calls it makes.
	 */
	public static class Counters {

		private final StringRedisTemplate redisTemplate;

		Counters(StringRedisTemplate redisTemplate) {
			this.redisTemplate = redisTemplate;
		}

		@RedisBatch
		public List<Long> incrementAll(List<String> keys) {
			List<Long> answers = new ArrayList<>();
			for (String key : keys) {
				answers.add(this.redisTemplate.opsForValue().increment(key));
			}
			return answers;
		}

	}

}
