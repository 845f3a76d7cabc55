package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;

/**
 * Prepares the server between benchmarks (outside any measurement): {@code FLUSHALL} and
 * loading the keys a GET or mixed benchmark reads.
 */
final class ServerControl implements AutoCloseable {

	private static final int LOAD_CHUNK = 10_000;

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	ServerControl(int port) {
		this.client = RedisClient.create(RedisURI.create("redis://" + Endpoint.HOST + ":" + port));
		this.connection = this.client.connect(StringCodec.UTF8);
	}

	void flushAll() {
		this.connection.sync().flushall();
	}

	/**
	 * Write every key of the workload with its value and TTL, then check they exist.
	 * @param workload the data
	 */
	void load(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		SetArgs ttl = SetArgs.Builder.ex(Workload.TTL);
		this.connection.setAutoFlushCommands(false);
		try {
			RedisAsyncCommands<String, String> async = this.connection.async();
			for (int start = 0; start < keys.length; start += LOAD_CHUNK) {
				int end = Math.min(keys.length, start + LOAD_CHUNK);
				List<RedisFuture<String>> futures = new ArrayList<>(end - start);
				for (int i = start; i < end; i++) {
					futures.add(async.set(keys[i], values[i], ttl));
				}
				this.connection.flushCommands();
				if (!LettuceFutures.awaitAll(Duration.ofMinutes(1), futures.toArray(new RedisFuture[0]))) {
					throw new IllegalStateException("Loading the keys timed out");
				}
			}
		}
		finally {
			this.connection.setAutoFlushCommands(true);
		}
		long size = this.connection.sync().dbsize();
		if (size < keys.length) {
			throw new IllegalStateException("Loaded " + keys.length + " keys but DBSIZE is " + size);
		}
	}

	/**
	 * The fields of an {@code INFO} section.
	 * @param section the section
	 * @return the fields
	 */
	Map<String, String> info(String section) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : this.connection.sync().info(section).split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return fields;
	}

	/**
	 * How many string writes with a TTL the server ran: {@code SET}, {@code SETEX} and
	 * {@code PSETEX} (Redisson sends the latter) from {@code INFO commandstats}.
	 * @return the count
	 */
	long stringWrites() {
		Map<String, String> stats = info("commandstats");
		return calls(stats, "set") + calls(stats, "setex") + calls(stats, "psetex");
	}

	private static long calls(Map<String, String> stats, String command) {
		String line = stats.get("cmdstat_" + command);
		if (line == null) {
			return 0;
		}
		for (String part : line.split(",")) {
			if (part.startsWith("calls=")) {
				return Long.parseLong(part.substring("calls=".length()));
			}
		}
		return 0;
	}

	/**
	 * The number of connections the server accepted since it started.
	 * @return the count
	 */
	long connectionsReceived() {
		return Long.parseLong(info("stats").get("total_connections_received"));
	}

	/**
	 * {@code CLIENT ID} of this connection.
	 * @return the id
	 */
	long clientId() {
		return this.connection.sync().clientId();
	}

	/**
	 * {@code CLIENT LIST}.
	 * @return one line per client
	 */
	String clientList() {
		return this.connection.sync().clientList();
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
