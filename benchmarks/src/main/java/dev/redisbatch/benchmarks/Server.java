package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.redisbatch.testsupport.RespConnection;
import org.jspecify.annotations.Nullable;

/**
 * The benchmark's {@code redis-server}, over a plain socket of its own, so that reading
 * it starts no client threads in the benchmark's JVM: it prepares the server between
 * measurements and reads what the server counts ({@code INFO}, {@code CLIENT LIST}).
 */
final class Server implements AutoCloseable {

	private final int port;

	private final RespConnection connection;

	private final String id;

	Server(int port) {
		this.port = port;
		try {
			this.connection = RespConnection.open(port, Duration.ofSeconds(10));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.id = String.valueOf(this.connection.call("CLIENT", "ID"));
	}

	int port() {
		return this.port;
	}

	/**
	 * Remove every key, then write the keys of a workload (with a Jedis pipeline).
	 * @param keys the keys a benchmark reads, or {@code null} for none
	 */
	synchronized void reset(@Nullable Workload keys) {
		this.connection.call("FLUSHALL");
		if (keys != null) {
			try (JedisPipelineStrategy jedis = new JedisPipelineStrategy(new Endpoint(this.port, 0))) {
				if (jedis.set(keys) != keys.size()) {
					throw new IllegalStateException("Could not write the keys of the workload");
				}
			}
		}
	}

	/**
	 * The server's CPU time since it started: {@code used_cpu_sys} plus
	 * {@code used_cpu_user}.
	 * @return seconds, to the microsecond
	 */
	synchronized double cpuSeconds() {
		Map<String, String> cpu = info("cpu");
		return Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"));
	}

	/**
	 * The connections the server accepted since it started.
	 * @return {@code total_connections_received}
	 */
	synchronized long connectionsReceived() {
		return Long.parseLong(info("stats").get("total_connections_received"));
	}

	/**
	 * How many string writes with a TTL the server ran: {@code SET}, {@code SETEX} and
	 * {@code PSETEX} (Redisson sends the latter).
	 * @return the calls, from {@code INFO commandstats}
	 */
	synchronized long stringWrites() {
		Map<String, String> stats = info("commandstats");
		long calls = 0;
		for (String command : new String[] { "set", "setex", "psetex" }) {
			String line = stats.getOrDefault("cmdstat_" + command, "calls=0,");
			calls += Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
		}
		return calls;
	}

	/**
	 * The reply bytes the server holds for clients that have not read them ({@code omem}
	 * of {@code CLIENT LIST}), summed over every client but this one.
	 * @return bytes
	 */
	synchronized long omemOfOthers() {
		long total = 0;
		for (String client : String.valueOf(this.connection.call("CLIENT", "LIST")).split("\n")) {
			Map<String, String> fields = fields(client.trim(), " ", '=');
			if (!this.id.equals(fields.get("id"))) {
				total += Long.parseLong(fields.getOrDefault("omem", "0"));
			}
		}
		return total;
	}

	private Map<String, String> info(String section) {
		return fields(String.valueOf(this.connection.call("INFO", section)), "\r\n", ':');
	}

	/**
	 * The {@code name<assign>value} fields of a reply, skipping {@code #} comments.
	 */
	static Map<String, String> fields(String text, String separator, char assign) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String field : text.split(separator)) {
			int at = field.indexOf(assign);
			if (at > 0 && !field.startsWith("#")) {
				fields.put(field.substring(0, at), field.substring(at + 1));
			}
		}
		return fields;
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
