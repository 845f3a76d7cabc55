package dev.redisbatch.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The runs of a suite that need a JVM of their own ({@link Probe}): one batch of ten
 * million SETs per strategy in a small heap, with the server's output buffer polled
 * meanwhile, and the new connections per thousand batches.
 */
final class ProbeRuns {

	private final Path out;

	private final SuitePlan plan;

	private final String java;

	private final SuiteResults results;

	private final PrintStream console;

	ProbeRuns(Path out, SuitePlan plan, String java, SuiteResults results, PrintStream console) {
		this.out = out;
		this.plan = plan;
		this.java = java;
		this.results = results;
		this.console = console;
	}

	void memory(int port) throws IOException {
		this.console.printf("%n== Memory: one batch of %,d SETs per strategy%n", this.plan.memoryCommands());
		this.results.settings.add("Memory runs: one batch of " + this.plan.memoryCommands()
				+ " SET (TTL 1 h) per strategy, keys generated on the fly from a space of 1M, in a JVM with "
				+ "`-Xmx<heap> -XX:+ExitOnOutOfMemoryError`, time limit " + this.plan.memoryTimeout().toSeconds()
				+ " s; server omem polled every 20 ms");
		for (SuitePlan.MemoryRun run : this.plan.memoryRuns()) {
			if (run.strategy().equals(Strategies.ROUND_TRIP)) {
				this.results.memory.add(new SuiteResults.Memory(run.strategy(), run.heapMb(), "SKIPPED",
						this.plan.memoryCommands(), 0, 0, 0, 0, 0, "not a batch: it holds one command at a time, and "
								+ this.plan.memoryCommands() + " round trips would take longer than the whole suite"));
				continue;
			}
			this.results.memory.add(memoryRun(run, port));
		}
	}

	private SuiteResults.Memory memoryRun(SuitePlan.MemoryRun run, int port) throws IOException {
		String id = run.strategy();
		List<String> command = List.of(this.java, "-Xmx" + run.heapMb() + "m", "-XX:+ExitOnOutOfMemoryError", "-cp",
				System.getProperty("java.class.path"), Probe.class.getName(), "memory", id, String.valueOf(port),
				String.valueOf(this.plan.memoryCommands()));
		Path log = this.out.resolve("memory-" + id + "-" + run.heapMb() + "m.log");
		long peakOmem = 0;
		boolean timedOut = false;
		Process process;
		LineCollector lines;
		try (ServerControl server = new ServerControl(port)) {
			long self = server.clientId();
			process = new ProcessBuilder(command).redirectErrorStream(true).start();
			lines = new LineCollector(process, log);
			long deadline = System.nanoTime() + this.plan.memoryTimeout().toNanos();
			while (process.isAlive()) {
				peakOmem = Math.max(peakOmem, omemOfOthers(server.clientList(), self));
				if (System.nanoTime() > deadline) {
					timedOut = true;
					process.destroyForcibly();
					break;
				}
				waitFor(process, 20);
			}
			waitFor(process, 10_000);
			lines.join();
			server.flushAll();
		}
		Map<String, String> result = lines.last("RESULT");
		Map<String, String> progress = lines.last("PROGRESS");
		double omemMb = peakOmem / 1024.0 / 1024.0;
		String status;
		String note;
		if (timedOut) {
			status = "TIMEOUT";
			note = "did not finish within " + this.plan.memoryTimeout().toSeconds() + " s";
		}
		else if (process.exitValue() == 3) {
			status = "OOM";
			note = "OutOfMemoryError: the JVM exited";
		}
		else if (result.isEmpty()) {
			status = "FAILED";
			note = "exit code " + process.exitValue() + ", see " + log.getFileName();
		}
		else {
			status = result.get("status");
			note = "OK".equals(status) ? "all " + result.get("executed") + " SETs ran on the server"
					: result.getOrDefault("error", "executed " + result.get("executed")).replace('_', ' ');
		}
		Map<String, String> heap = result.isEmpty() ? progress : result;
		long recorded = "OK".equals(status) ? this.plan.memoryCommands()
				: Long.parseLong(progress.getOrDefault("recorded", "0"));
		SuiteResults.Memory memory = new SuiteResults.Memory(id, run.heapMb(), status, this.plan.memoryCommands(),
				recorded, Long.parseLong(result.getOrDefault("elapsedMs", "0")), number(heap.get("peakHeapMb")),
				number(heap.get("peakLiveMb")), omemMb, note);
		this.console.printf("  %-26s -Xmx%-5s %-8s peak heap %6.1f MB, live %6.1f MB, server omem %7.1f MB, %s%n", id,
				run.heapMb() + "m", status, memory.peakHeapMb(), memory.peakLiveMb(), omemMb,
				"OK".equals(status) ? memory.elapsedMillis() + " ms" : "after " + recorded + " commands recorded");
		return memory;
	}

	private static double number(@Nullable String text) {
		return (text != null) ? Double.parseDouble(text) : Double.NaN;
	}

	/**
	 * The sum of {@code omem} (reply bytes the server buffered and the client has not
	 * read) over every client in a {@code CLIENT LIST} but the one that asked: the
	 * connections of the strategy under test (its batch connection for
	 * {@code BatchTemplate}).
	 */
	static long omemOfOthers(String clientList, long self) {
		long total = 0;
		for (String line : clientList.split("\n")) {
			if (field(line, "id") == self) {
				continue;
			}
			long omem = field(line, "omem");
			total += Math.max(omem, 0);
		}
		return total;
	}

	private static long field(String line, String name) {
		String prefix = name + "=";
		int start;
		if (line.startsWith(prefix)) {
			start = prefix.length();
		}
		else {
			int at = line.indexOf(" " + prefix);
			if (at < 0) {
				return -1;
			}
			start = at + 1 + prefix.length();
		}
		int end = line.indexOf(' ', start);
		return Long.parseLong(line.substring(start, (end < 0) ? line.length() : end).trim());
	}

	void connections(int port) throws IOException {
		int batches = this.plan.connectionBatches();
		int size = this.plan.connectionBatchSize();
		this.console.printf("%n== Connections: new TCP connections during %d batches of %d SETs%n", batches, size);
		this.results.settings.add("Connection counts: INFO stats total_connections_received before and after " + batches
				+ " batches of " + size + " SET, after 10 warm-up batches; one JVM per strategy");
		for (String id : this.plan.connectionStrategies()) {
			List<String> command = List.of(this.java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
					Probe.class.getName(), "connections", id, String.valueOf(port), String.valueOf(batches),
					String.valueOf(size));
			Path log = this.out.resolve("connections-" + id + ".log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			LineCollector lines = new LineCollector(process, log);
			waitFor(process, TimeUnit.MINUTES.toMillis(5));
			if (process.isAlive()) {
				process.destroyForcibly();
			}
			lines.join();
			Map<String, String> result = lines.last("RESULT");
			SuiteResults.Connections connections = "OK".equals(result.get("status"))
					? new SuiteResults.Connections(id, "OK", batches, size,
							Long.parseLong(result.get("newConnections")), "")
					: new SuiteResults.Connections(id, "FAILED", batches, size, -1,
							result.getOrDefault("error", "see " + log.getFileName()).replace('_', ' '));
			this.results.connections.add(connections);
			this.console.printf("  %-24s %s%n", id, "OK".equals(connections.status())
					? connections.newConnections() + " new connections" : "FAILED " + connections.note());
		}
	}

	private static void waitFor(Process process, long millis) {
		try {
			process.waitFor(millis, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Reads a probe's output into its log file and keeps its {@code RESULT} and
	 * {@code PROGRESS} lines.
	 */
	private static final class LineCollector {

		private final List<String> lines = new ArrayList<>();

		private final Thread thread;

		LineCollector(Process process, Path log) {
			this.thread = new Thread(() -> {
				try (BufferedReader reader = new BufferedReader(
						new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
						PrintStream file = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
					String line;
					while ((line = reader.readLine()) != null) {
						file.println(line);
						if (line.startsWith("RESULT ") || line.startsWith("PROGRESS ")) {
							synchronized (this.lines) {
								this.lines.add(line);
							}
						}
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}, "probe-output");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		void join() {
			try {
				this.thread.join(10_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		Map<String, String> last(String kind) {
			synchronized (this.lines) {
				for (int i = this.lines.size() - 1; i >= 0; i--) {
					String line = this.lines.get(i);
					if (line.startsWith(kind + " ")) {
						Map<String, String> fields = new HashMap<>();
						for (String part : line.substring(kind.length() + 1).split(" ")) {
							int eq = part.indexOf('=');
							if (eq > 0) {
								fields.put(part.substring(0, eq), part.substring(eq + 1));
							}
						}
						return fields;
					}
				}
			}
			return Map.of();
		}

	}

}
