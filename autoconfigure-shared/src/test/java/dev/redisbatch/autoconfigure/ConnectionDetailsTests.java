package dev.redisbatch.autoconfigure;

import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TestSecrets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.RedisConnectionFailureException;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The batch pool connects the way Spring Boot's Redis connection details say: host and
 * port, URL, password, ACL user, database, client name, and connection details beans such
 * as those {@code @ServiceConnection} and Docker Compose provide.
 */
@EveryLine
class ConnectionDetailsTests {

	private static final String BATCHER_PASSWORD = TestSecrets.PASSWORD + "-batcher";

	private static RedisProcess server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class));

	@BeforeAll
	static void startServer() {
		server = RedisProcess.start("--requirepass", TestSecrets.PASSWORD);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@BeforeEach
	void reset() {
		admin("FLUSHALL");
		admin("ACL", "SETUSER", "batcher", "reset", "on", ">" + BATCHER_PASSWORD, "~*", "+@all");
	}

	@Test
	void hostPortAndPasswordProperties() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + server.port(),
					"spring.data.redis.password=" + TestSecrets.PASSWORD)
			.run((context) -> {
				context.getBean(StringBatchTemplate.class).setAll(Map.of("a", "1"), null);
				assertThat(admin("GET", "a")).isEqualTo("1");
			});
	}

	@Test
	void anAclUserAndADatabaseFromAUrl() {
		this.contextRunner
			.withPropertyValues(
					"spring.data.redis.url=redis://batcher:" + BATCHER_PASSWORD + "@127.0.0.1:" + server.port() + "/3")
			.run((context) -> {
				context.getBean(StringBatchTemplate.class).setAll(Map.of("in-db-3", "yes"), null);
				assertThat(adminInDatabase(3, "GET", "in-db-3")).isEqualTo("yes");
				assertThat(admin("EXISTS", "in-db-3")).isEqualTo(0L);
				assertThat(String.valueOf(admin("CLIENT", "LIST"))).contains("name=redis-batch")
					.contains("user=batcher");
			});
	}

	@Test
	void theClientNameIsTheApplicationsWithABatchSuffix() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.port=" + server.port(),
					"spring.data.redis.password=" + TestSecrets.PASSWORD, "spring.data.redis.client-name=orders")
			.run((context) -> {
				context.getBean(StringBatchTemplate.class).getAll(List.of("x"));
				assertThat(String.valueOf(admin("CLIENT", "LIST"))).contains("name=orders-batch");
			});
	}

	@Test
	void aConnectionDetailsBeanIsUsedAsServiceConnectionsProvideIt() {
		boot().withConnectionDetails(this.contextRunner, "127.0.0.1", server.port(), "batcher", BATCHER_PASSWORD)
			.run((context) -> {
				context.getBean(StringBatchTemplate.class).setAll(Map.of("from-details", "ok"), null);
				assertThat(admin("GET", "from-details")).isEqualTo("ok");
			});
	}

	@Test
	void aWrongPasswordFailsFastWithAClearError() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.port=" + server.port(),
					"spring.data.redis.password=" + TestSecrets.PASSWORD + "-wrong")
			.run((context) -> {
				StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
				assertThatExceptionOfType(dev.redisbatch.BatchException.class)
					.isThrownBy(() -> template.setAll(Map.of("a", "1"), null))
					.withMessageContaining("1 NOT_SENT")
					.withMessageContaining("no batch connection")
					.withCauseInstanceOf(RedisConnectionFailureException.class)
					.withMessageNotContaining(TestSecrets.MARKER);
				assertThat(context.getBean(BatchConnectionPool.class).getActive()).isZero();
			});
	}

	private static Object admin(String... command) {
		return adminInDatabase(0, command);
	}

	private static Object adminInDatabase(int database, String... command) {
		try (var connection = dev.redisbatch.testsupport.RespConnection.open(server.port(),
				java.time.Duration.ofSeconds(5))) {
			connection.call("AUTH", TestSecrets.PASSWORD);
			connection.call("SELECT", String.valueOf(database));
			return connection.call(command);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
