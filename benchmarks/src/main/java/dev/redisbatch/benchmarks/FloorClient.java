package dev.redisbatch.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

/**
 * The floor of a pipelined round trip in Java: one plain NIO socket, each batch encoded
 * into one direct buffer, one write, a wait on the socket's own selector, reads until
 * every reply is parsed. No pool, no futures, no per-command objects beyond the values
 * read: what any client adds is above it.
 * <p>
 * With {@code checkOnBorrow} it first asks its selector, without waiting, whether the
 * socket could be read, as {@code BatchTemplate} does before the first write of a lease
 * (so that a connection the server closed while it was idle is found before anything is
 * sent on it). The two floors side by side show what that one system call costs a small
 * batch. It serves the paired benchmark's small cells only ({@code run.sh --floor}).
 */
final class FloorClient implements Strategy {

	private static final byte[] GET = "GET".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SET = "SET".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EX = "EX".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] TTL = Long.toString(Workload.TTL.toSeconds()).getBytes(StandardCharsets.US_ASCII);

	private static final long WAIT_MILLIS = 10_000;

	private final boolean checkOnBorrow;

	private final SocketChannel channel;

	private final Selector selector;

	private ByteBuffer out = ByteBuffer.allocateDirect(64 * 1024);

	private final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);

	/**
	 * The bytes read and not yet parsed, copied from {@link #in}.
	 */
	private byte[] replies = new byte[64 * 1024];

	private int replyBytes;

	private int parsed;

	FloorClient(Endpoint endpoint, boolean checkOnBorrow) {
		this.checkOnBorrow = checkOnBorrow;
		try {
			this.channel = SocketChannel.open(new InetSocketAddress(Endpoint.HOST, endpoint.port()));
			this.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
			this.channel.configureBlocking(false);
			this.selector = Selector.open();
			this.channel.register(this.selector, SelectionKey.OP_READ);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public long get(Workload workload) {
		String[] keys = workload.keys();
		this.out.clear();
		for (String key : keys) {
			command(GET, key.getBytes(StandardCharsets.UTF_8));
		}
		String[] values = new String[keys.length];
		roundTrip(keys.length, values);
		return workload.matchingValues(values.length, (i) -> values[i]);
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		this.out.clear();
		for (int i = 0; i < keys.length; i++) {
			command(SET, keys[i].getBytes(StandardCharsets.UTF_8), values[i].getBytes(StandardCharsets.UTF_8), EX, TTL);
		}
		return roundTrip(keys.length, null);
	}

	private void command(byte[]... arguments) {
		int size = 16;
		for (byte[] argument : arguments) {
			size += argument.length + 16;
		}
		if (this.out.remaining() < size) {
			ByteBuffer larger = ByteBuffer
				.allocateDirect(Math.max(this.out.capacity() * 2, this.out.position() + size));
			this.out.flip();
			larger.put(this.out);
			this.out = larger;
		}
		this.out.put((byte) '*');
		digits(arguments.length);
		for (byte[] argument : arguments) {
			this.out.put((byte) '$');
			digits(argument.length);
			this.out.put(argument);
			this.out.put((byte) '\r').put((byte) '\n');
		}
	}

	private void digits(int number) {
		this.out.put(Integer.toString(number).getBytes(StandardCharsets.US_ASCII));
		this.out.put((byte) '\r').put((byte) '\n');
	}

	/**
	 * Write the encoded batch and read until {@code count} replies are parsed.
	 * @param values where bulk replies go, or {@code null} to count {@code +OK}s
	 * @return the replies as expected ({@code +OK}, or a bulk string)
	 */
	private long roundTrip(int count, String @Nullable [] values) {
		try {
			if (this.checkOnBorrow && this.selector.selectNow((ready) -> {
			}) != 0) {
				throw new IllegalStateException("Bytes arrived between batches");
			}
			this.out.flip();
			while (this.out.hasRemaining()) {
				if (this.channel.write(this.out) == 0) {
					this.selector.select((ready) -> {
					}, WAIT_MILLIS);
				}
			}
			this.replyBytes = 0;
			this.parsed = 0;
			long expected = 0;
			int replied = 0;
			while (replied < count) {
				this.selector.select((ready) -> {
				}, WAIT_MILLIS);
				read();
				int reply;
				while (replied < count && (reply = parseOne(values, replied)) >= 0) {
					expected += reply;
					replied++;
				}
			}
			return expected;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void read() throws IOException {
		this.in.clear();
		int read = this.channel.read(this.in);
		if (read < 0) {
			throw new IOException("The server closed the connection");
		}
		if (this.replyBytes + read > this.replies.length) {
			this.replies = Arrays.copyOf(this.replies, Math.max(this.replies.length * 2, this.replyBytes + read));
		}
		this.in.flip().get(this.replies, this.replyBytes, read);
		this.replyBytes += read;
	}

	/**
	 * Parse the next whole reply: {@code 1} if it is as expected, {@code 0} if not,
	 * {@code -1} if it has not fully arrived.
	 */
	private int parseOne(String @Nullable [] values, int index) {
		int end = lineEnd(this.parsed);
		if (end < 0) {
			return -1;
		}
		byte type = this.replies[this.parsed];
		if (type != '$') {
			boolean ok = type == '+' && values == null;
			this.parsed = end + 2;
			return ok ? 1 : 0;
		}
		if (this.replies[this.parsed + 1] == '-') {
			this.parsed = end + 2;
			return 0;
		}
		int length = 0;
		for (int i = this.parsed + 1; i < end; i++) {
			length = length * 10 + (this.replies[i] - '0');
		}
		if (end + 2 + length + 2 > this.replyBytes) {
			return -1;
		}
		if (values != null) {
			values[index] = new String(this.replies, end + 2, length, StandardCharsets.UTF_8);
		}
		this.parsed = end + 2 + length + 2;
		return (values != null) ? 1 : 0;
	}

	private int lineEnd(int from) {
		for (int i = from; i + 1 < this.replyBytes; i++) {
			if (this.replies[i] == '\r' && this.replies[i + 1] == '\n') {
				return i;
			}
		}
		return -1;
	}

	@Override
	public long mixed(Workload workload) {
		throw new UnsupportedOperationException("The floor runs GET and SET only");
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		throw new UnsupportedOperationException("The floor runs GET and SET only");
	}

	@Override
	public void close() {
		try {
			this.selector.close();
			this.channel.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
