package dev.redisbatch.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A tiny blocking RESP2 connection for fixtures: readiness probes and admin commands
 * (CLUSTER, CONFIG, CLIENT, INFO) without starting a Netty client. Tests use Lettuce for
 * everything else.
 *
 * @since 0.1.0
 */
public final class RespConnection implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RespConnection(Socket socket) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = socket.getOutputStream();
	}

	/**
	 * Connect to a server on loopback.
	 * @param port the port
	 * @param timeout connect and read timeout
	 * @return the connection
	 * @throws IOException if the server does not accept the connection
	 */
	public static RespConnection open(int port, Duration timeout) throws IOException {
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
			socket.setSoTimeout((int) timeout.toMillis());
			socket.setTcpNoDelay(true);
			return new RespConnection(socket);
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * Run one command on a new connection and return its reply.
	 * @param port the port
	 * @param args the command and its arguments
	 * @return the reply, see {@link #call(String...)}
	 */
	public static @Nullable Object call(int port, String... args) {
		try (RespConnection connection = open(port, Duration.ofSeconds(10))) {
			return connection.call(args);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Send a command and read its reply.
	 * @param args the command and its arguments
	 * @return a {@code String} for simple and bulk strings, a {@code Long} for integers,
	 * a {@code List} for arrays, {@code null} for nil
	 * @throws RespErrorException when the server answers with an error
	 */
	public @Nullable Object call(String... args) {
		try {
			ByteArrayOutputStream request = new ByteArrayOutputStream();
			writeAscii(request, "*" + args.length + "\r\n");
			for (String arg : args) {
				byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
				writeAscii(request, "$" + bytes.length + "\r\n");
				request.write(bytes);
				writeAscii(request, "\r\n");
			}
			this.out.write(request.toByteArray());
			this.out.flush();
			return read();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private @Nullable Object read() throws IOException {
		int type = this.in.read();
		if (type == -1) {
			throw new IOException("Connection closed by server");
		}
		String line = readLine();
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RespErrorException(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] data = this.in.readNBytes(length);
				readLine();
				return new String(data, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<@Nullable Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(read());
				}
				return items;
			}
			default:
				throw new IOException("Unexpected RESP type '" + (char) type + "'");
		}
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int b = this.in.read();
			if (b == -1) {
				throw new IOException("Connection closed by server");
			}
			if (previous == '\r' && b == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(b);
			previous = b;
		}
	}

	private static void writeAscii(OutputStream out, String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.US_ASCII));
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// closing a probe connection; nothing to do
		}
	}

	/**
	 * An error reply from the server.
	 */
	public static final class RespErrorException extends RuntimeException {

		RespErrorException(String message) {
			super(message);
		}

	}

}
