package dev.redisbatch.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on loopback. A port is only handed out when it and its cluster bus port
 * ({@code port + 10000}) can both be bound right now, and both lie below the kernel's
 * ephemeral range: a port in that range that is free when checked can be taken a moment
 * later as the local port of any outgoing connection (a client of another test server),
 * and the server started on it then fails to bind.
 *
 * @since 0.1.0
 */
public final class FreePorts {

	private static final int BUS_OFFSET = 10000;

	private static final int LOWEST = 10000;

	/**
	 * Where Linux starts its ephemeral ports unless configured otherwise.
	 */
	private static final int DEFAULT_EPHEMERAL_START = 32768;

	private static final int HIGHEST = ephemeralStart() - BUS_OFFSET;

	private FreePorts() {
	}

	/**
	 * Find a free port whose cluster bus port is free too.
	 * @return the port
	 */
	public static synchronized int next() {
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
			if (isFree(port) && isFree(port + BUS_OFFSET)) {
				return port;
			}
		}
		throw new IllegalStateException("No free port pair found on loopback");
	}

	/**
	 * The first port of the kernel's ephemeral range (Linux), or Linux's default where it
	 * cannot be read; never so low that no port would be left.
	 */
	private static int ephemeralStart() {
		try {
			String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
			int start = Integer.parseInt(range.split("\\s+")[0]);
			return Math.max(start, LOWEST + BUS_OFFSET + 1000);
		}
		catch (IOException | RuntimeException ex) {
			return DEFAULT_EPHEMERAL_START;
		}
	}

	/**
	 * Whether a port can be bound on loopback right now.
	 * @param port the port
	 * @return whether it is free
	 */
	public static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(false);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
