package dev.redisbatch.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on loopback. A port is only handed out when it and its cluster bus port
 * ({@code port + 10000}) can both be bound right now.
 *
 * @since 0.1.0
 */
public final class FreePorts {

	private static final int LOWEST = 20000;

	private static final int HIGHEST = 50000;

	private FreePorts() {
	}

	/**
	 * Find a free port whose cluster bus port is free too.
	 * @return the port
	 */
	public static synchronized int next() {
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
			if (isFree(port) && isFree(port + 10000)) {
				return port;
			}
		}
		throw new IllegalStateException("No free port pair found on loopback");
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
