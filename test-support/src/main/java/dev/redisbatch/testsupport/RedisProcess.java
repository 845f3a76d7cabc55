package dev.redisbatch.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real {@code redis-server} process on a loopback port, started by tests, benchmarks or
 * the sample app. It can be killed ({@code SIGKILL}), frozen ({@code SIGSTOP}), resumed
 * and restarted on the same port, which is what fault tests need.
 * <p>
 * The server keeps nothing on disk and logs to a file in its own temporary directory.
 * Every process still running when the JVM exits is killed.
 *
 * @since 0.1.0
 */
public final class RedisProcess implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisProcess.class);

	private static final Set<RedisProcess> RUNNING = ConcurrentHashMap.newKeySet();

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> RUNNING.forEach(RedisProcess::destroyQuietly), "redis-process-reaper"));
	}

	private final RedisServerBinary binary;

	private final int port;

	private final List<String> args;

	private final Path directory;

	private @Nullable Path configFile;

	private @Nullable Process process;

	private RedisProcess(RedisServerBinary binary, int port, List<String> args) {
		this.binary = binary;
		this.port = port;
		this.args = List.copyOf(args);
		try {
			this.directory = Files.createTempDirectory("redis-" + port + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Start a server on a free port.
	 * @param args extra configuration, as {@code redis-server} command-line options (for
	 * example {@code "--maxmemory", "10mb"})
	 * @return the running server
	 */
	public static RedisProcess start(String... args) {
		return startOnPort(FreePorts.next(), args);
	}

	/**
	 * Start a server on the given port.
	 * @param port the port
	 * @param args extra configuration, as command-line options
	 * @return the running server
	 */
	public static RedisProcess startOnPort(int port, String... args) {
		RedisProcess server = new RedisProcess(RedisServerBinary.locate(), port, List.of(args));
		server.launch();
		return server;
	}

	/**
	 * Start a Redis Sentinel on a free port that monitors a master. It decides that the
	 * master is down after one second without an answer.
	 * @param masterName the name of the monitored master
	 * @param master the master
	 * @param quorum how many sentinels must agree that the master is down
	 * @return the running sentinel
	 */
	public static RedisProcess startSentinel(String masterName, RedisProcess master, int quorum) {
		RedisProcess sentinel = new RedisProcess(RedisServerBinary.locate(), FreePorts.next(), List.of("--sentinel"));
		String config = String.join("\n",
				"sentinel monitor " + masterName + " " + master.host() + " " + master.port() + " " + quorum,
				"sentinel down-after-milliseconds " + masterName + " 1000",
				"sentinel failover-timeout " + masterName + " 5000", "sentinel parallel-syncs " + masterName + " 1",
				"");
		Path file = sentinel.directory.resolve("sentinel.conf");
		try {
			Files.writeString(file, config, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		sentinel.configFile = file;
		sentinel.launch();
		return sentinel;
	}

	/**
	 * The executable this server runs.
	 * @return the binary
	 */
	public RedisServerBinary binary() {
		return this.binary;
	}

	/**
	 * The loopback address.
	 * @return {@code 127.0.0.1}
	 */
	public String host() {
		return "127.0.0.1";
	}

	/**
	 * The port.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * A {@code redis://} URI for this server.
	 * @return the URI
	 */
	public String uri() {
		return "redis://" + host() + ":" + this.port;
	}

	/**
	 * The directory the server runs in (its log file is {@code redis.log} there).
	 * @return the directory
	 */
	public Path directory() {
		return this.directory;
	}

	/**
	 * The process id.
	 * @return the pid
	 */
	public long pid() {
		return requireProcess().pid();
	}

	/**
	 * Whether the process is alive.
	 * @return whether it runs
	 */
	public boolean isRunning() {
		Process current = this.process;
		return current != null && current.isAlive();
	}

	/**
	 * Run a command on a new connection and return its reply.
	 * @param command the command and its arguments
	 * @return the reply, as {@link RespConnection#call(String...)} returns it
	 */
	public @Nullable Object call(String... command) {
		return RespConnection.call(this.port, command);
	}

	/**
	 * The fields of an {@code INFO} section.
	 * @param section the section, such as {@code stats}
	 * @return the fields by name
	 */
	public Map<String, String> info(String section) {
		Object reply = call("INFO", section);
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : String.valueOf(reply).split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return fields;
	}

	/**
	 * The number of connections the server accepted since it started
	 * ({@code INFO stats total_connections_received}), including the probe connection
	 * that asks.
	 * @return the count
	 */
	public long totalConnectionsReceived() {
		return Long.parseLong(info("stats").get("total_connections_received"));
	}

	/**
	 * The number of clients connected now ({@code INFO clients connected_clients}), not
	 * counting the probe connection that asks.
	 * @return the count
	 */
	public long connectedClients() {
		return Long.parseLong(info("clients").get("connected_clients")) - 1;
	}

	/**
	 * Kill the server with {@code SIGKILL} and wait until it is gone.
	 */
	public void kill() {
		Process current = this.process;
		if (current != null) {
			current.destroyForcibly();
			waitForExit(current);
			RUNNING.remove(this);
		}
	}

	/**
	 * Freeze the server with {@code SIGSTOP}: connections stay open, nothing is answered.
	 */
	public void freeze() {
		signal("STOP");
	}

	/**
	 * Resume a frozen server with {@code SIGCONT}.
	 */
	public void resume() {
		signal("CONT");
	}

	/**
	 * Kill the server if it runs, then start it again on the same port with the same
	 * options. Data is not kept.
	 */
	public void restart() {
		kill();
		launch();
	}

	/**
	 * Kill the server if it runs, then start it again on the same port with the same
	 * options, and return as soon as it answers, even while it still loads its data from
	 * disk (it refuses most commands with {@code LOADING} then). A server started with
	 * {@code --save ""} still loads the {@code dump.rdb} a {@code SAVE} left in its
	 * directory.
	 */
	public void restartWhileLoading() {
		kill();
		launch(true);
	}

	/**
	 * The last lines of the server's log, for failure messages.
	 * @param lines how many lines
	 * @return the lines
	 */
	public String logTail(int lines) {
		Path log = this.directory.resolve("redis.log");
		try {
			if (!Files.exists(log)) {
				return "(no log)";
			}
			List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex.getMessage() + ")";
		}
	}

	@Override
	public void close() {
		kill();
		deleteDirectory();
	}

	private void launch() {
		launch(false);
	}

	private void launch(boolean whileLoading) {
		List<String> command = new ArrayList<>();
		command.add(this.binary.path().toString());
		if (this.configFile != null) {
			command.add(this.configFile.toString());
		}
		command.addAll(List.of("--port", String.valueOf(this.port), "--bind", "127.0.0.1", "--protected-mode", "no",
				"--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", this.directory.toString(),
				"--logfile", this.directory.resolve("redis.log").toString()));
		command.addAll(this.args);
		try {
			Process started = new ProcessBuilder(command).directory(this.directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("stdout.log").toFile())
				.start();
			this.process = started;
			RUNNING.add(this);
			awaitReady(started, whileLoading);
			logger.debug("redis-server started on port {} (pid {})", this.port, started.pid());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + command.get(0), ex);
		}
	}

	private void awaitReady(Process started, boolean whileLoading) {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		IOException last = null;
		while (System.nanoTime() < deadline) {
			if (!started.isAlive()) {
				RUNNING.remove(this);
				throw new IllegalStateException("redis-server exited with code " + started.exitValue() + " on port "
						+ this.port + ":\n" + logTail(20) + "\n" + stdoutTail());
			}
			try (RespConnection connection = RespConnection.open(this.port, Duration.ofSeconds(1))) {
				Object pong = connection.call("PING");
				if ("PONG".equals(pong)) {
					return;
				}
			}
			catch (IOException | UncheckedIOException ex) {
				last = (ex instanceof IOException io) ? io : ((UncheckedIOException) ex).getCause();
			}
			catch (RespConnection.RespErrorException ex) {
				// An error reply means the server answers (NOAUTH when a password is
				// required), except while it loads its data.
				if (whileLoading || !String.valueOf(ex.getMessage()).startsWith("LOADING")) {
					return;
				}
			}
			try {
				// Polling an external process: there is no event to wait for.
				TimeUnit.MILLISECONDS.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
			}
		}
		throw new IllegalStateException("redis-server on port " + this.port + " did not answer PING within "
				+ STARTUP_TIMEOUT + ": " + last + "\n" + logTail(20));
	}

	private String stdoutTail() {
		try {
			Path out = this.directory.resolve("stdout.log");
			return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "";
		}
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).inheritIO().start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
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

	private Process requireProcess() {
		Process current = this.process;
		if (current == null) {
			throw new IllegalStateException("redis-server on port " + this.port + " was never started");
		}
		return current;
	}

	private static void waitForExit(Process process) {
		try {
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("redis-server (pid " + process.pid() + ") did not exit");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void destroyQuietly() {
		Process current = this.process;
		if (current != null) {
			current.destroyForcibly();
		}
	}

	private void deleteDirectory() {
		try (Stream<Path> paths = Files.walk(this.directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// best effort: a temporary directory
		}
	}

}
