package dev.redisbatch.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The physical limit: {@code redis-benchmark -P 1000 -c 1} (one connection, 1000 commands
 * per pipeline) against the same server, with values of the same size ({@code -d 64}) and
 * random keys ({@code -r}).
 * <p>
 * Three tests: the built-in {@code SET} and {@code GET}, and
 * {@code SET key value EX 3600} (the same command the strategies send, with its TTL).
 * When {@code redis-benchmark} is not installed this says so instead of failing.
 */
final class RedisBenchmarkTool {

	private RedisBenchmarkTool() {
	}

	/**
	 * Find {@code redis-benchmark}: next to the {@code redis-server} in use, or on the
	 * {@code PATH}.
	 * @param redisServer the server executable
	 * @return the executable, or {@code null}
	 */
	static @Nullable Path locate(Path redisServer) {
		Path sibling = redisServer.resolveSibling("redis-benchmark");
		if (Files.isExecutable(sibling)) {
			return sibling;
		}
		String path = System.getenv("PATH");
		if (path != null) {
			for (String dir : path.split(File.pathSeparator)) {
				Path candidate = Path.of(dir, "redis-benchmark");
				if (!dir.isEmpty() && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		return null;
	}

	/**
	 * Run the three tests.
	 * @param executable {@code redis-benchmark}
	 * @param port the server's port
	 * @param requests requests per test ({@code -n})
	 * @param keySpace the random key space ({@code -r}); GET reads keys the SET test
	 * wrote when {@code requests} is well above it
	 * @return the results, with the command line of each
	 */
	static List<Result> run(Path executable, int port, int requests, int keySpace) {
		List<String> base = List.of(executable.toString(), "-h", Endpoint.HOST, "-p", String.valueOf(port), "-c", "1",
				"-P", "1000", "-n", String.valueOf(requests), "-r", String.valueOf(keySpace), "--csv");
		List<Result> results = new ArrayList<>();
		List<String> builtIn = new ArrayList<>(base);
		builtIn.addAll(List.of("-d", String.valueOf(Workload.VALUE_SIZE), "-t", "set,get"));
		List<String> lines = exec(builtIn);
		for (String test : List.of("SET", "GET")) {
			results.add(new Result(test, rps(lines, "\"" + test + "\""), display(builtIn)));
		}
		List<String> withTtl = new ArrayList<>(base);
		withTtl.addAll(List.of("SET", "key:__rand_int__", Probe.VALUE, "EX", String.valueOf(Workload.TTL.toSeconds())));
		results.add(new Result("SET EX 3600", rps(exec(withTtl), "\"SET key:"), display(withTtl)));
		return results;
	}

	/**
	 * The version line of {@code redis-benchmark --version}.
	 * @param executable the executable
	 * @return the version
	 */
	static String version(Path executable) {
		List<String> lines = exec(List.of(executable.toString(), "--version"));
		return lines.isEmpty() ? "unknown" : lines.get(0).trim();
	}

	private static String display(List<String> command) {
		List<String> shown = new ArrayList<>(command);
		shown.set(0, "redis-benchmark");
		return String.join(" ", shown).replace(Probe.VALUE, "<64 bytes>");
	}

	private static double rps(List<String> lines, String prefix) {
		for (String line : lines) {
			if (line.startsWith(prefix)) {
				String[] fields = line.split("\",\"");
				return Double.parseDouble(fields[1].replace("\"", ""));
			}
		}
		throw new IllegalStateException("redis-benchmark printed no result for " + prefix + ": " + lines);
	}

	private static List<String> exec(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			process.getOutputStream().close();
			String output;
			try (InputStream in = process.getInputStream()) {
				output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("redis-benchmark did not finish: " + command);
			}
			// --csv progress lines end with \r; keep the final lines only
			List<String> lines = new ArrayList<>();
			for (String line : output.split("[\r\n]+")) {
				if (!line.isBlank()) {
					lines.add(line.trim());
				}
			}
			return lines;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command.get(0), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * One test's result.
	 *
	 * @param test {@code SET}, {@code GET} or {@code SET EX 3600}
	 * @param requestsPerSecond the rate
	 * @param command the command line
	 */
	record Result(String test, double requestsPerSecond, String command) {

	}

}
