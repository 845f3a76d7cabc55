package dev.redisbatch.autoconfigure;

import java.util.Map;

import dev.redisbatch.BatchException;
import dev.redisbatch.Outcome;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.TestCertificates.ServerCertificate;
import dev.redisbatch.testsupport.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS with certificates the test generates: batches connect through Spring Boot SSL
 * bundles with hostname verification on, and a certificate that is not trusted or names
 * another host fails closed.
 */
@LeakDetection
@BothPaths
class TlsTests {

	private static TestCertificates authority;

	private static RedisProcess server;

	private static int tlsPort;

	private static RedisProcess otherHostServer;

	private static int otherHostTlsPort;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, boot().redisAutoConfiguration(),
				RedisBatchAutoConfiguration.class));

	@BeforeAll
	static void startTlsServers() {
		assumeTrue(RedisServerBinary.locate().tls(), "the redis-server binary has no TLS support");
		authority = TestCertificates.authority("redis-batch-test-ca");
		ServerCertificate loopback = authority.issue("loopback", "ip:127.0.0.1,dns:localhost");
		tlsPort = FreePorts.next();
		server = startTls(loopback, tlsPort);
		ServerCertificate other = authority.issue("elsewhere", "dns:redis.elsewhere.example");
		otherHostTlsPort = FreePorts.next();
		otherHostServer = startTls(other, otherHostTlsPort);
	}

	private static RedisProcess startTls(ServerCertificate certificate, int port) {
		return RedisProcess.start("--tls-port", String.valueOf(port), "--tls-cert-file",
				certificate.certificate().toString(), "--tls-key-file", certificate.privateKey().toString(),
				"--tls-ca-cert-file", authority.caCertificate().toString(), "--tls-auth-clients", "no");
	}

	@AfterAll
	static void stopServers() {
		if (server != null) {
			server.close();
		}
		if (otherHostServer != null) {
			otherHostServer.close();
		}
	}

	@Test
	void batchesRunOverTlsWithATrustedCertificate() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + tlsPort,
					"spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=redis",
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + authority.caCertificate())
			.run((context) -> {
				StringBatchTemplate template = context.getBean(StringBatchTemplate.class);
				template.setAll(Map.of("over-tls", "yes"), null);
				assertThat(server.call("GET", "over-tls")).isEqualTo("yes");
				assertThat(server.info("stats").get("total_connections_received")).isNotNull();
			});
	}

	@Test
	void aCertificateThatIsNotTrustedFailsClosed() {
		TestCertificates stranger = TestCertificates.authority("someone-else");
		this.contextRunner
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + tlsPort,
					"spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=redis",
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + stranger.caCertificate())
			.run((context) -> {
				assertThatExceptionOfType(BatchException.class)
					.isThrownBy(() -> context.getBean(StringBatchTemplate.class).setAll(Map.of("k", "v"), null))
					.satisfies((ex) -> assertThat(ex.getResults().count(Outcome.NOT_SENT)).isEqualTo(1))
					.withMessageContaining("no batch connection");
				assertThat(server.call("EXISTS", "k")).isEqualTo(0L);
			});
	}

	@Test
	void hostnameVerificationStaysOn() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + otherHostTlsPort,
					"spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=redis",
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + authority.caCertificate())
			.run((context) -> assertThatExceptionOfType(BatchException.class)
				.isThrownBy(() -> context.getBean(StringBatchTemplate.class).setAll(Map.of("k", "v"), null))
				.withMessageContaining("no batch connection"));
		assertThat(otherHostServer.call("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void aRedissUrlUsesTheJdkTrustStoreAndRefusesAnUnknownAuthority() {
		this.contextRunner.withPropertyValues("spring.data.redis.url=rediss://127.0.0.1:" + tlsPort)
			.run((context) -> assertThatExceptionOfType(BatchException.class)
				.isThrownBy(() -> context.getBean(StringBatchTemplate.class).setAll(Map.of("k", "v"), null))
				.withMessageContaining("no batch connection"));
	}

}
