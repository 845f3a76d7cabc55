package dev.redisbatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With {@code spring.threads.virtual.enabled=true}, thousands of virtual threads may call
 * the template at once. {@link VirtualThreadsMain} runs a thousand of them against a pool
 * of eight batch connections in a JVM of its own, on a JDK 21 or newer (found by
 * {@link NewerJdk}; the build itself stays on Java 17), with JFR recording every
 * {@code jdk.VirtualThreadPinned} event. Skipped where no JDK 21+ is found.
 */
@ExtendWith(RedisServerExtension.class)
@VersionIndependent
class VirtualThreadsTests {

	private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void aThousandVirtualThreadsShareEightConnectionsAndNoCarrierIsPinned(RedisProcess server)
			throws IOException, InterruptedException {
		NewerJdk.Search search = NewerJdk.find(21);
		NewerJdk.Jdk jdk = search.jdk();
		assumeTrue(jdk != null, () -> "no JDK 21+ found: " + search.reason());
		String output = run(jdk, server);

		// the recording sees pinning when there is some
		assertThat(line(output, "CONTROL").get("pinned")).as(output).isNotEqualTo("0");
		Map<String, String> events = line(output, "EVENTS");
		assertThat(events.get("pinned")).as("pinned carriers (PINNED-AT lines show where)\n" + output).isEqualTo("0");
		assertThat(events.get("submitFailed")).isEqualTo("0");
		for (String phase : new String[] { "latency", "stall" }) {
			Map<String, String> result = line(output, "PHASE name=" + phase);
			int success = Integer.parseInt(result.get("success"));
			int exhausted = Integer.parseInt(result.get("exhausted"));
			assertThat(result.get("virtual")).as(phase).isEqualTo(String.valueOf(VirtualThreadsMain.CALLS));
			assertThat(result.get("other"))
				.as("calls that failed otherwise than with the pool's error in %s\n%s", phase, output)
				.isEqualTo("0");
			assertThat(success + exhausted).as(phase).isEqualTo(VirtualThreadsMain.CALLS);
			assertThat(result.get("running")).as("calls still running long after the pool's max-wait in " + phase)
				.isEqualTo("0");
			// every batch that succeeded was applied once; the ones refused sent nothing
			assertThat(result.get("applied")).as(phase).isEqualTo(String.valueOf(success));
			assertThat(result.get("exhaustedCount")).as(phase).isEqualTo(String.valueOf(exhausted));
			// the pool's connections were open before; none was opened or lost
			assertThat(result.get("created")).as(phase).isEqualTo(String.valueOf(VirtualThreadsMain.POOL_SIZE));
		}
		// writes were held until every caller without a connection had given up
		assertThat(Integer.parseInt(line(output, "PHASE name=stall").get("exhausted")))
			.isGreaterThanOrEqualTo(VirtualThreadsMain.CALLS - VirtualThreadsMain.POOL_SIZE);
	}

	@Test
	void whereNoJdkIsNewEnoughTheSkipMessageSaysWhereItLooked() {
		NewerJdk.Search search = NewerJdk.find(Runtime.version().feature() + 100);
		assertThat(search.jdk()).isNull();
		assertThat(search.reason()).contains("the JVM running the tests is Java " + Runtime.version().feature())
			.contains("/usr/lib/jvm");
	}

	private static String run(NewerJdk.Jdk jdk, RedisProcess server) throws IOException, InterruptedException {
		// output to a file, not a pipe: a child blocked on a full pipe would look stuck
		Path log = Files.createTempFile("virtual-threads", ".log");
		try {
			Process process = new ProcessBuilder(jdk.java().toString(), "-Xmx512m", "-XX:+ExitOnOutOfMemoryError",
					"-Dlogback.configurationFile=logback-virtual-threads.xml", "-cp",
					System.getProperty("java.class.path"), VirtualThreadsMain.class.getName(),
					String.valueOf(server.port()))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			process.getOutputStream().close();
			boolean exited = process.waitFor(5, TimeUnit.MINUTES);
			if (!exited) {
				process.destroyForcibly().waitFor();
			}
			String output = Files.readString(log, StandardCharsets.UTF_8);
			System.out.println("Java " + jdk.feature() + " from " + jdk.where() + " (" + jdk.home() + ")");
			System.out.println(output);
			assertThat(exited).as("finished within 5 minutes").isTrue();
			assertThat(process.exitValue()).as(output).isZero();
			return output;
		}
		finally {
			Files.deleteIfExists(log);
		}
	}

	private static Map<String, String> line(String output, String prefix) {
		for (String line : output.split("\\R")) {
			if (line.startsWith(prefix + " ")) {
				Map<String, String> fields = new LinkedHashMap<>();
				Matcher matcher = FIELD.matcher(line);
				while (matcher.find()) {
					fields.put(matcher.group(1), matcher.group(2));
				}
				return fields;
			}
		}
		throw new AssertionError("No line starting with '" + prefix + "' in:\n" + output);
	}

}
