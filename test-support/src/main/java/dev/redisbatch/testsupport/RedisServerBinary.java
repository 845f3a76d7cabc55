package dev.redisbatch.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.core.ExecutableProvider;

/**
 * The {@code redis-server} executable to run: the one on {@code PATH}, or else the binary
 * shipped in the {@code com.github.codemonstur:embedded-redis} jar.
 * <p>
 * Set the system property or environment variable {@code REDIS_SERVER} to force a
 * specific executable.
 *
 * @param path the executable
 * @param source where it was found, for log messages
 * @param version the server version, such as {@code 7.0.15}
 * @param tls whether the executable was built with TLS support
 * @since 0.1.0
 */
public record RedisServerBinary(Path path, String source, String version, boolean tls) {

	private static final Logger logger = LoggerFactory.getLogger(RedisServerBinary.class);

	private static final Pattern VERSION = Pattern.compile("v=(\\d+\\.\\d+\\.\\d+)");

	private static volatile @Nullable RedisServerBinary cached;

	/**
	 * Locate the executable once per JVM.
	 * @return the executable
	 * @throws IllegalStateException if none can be found
	 */
	public static RedisServerBinary locate() {
		RedisServerBinary binary = cached;
		if (binary == null) {
			synchronized (RedisServerBinary.class) {
				binary = cached;
				if (binary == null) {
					binary = doLocate();
					cached = binary;
					logger.info("Using redis-server {} from {} ({})", binary.version(), binary.source(), binary.path());
				}
			}
		}
		return binary;
	}

	/**
	 * The major version, such as 7.
	 * @return the major version
	 */
	public int majorVersion() {
		return Integer.parseInt(this.version.substring(0, this.version.indexOf('.')));
	}

	private static RedisServerBinary doLocate() {
		String forced = System.getProperty("REDIS_SERVER", System.getenv("REDIS_SERVER"));
		if (forced != null && !forced.isBlank()) {
			return describe(Path.of(forced), "REDIS_SERVER");
		}
		Path onPath = findOnPath("redis-server");
		if (onPath != null) {
			return describe(onPath, "PATH");
		}
		try {
			File extracted = ExecutableProvider.newJarResourceProvider().get();
			extracted.setExecutable(true);
			return describe(extracted.toPath(), "the embedded-redis jar");
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException(
					"No redis-server found: none on PATH and the embedded-redis jar has no binary for this platform",
					ex);
		}
	}

	private static @Nullable Path findOnPath(String name) {
		String path = System.getenv("PATH");
		if (path == null) {
			return null;
		}
		for (String dir : path.split(File.pathSeparator)) {
			if (dir.isEmpty()) {
				continue;
			}
			Path candidate = Path.of(dir, name);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

	private static RedisServerBinary describe(Path path, String source) {
		String versionOutput = run(path, "--version");
		Matcher matcher = VERSION.matcher(versionOutput);
		String version = matcher.find() ? matcher.group(1) : "0.0.0";
		boolean tls = supportsTls(path);
		return new RedisServerBinary(path.toAbsolutePath(), source, version, tls);
	}

	private static boolean supportsTls(Path path) {
		// A TLS build gets as far as loading the (missing) certificate and says so; a
		// build
		// without TLS rejects the directives while parsing the configuration.
		String output = run(path, "--port", "0", "--tls-port", "65001", "--tls-cert-file", "/nonexistent/cert.pem",
				"--tls-key-file", "/nonexistent/key.pem");
		return output.contains("Failed to configure TLS");
	}

	private static String run(Path path, String... args) {
		List<String> command = new ArrayList<>();
		command.add(path.toString());
		command.addAll(List.of(args));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			process.getOutputStream().close();
			String output;
			try (InputStream in = process.getInputStream()) {
				if (!process.waitFor(10, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
				output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			process.destroyForcibly();
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + path, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + path, ex);
		}
	}

}
