package dev.redisbatch.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on loopback in front of a Redis server, for what {@code tc netem} would
 * otherwise do:
 * <ul>
 * <li>add latency: every byte is held for the one-way delay in each direction, without
 * limiting throughput, so pipelining behaves as it would at that distance;</li>
 * <li>lose replies: after a number of reply bytes, replies are swallowed while the
 * connection stays open (the server executed the commands, the client never hears);</li>
 * <li>count the separate writes clients make (each {@code read()} that returns data), to
 * show how many flushes a client used;</li>
 * <li>close a connection when a client sends a given request, as a {@code CLIENT KILL} or
 * a network fault at that moment would;</li>
 * <li>put bytes (a RESP3 push frame) between two replies.</li>
 * </ul>
 * It listens on 127.0.0.1 only.
 *
 * @since 0.1.0
 */
public final class TcpProxy implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(TcpProxy.class);

	private final int targetPort;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicLong clientReads = new AtomicLong();

	private final AtomicLong clientBytes = new AtomicLong();

	private final AtomicLong replyBytes = new AtomicLong();

	private final AtomicLong accepted = new AtomicLong();

	private volatile long oneWayDelayNanos;

	private final Set<ReplyBudget> budgets = ConcurrentHashMap.newKeySet();

	private final AtomicLong peakOutstandingBytes = new AtomicLong();

	private final AtomicLong peakOutstandingRequests = new AtomicLong();

	private volatile boolean trackOutstanding = true;

	private volatile boolean closed;

	private volatile byte @Nullable [] closeMarker;

	private final AtomicLong closesLeft = new AtomicLong();

	private volatile byte @Nullable [] injection;

	private volatile long injectAfter;

	private TcpProxy(int targetPort) throws IOException {
		this.targetPort = targetPort;
		this.server = new ServerSocket();
		this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept-" + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Start a proxy to a port on loopback.
	 * @param targetPort the port of the server behind the proxy
	 * @return the running proxy
	 */
	public static TcpProxy start(int targetPort) {
		try {
			return new TcpProxy(targetPort);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The port clients connect to.
	 * @return the port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Hold every byte for half the given round-trip time in each direction.
	 * @param roundTrip the added round-trip time
	 * @return this proxy
	 */
	public TcpProxy roundTrip(Duration roundTrip) {
		this.oneWayDelayNanos = roundTrip.toNanos() / 2;
		return this;
	}

	/**
	 * Whether to track the requests outstanding on each connection (on by default).
	 * Tracking parses every byte in both directions as RESP, which costs the proxy CPU
	 * time per command: switch it off where only the delay matters and the machine is
	 * shared with the client and the server, as in the benchmarks. It applies to the
	 * connections accepted from then on; on connections without it,
	 * {@link #peakOutstandingRequestBytes()} and {@link #peakOutstandingRequests()} see
	 * nothing.
	 * @param track whether to track outstanding requests
	 * @return this proxy
	 */
	public TcpProxy trackOutstandingRequests(boolean track) {
		this.trackOutstanding = track;
		return this;
	}

	/**
	 * On every connection open now, forward at most this many more reply bytes (in all),
	 * then swallow its replies; the connections stay open. Connections opened later
	 * forward every reply.
	 * @param bytes the number of reply bytes still forwarded
	 * @return this proxy
	 */
	public TcpProxy dropRepliesAfter(long bytes) {
		long limit = this.replyBytes.get() + bytes;
		this.budgets.forEach((budget) -> budget.limit = limit);
		return this;
	}

	/**
	 * Forward every reply again, on every connection.
	 * @return this proxy
	 */
	public TcpProxy forwardAllReplies() {
		this.budgets.forEach((budget) -> budget.limit = Long.MAX_VALUE);
		return this;
	}

	/**
	 * On connections opened from now on, put the given bytes in the reply stream right
	 * after the given number of replies, once per connection: a RESP3 push frame in the
	 * middle of a batch's replies, as a server sends one at any time.
	 * @param replies how many whole replies come first
	 * @param frame the bytes to put between two replies
	 * @return this proxy
	 */
	public TcpProxy injectAfterReplies(long replies, String frame) {
		this.injectAfter = replies;
		this.injection = frame.getBytes(StandardCharsets.UTF_8);
		return this;
	}

	/**
	 * Close the next connections whose client sends a request containing the given text,
	 * instead of forwarding that request: both sides are closed, as a {@code CLIENT KILL}
	 * or a network fault at that moment would. The text must arrive in one read (a short
	 * request written alone does).
	 * @param text what the request contains, such as an argument only one request has
	 * @param connections how many connections to close this way
	 * @return this proxy
	 */
	public TcpProxy closeOnRequest(String text, int connections) {
		this.closeMarker = text.getBytes(StandardCharsets.UTF_8);
		this.closesLeft.set(connections);
		return this;
	}

	/**
	 * How many times a read from a client returned data: an upper bound on how many
	 * separate writes the clients made (the kernel may merge writes, never split fewer).
	 * @return the count
	 */
	public long clientReads() {
		return this.clientReads.get();
	}

	/**
	 * The number of request bytes received from clients (counted on arrival, before the
	 * simulated delay).
	 * @return the count
	 */
	public long clientBytes() {
		return this.clientBytes.get();
	}

	/**
	 * The number of reply bytes received from the server (counted on arrival, whether
	 * forwarded or dropped).
	 * @return the count
	 */
	public long replyBytes() {
		return this.replyBytes.get();
	}

	/**
	 * The most request bytes that were outstanding on one connection at once: requests
	 * that had reached the proxy and whose replies had not yet been passed on to the
	 * client. The client wrote them before, and reads their replies after, so what it
	 * keeps in flight is at least this.
	 * @return the peak, in bytes of requests
	 */
	public long peakOutstandingRequestBytes() {
		return this.peakOutstandingBytes.get();
	}

	/**
	 * The most requests outstanding on one connection at once (see
	 * {@link #peakOutstandingRequestBytes()}).
	 * @return the peak, in requests
	 */
	public long peakOutstandingRequests() {
		return this.peakOutstandingRequests.get();
	}

	/**
	 * Start measuring the peaks again.
	 * @return this proxy
	 */
	public TcpProxy resetPeaks() {
		this.peakOutstandingBytes.set(0);
		this.peakOutstandingRequests.set(0);
		return this;
	}

	/**
	 * The number of connections the proxy accepted.
	 * @return the count
	 */
	public long connectionsAccepted() {
		return this.accepted.get();
	}

	/**
	 * Close every proxied connection (both sides), as a network failure would.
	 */
	public void closeConnections() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.server);
		closeConnections();
	}

	private void acceptLoop() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				client.setTcpNoDelay(true);
				Socket upstream = new Socket();
				upstream.setTcpNoDelay(true);
				try {
					upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.targetPort), 5000);
				}
				catch (IOException ex) {
					closeQuietly(client);
					continue;
				}
				this.accepted.incrementAndGet();
				this.sockets.add(client);
				this.sockets.add(upstream);
				ReplyBudget budget = new ReplyBudget(this.trackOutstanding);
				this.budgets.add(budget);
				pump(client, upstream, true, budget);
				pump(upstream, client, false, budget);
			}
			catch (IOException ex) {
				if (!this.closed) {
					logger.debug("Proxy accept failed", ex);
				}
			}
		}
	}

	private void pump(Socket from, Socket to, boolean request, ReplyBudget budget) {
		DelayQueue<Packet> queue = new DelayQueue<>();
		String direction = request ? "request" : "reply";
		Thread reader = new Thread(() -> read(from, to, request, queue, budget), "tcp-proxy-" + direction + "-read");
		Thread writer = new Thread(() -> {
			write(from, to, queue, request ? null : budget);
			this.budgets.remove(budget);
		}, "tcp-proxy-" + direction + "-write");
		reader.setDaemon(true);
		writer.setDaemon(true);
		reader.start();
		writer.start();
	}

	private void read(Socket from, Socket to, boolean request, DelayQueue<Packet> queue, ReplyBudget budget) {
		byte[] buffer = new byte[64 * 1024];
		long sequence = 0;
		long lastDue = 0;
		Injection injection = (!request && this.injection != null) ? new Injection(this.injection, this.injectAfter)
				: null;
		try (InputStream in = from.getInputStream()) {
			int read;
			while ((read = in.read(buffer)) != -1) {
				if (read == 0) {
					continue;
				}
				byte[] data = Arrays.copyOf(buffer, read);
				if (request && closesOnRequest(data)) {
					closeQuietly(from);
					closeQuietly(to);
					break;
				}
				if (request) {
					this.clientReads.incrementAndGet();
					this.clientBytes.addAndGet(read);
					if (budget.track) {
						budget.requestsArrived(data);
					}
				}
				else {
					long before = this.replyBytes.getAndAdd(read);
					long allowed = budget.limit - before;
					if (allowed <= 0) {
						continue;
					}
					if (allowed < read) {
						data = Arrays.copyOf(data, (int) allowed);
					}
					if (injection != null) {
						data = injection.into(data);
					}
				}
				// Bytes leave in the order they came, even if the delay changes
				// meanwhile.
				lastDue = Math.max(System.nanoTime() + this.oneWayDelayNanos, lastDue);
				queue.put(new Packet(data, lastDue, sequence++));
			}
		}
		catch (IOException ex) {
			// connection closed
		}
		queue.put(new Packet(null, Math.max(System.nanoTime() + this.oneWayDelayNanos, lastDue), sequence));
	}

	private boolean closesOnRequest(byte[] data) {
		byte[] marker = this.closeMarker;
		if (marker == null || this.closesLeft.get() <= 0 || indexOf(data, marker) < 0) {
			return false;
		}
		return this.closesLeft.getAndDecrement() > 0;
	}

	private static int indexOf(byte[] data, byte[] marker) {
		for (int i = 0; i + marker.length <= data.length; i++) {
			if (Arrays.equals(data, i, i + marker.length, marker, 0, marker.length)) {
				return i;
			}
		}
		return -1;
	}

	private void write(Socket from, Socket to, DelayQueue<Packet> queue, @Nullable ReplyBudget replies) {
		try (OutputStream out = to.getOutputStream()) {
			while (true) {
				Packet packet = queue.take();
				byte[] data = packet.data;
				if (data == null) {
					break;
				}
				if (replies != null && replies.track) {
					replies.repliesForwarded(data);
				}
				out.write(data);
				out.flush();
			}
		}
		catch (SocketException ex) {
			// closed by the other side or by closeConnections()
		}
		catch (IOException ex) {
			logger.debug("Proxy write failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
			this.sockets.remove(from);
			this.sockets.remove(to);
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing
		}
	}

	/**
	 * One connection: how many reply bytes (counted over the whole proxy) it forwards,
	 * and the requests outstanding on it.
	 */
	private final class ReplyBudget {

		private volatile long limit = Long.MAX_VALUE;

		private final boolean track;

		private final RespStream requests = new RespStream();

		private final RespStream replies = new RespStream();

		/**
		 * The byte lengths of the requests whose replies were not passed on yet.
		 */
		private final java.util.ArrayDeque<Long> outstanding = new java.util.ArrayDeque<>();

		private long outstandingBytes;

		ReplyBudget(boolean track) {
			this.track = track;
		}

		synchronized void requestsArrived(byte[] data) {
			this.requests.feed(data, data.length, (length) -> {
				this.outstanding.add(length);
				this.outstandingBytes += length;
			});
			TcpProxy.this.peakOutstandingBytes.accumulateAndGet(this.outstandingBytes, Math::max);
			TcpProxy.this.peakOutstandingRequests.accumulateAndGet(this.outstanding.size(), Math::max);
		}

		synchronized void repliesForwarded(byte[] data) {
			this.replies.feed(data, data.length, (length) -> {
				Long answered = this.outstanding.poll();
				if (answered != null) {
					this.outstandingBytes -= answered;
				}
			});
		}

	}

	/**
	 * Bytes put once into one connection's replies, after a number of whole replies.
	 */
	private static final class Injection {

		private final RespStream replies = new RespStream();

		private final byte[] frame;

		private final long after;

		private long seen;

		private long bytesBefore;

		private long endOfLastReply;

		private boolean done;

		Injection(byte[] frame, long after) {
			this.frame = frame;
			this.after = after;
		}

		byte[] into(byte[] data) {
			if (this.done) {
				return data;
			}
			long[] at = { -1 };
			this.replies.feed(data, data.length, (length) -> {
				this.endOfLastReply += length;
				if (++this.seen == this.after) {
					at[0] = this.endOfLastReply - this.bytesBefore;
				}
			});
			this.bytesBefore += data.length;
			if (at[0] < 0) {
				return data;
			}
			this.done = true;
			int split = (int) at[0];
			byte[] joined = new byte[data.length + this.frame.length];
			System.arraycopy(data, 0, joined, 0, split);
			System.arraycopy(this.frame, 0, joined, split, this.frame.length);
			System.arraycopy(data, split, joined, split + this.frame.length, data.length - split);
			return joined;
		}

	}

	/**
	 * Bytes due to be forwarded at a point in time; {@code null} data marks the end of
	 * the stream.
	 */
	private static final class Packet implements Delayed {

		private final byte @Nullable [] data;

		private final long due;

		private final long sequence;

		Packet(byte @Nullable [] data, long due, long sequence) {
			this.data = data;
			this.due = due;
			this.sequence = sequence;
		}

		@Override
		public long getDelay(TimeUnit unit) {
			return unit.convert(this.due - System.nanoTime(), TimeUnit.NANOSECONDS);
		}

		@Override
		public int compareTo(Delayed other) {
			Packet that = (Packet) other;
			int byDue = Long.compare(this.due, that.due);
			return (byDue != 0) ? byDue : Long.compare(this.sequence, that.sequence);
		}

	}

}
