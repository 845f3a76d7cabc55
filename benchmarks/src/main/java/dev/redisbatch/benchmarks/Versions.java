package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.openjdk.jmh.util.Version;

import org.springframework.boot.SpringBootVersion;
import org.springframework.core.SpringVersion;

/**
 * The versions of every library the benchmarks run, read from the classpath (what really
 * ran, not what a POM asked for).
 */
final class Versions {

	private Versions() {
	}

	/**
	 * Library name to version, in report order.
	 * @return the versions
	 */
	static Map<String, String> libraries() {
		Map<String, String> versions = new LinkedHashMap<>();
		versions.put("redis-batch", own());
		versions.put("Spring Boot", orUnknown(SpringBootVersion.getVersion()));
		versions.put("Spring Framework", orUnknown(SpringVersion.getVersion()));
		versions.put("Spring Data Redis", maven("org.springframework.data", "spring-data-redis"));
		versions.put("Lettuce", maven("io.lettuce", "lettuce-core"));
		versions.put("Netty", maven("io.netty", "netty-common"));
		versions.put("commons-pool2", maven("org.apache.commons", "commons-pool2"));
		versions.put("Jedis", maven("redis.clients", "jedis"));
		versions.put("Redisson", maven("org.redisson", "redisson"));
		versions.put("Spring Batch", maven("org.springframework.batch", "spring-batch-infrastructure"));
		versions.put("JMH", Version.getPlainVersion());
		return versions;
	}

	private static String own() {
		try (InputStream in = Versions.class.getResourceAsStream("/redis-batch-benchmarks.properties")) {
			if (in == null) {
				return "unknown";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("redis-batch.version", "unknown");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String maven(String groupId, String artifactId) {
		String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
		try (InputStream in = Versions.class.getResourceAsStream(resource)) {
			if (in == null) {
				return "unknown";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String orUnknown(String version) {
		return (version != null) ? version : "unknown";
	}

}
