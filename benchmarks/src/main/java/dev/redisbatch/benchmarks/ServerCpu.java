package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import dev.redisbatch.testsupport.RespConnection;

/**
 * The CPU time a Redis server has used ({@code INFO cpu}: {@code used_cpu_sys} plus
 * {@code used_cpu_user}), read over a plain socket, so that reading it starts no client
 * threads in the benchmark's JVM.
 */
final class ServerCpu implements AutoCloseable {

	private final RespConnection connection;

	ServerCpu(int port) {
		try {
			this.connection = RespConnection.open(port, Duration.ofSeconds(10));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The server's CPU time since it started.
	 * @return seconds, to the microsecond
	 */
	double seconds() {
		return seconds(String.valueOf(this.connection.call("INFO", "cpu")));
	}

	/**
	 * The server's CPU time in an {@code INFO cpu} reply.
	 * @param info the reply
	 * @return {@code used_cpu_sys} plus {@code used_cpu_user}, in seconds
	 */
	static double seconds(String info) {
		double seconds = 0;
		int found = 0;
		for (String line : info.split("\r?\n")) {
			if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
				seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
				found++;
			}
		}
		if (found != 2) {
			throw new IllegalStateException("INFO cpu has no used_cpu_sys and used_cpu_user");
		}
		return seconds;
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
