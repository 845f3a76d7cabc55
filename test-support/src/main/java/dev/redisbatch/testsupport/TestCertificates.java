package dev.redisbatch.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and server certificates for TLS tests, made with the
 * JDK's {@code keytool} (so no OpenSSL is needed), written as PEM files that
 * {@code redis-server --tls-*} and Spring Boot's PEM SSL bundles read.
 *
 * @since 0.1.0
 */
public final class TestCertificates {

	private static final String PASSWORD = "changeit";

	private final Path directory;

	private TestCertificates(Path directory) {
		this.directory = directory;
	}

	/**
	 * Create a new certificate authority in a temporary directory.
	 * @param name a name for the authority (its common name)
	 * @return the authority
	 */
	public static TestCertificates authority(String name) {
		try {
			TestCertificates certificates = new TestCertificates(Files.createTempDirectory("tls-" + name + "-"));
			certificates.keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname",
					"CN=" + name, "-ext", "bc:c", "-validity", "2", "-keystore", certificates.file("ca.p12"),
					"-storetype", "PKCS12");
			certificates.keytool("-exportcert", "-alias", "ca", "-rfc", "-keystore", certificates.file("ca.p12"),
					"-file", certificates.file("ca.crt"));
			return certificates;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The authority's certificate (PEM), to trust.
	 * @return the file
	 */
	public Path caCertificate() {
		return this.directory.resolve("ca.crt");
	}

	/**
	 * Issue a server certificate signed by this authority.
	 * @param name a file name prefix
	 * @param subjectAlternativeNames for example {@code "ip:127.0.0.1,dns:localhost"}
	 * @return the certificate (PEM) and its private key (PKCS#8 PEM)
	 */
	public ServerCertificate issue(String name, String subjectAlternativeNames) {
		String keystore = file(name + ".p12");
		keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + name,
				"-validity", "2", "-keystore", keystore, "-storetype", "PKCS12");
		keytool("-certreq", "-alias", name, "-keystore", keystore, "-file", file(name + ".csr"));
		keytool("-gencert", "-alias", "ca", "-keystore", file("ca.p12"), "-infile", file(name + ".csr"), "-outfile",
				file(name + ".crt"), "-ext", "SAN=" + subjectAlternativeNames, "-validity", "2", "-rfc");
		Path key = this.directory.resolve(name + ".key");
		writePrivateKey(Path.of(keystore), name, key);
		return new ServerCertificate(this.directory.resolve(name + ".crt"), key);
	}

	private void writePrivateKey(Path keystore, String alias, Path target) {
		try (InputStream in = Files.newInputStream(keystore)) {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(in, PASSWORD.toCharArray());
			PrivateKey key = (PrivateKey) store.getKey(alias, PASSWORD.toCharArray());
			String pem = "-----BEGIN PRIVATE KEY-----\n"
					+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
						.encodeToString(key.getEncoded())
					+ "\n-----END PRIVATE KEY-----\n";
			Files.writeString(target, pem, StandardCharsets.US_ASCII);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private String file(String name) {
		return this.directory.resolve(name).toString();
	}

	private void keytool(String... args) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(args));
		command.addAll(List.of("-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt"));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			process.getOutputStream().close();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A server certificate and its private key, as PEM files.
	 *
	 * @param certificate the certificate
	 * @param privateKey the private key
	 */
	public record ServerCertificate(Path certificate, Path privateKey) {

	}

}
