package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.TestCertificates.ServerCertificate;
import dev.redisbatch.testsupport.TestCertificates;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS of a pool built from a {@link LettuceConnectionFactory}: the factory's peer
 * verification mode and the trust material of its client options apply to batches,
 * against a server whose certificate is issued by a test authority to another host name.
 */
@LeakDetection
@BothPaths
@EveryLine
class PoolFromConnectionFactoryTlsTests {

	private static TestCertificates authority;

	private static RedisProcess server;

	private static int tlsPort;

	private final List<BatchConnectionPool> pools = new ArrayList<>();

	@BeforeAll
	static void startTlsServer() {
		assumeTrue(RedisServerBinary.locate().tls(), "the redis-server binary has no TLS support");
		authority = TestCertificates.authority("redis-batch-factory-ca");
		ServerCertificate elsewhere = authority.issue("elsewhere", "dns:redis.elsewhere.example");
		tlsPort = FreePorts.next();
		server = RedisProcess.start("--tls-port", String.valueOf(tlsPort), "--tls-cert-file",
				elsewhere.certificate().toString(), "--tls-key-file", elsewhere.privateKey().toString(),
				"--tls-ca-cert-file", authority.caCertificate().toString(), "--tls-auth-clients", "no");
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@BeforeEach
	void emptyTheServer() {
		server.call("FLUSHALL");
	}

	@AfterEach
	void closePools() {
		this.pools.forEach(BatchConnectionPool::close);
	}

	@Test
	void fullVerificationChecksTheHostNameAndFailsClosed() {
		StringBatchTemplate template = template(SslVerifyMode.FULL, true);

		assertThatExceptionOfType(BatchException.class)
			.isThrownBy(() -> template.setAll(Map.of("over-tls", "yes"), null))
			.withMessageContaining("no batch connection")
			.havingCause()
			.isInstanceOf(RedisConnectionFailureException.class)
			.withMessageContaining("could be opened: the TLS handshake failed");
		assertThat(server.call("EXISTS", "over-tls")).isEqualTo(0L);
	}

	@Test
	void verifyingTheAuthorityOnlyAcceptsTheCertificateOfATrustedAuthority() {
		template(SslVerifyMode.CA, true).setAll(Map.of("over-tls", "yes"), null);

		assertThat(server.call("GET", "over-tls")).isEqualTo("yes");
	}

	@Test
	void withoutTheTrustMaterialOfTheClientOptionsTheAuthorityIsUnknown() {
		StringBatchTemplate template = template(SslVerifyMode.CA, false);

		assertThatExceptionOfType(BatchException.class)
			.isThrownBy(() -> template.setAll(Map.of("over-tls", "yes"), null))
			.withMessageContaining("no batch connection")
			.havingCause()
			.isInstanceOf(RedisConnectionFailureException.class)
			.withMessageContaining("could be opened: the TLS handshake failed");
		assertThat(server.call("EXISTS", "over-tls")).isEqualTo(0L);
	}

	private StringBatchTemplate template(SslVerifyMode verifyMode, boolean trustTheAuthority) {
		ClientOptions.Builder options = ClientOptions.builder();
		if (trustTheAuthority) {
			options.sslOptions(SslOptions.builder().trustManager(authority.caCertificate().toFile()).build());
		}
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.clientOptions(options.build())
			.useSsl()
			.verifyPeer(verifyMode)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), tlsPort), client);
		BatchConnectionPool pool = BatchConnectionPool.builder(factory).build();
		this.pools.add(pool);
		return new StringBatchTemplate(pool);
	}

}
