package dev.redisbatch;

import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import dev.redisbatch.wire.WireLease;
import io.netty.buffer.ByteBuf;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.util.ClassUtils;

/**
 * The pooled connections to one Redis server: the standalone server, the master that
 * Sentinel names, or one master of a cluster. A batch leases its connections from here;
 * {@link BatchConnectionPool} holds one per server.
 */
final class NodePool {

	/**
	 * Whether commons-pool2 can be told not to collect its detailed statistics (since
	 * 2.12).
	 */
	private static final boolean DETAILED_STATISTICS_SWITCH = ClassUtils.hasMethod(GenericObjectPoolConfig.class,
			"setCollectDetailedStatistics", boolean.class);

	private final String address;

	/**
	 * The part of {@link #address} before its port.
	 */
	private final String host;

	private final GenericObjectPool<BatchConnection> pool;

	private final PooledConnections factory;

	private final Set<BatchConnection> retired = ConcurrentHashMap.newKeySet();

	/**
	 * The largest chunk buffer kept between batches.
	 */
	static final int KEPT_BUFFER_BYTES = 1 << 20;

	private final Duration maxWait;

	private final LongAdder exhausted;

	/**
	 * The largest argument the server accepts, learned when a connection opened.
	 */
	private final ServerLimits limits = new ServerLimits();

	/**
	 * Chunk buffers that batches gave back, for the next batches: at most two per
	 * connection, of at most {@link #KEPT_BUFFER_BYTES} each.
	 */
	private final ConcurrentLinkedDeque<ByteBuf> buffers = new ConcurrentLinkedDeque<>();

	/**
	 * The connection given back last, kept out of commons-pool2 for the next borrow while
	 * no other borrow is under way: a thread that sends one batch after another takes it
	 * back without the pool's locks and clock reads. To commons-pool2 it is still
	 * borrowed; {@link #active()} and {@link #idle()} count it as idle.
	 */
	private final AtomicReference<@Nullable BatchConnection> parked = new AtomicReference<>();

	/**
	 * The borrows under way. A borrow counts itself before it looks at {@link #parked},
	 * and a release parks before it reads this count, handing the connection to
	 * commons-pool2 instead when it is not zero: so a borrow that found nothing parked
	 * and waits in commons-pool2 is never left waiting while a connection stays parked.
	 */
	private final AtomicInteger borrowing = new AtomicInteger();

	/**
	 * Whether a connection given back may be kept for the next borrow: not when the pool
	 * keeps a minimum of idle connections, whose evictor would count a kept one as
	 * borrowed and open another.
	 */
	private final boolean keepsLast;

	private volatile boolean closed;

	private final AtomicInteger keptBuffers = new AtomicInteger();

	/**
	 * The buffer given back last, taken first: one batch after another passes its buffer
	 * on without the deque's node and counter.
	 */
	private final AtomicReference<@Nullable ByteBuf> lastBuffer = new AtomicReference<>();

	/**
	 * The limits and checks of every server's pool: a connection is checked on borrow and
	 * on return, the most recently returned is lent first, and no JMX.
	 * @param maxActive the most connections
	 * @param maxIdle the most idle connections kept
	 * @param minIdle the idle connections kept open (evicted ones are replaced every 30
	 * s)
	 * @param maxWait the longest wait for a connection
	 * @return the configuration
	 */
	static GenericObjectPoolConfig<BatchConnection> config(int maxActive, int maxIdle, int minIdle, Duration maxWait) {
		GenericObjectPoolConfig<BatchConnection> config = new GenericObjectPoolConfig<>();
		config.setMaxTotal(maxActive);
		config.setMaxIdle(maxIdle);
		config.setMinIdle(minIdle);
		config.setMaxWait(maxWait);
		config.setBlockWhenExhausted(true);
		config.setTestOnBorrow(true);
		config.setTestOnReturn(true);
		config.setLifo(true);
		config.setJmxEnabled(false);
		// the pool's gauges are counts; mean and maximum durations are not reported, and
		// collecting them costs every borrow and return clock reads and a lock (the
		// switch is commons-pool2 2.12's: Spring Boot 4.0 manages an older one)
		if (DETAILED_STATISTICS_SWITCH) {
			config.setCollectDetailedStatistics(false);
		}
		if (minIdle > 0) {
			config.setTimeBetweenEvictionRuns(Duration.ofSeconds(30));
		}
		return config;
	}

	/**
	 * Create the pool of one server. No connection is opened yet.
	 * @param address the server, as {@code host:port} (or the Sentinel master's name):
	 * for messages, never with credentials
	 * @param open opens a connection to the server
	 * @param config the pool limits
	 * @param exhausted counts the times a caller found no connection in time
	 */
	NodePool(String address, Supplier<BatchConnection> open, GenericObjectPoolConfig<BatchConnection> config,
			LongAdder exhausted) {
		this.address = address;
		int colon = address.lastIndexOf(':');
		this.host = (colon > 0) ? address.substring(0, colon) : address;
		this.maxWait = config.getMaxWaitDuration();
		this.exhausted = exhausted;
		this.factory = new PooledConnections(() -> this.limits.learn(open.get()), this.retired, this::stillOpen);
		this.pool = new GenericObjectPool<>(this.factory, config);
		this.keepsLast = config.getMinIdle() == 0;
	}

	/**
	 * The server, as {@code host:port}: for messages.
	 */
	String address() {
		return this.address;
	}

	/**
	 * The server's host: the part of the address before its port.
	 */
	String host() {
		return this.host;
	}

	/**
	 * The largest key, value or argument the server accepts ({@code proto-max-bulk-len}),
	 * as learned when a connection opened; Redis's default when the server does not say.
	 */
	long maxBulkBytes() {
		return this.limits.maxBulkBytes();
	}

	/**
	 * Whether a connection's socket is still open, as far as can be told now. On the fast
	 * path, when the batch's thread reads the socket, the event loop does not, and only a
	 * read finds that the server closed it. On the portable path, Lettuce reads it, and
	 * knows.
	 */
	private boolean stillOpen(BatchConnection connection) {
		WireLease wire = connection.wire();
		return (wire != null) ? wire.checkOpen() : connection.isOpen();
	}

	/**
	 * A chunk buffer a batch gave back, empty, or {@code null}.
	 */
	@Nullable ByteBuf takeBuffer() {
		ByteBuf last = this.lastBuffer.getAndSet(null);
		if (last != null) {
			return last;
		}
		ByteBuf buffer = this.buffers.poll();
		if (buffer != null) {
			this.keptBuffers.decrementAndGet();
		}
		return buffer;
	}

	/**
	 * Keep a chunk buffer for a later batch, unless enough are kept (two per connection,
	 * and the last one given back) or it is larger than {@link #KEPT_BUFFER_BYTES}.
	 * @param buffer an empty buffer that nothing else refers to
	 */
	void keepBuffer(ByteBuf buffer) {
		if (buffer.capacity() > KEPT_BUFFER_BYTES) {
			return;
		}
		if (this.lastBuffer.compareAndSet(null, buffer)) {
			return;
		}
		if (this.keptBuffers.incrementAndGet() > 2 * this.pool.getMaxTotal()) {
			this.keptBuffers.decrementAndGet();
			return;
		}
		this.buffers.push(buffer);
	}

	/**
	 * Borrow a connection, waiting at most the pool's maximum wait.
	 * <p>
	 * A new connection that closed before it could be used (killed, or dropped by
	 * something between, during or right after its handshake) is replaced once, within
	 * the same wait: nothing was sent on it.
	 * @return an open connection
	 * @throws BatchPoolExhaustedException if the maximum wait passed while every
	 * connection was leased
	 * @throws RedisConnectionFailureException if a connection could not be opened or
	 * used: refused, authentication, TLS, a timeout, or closed before its first command
	 */
	BatchConnection borrow() {
		this.borrowing.incrementAndGet();
		try {
			BatchConnection connection = this.parked.getAndSet(null);
			if (connection != null) {
				if (this.factory.usable(connection)) {
					return connection;
				}
				invalidate(connection);
			}
			return borrowFromPool();
		}
		finally {
			this.borrowing.decrementAndGet();
		}
	}

	private BatchConnection borrowFromPool() {
		long start = System.nanoTime();
		try {
			try {
				return this.pool.borrowObject(this.maxWait);
			}
			catch (RuntimeException ex) {
				if (!closedBeforeUse(ex)) {
					throw ex;
				}
				return this.pool.borrowObject(remainingWait(start));
			}
		}
		catch (NoSuchElementException ex) {
			// commons-pool2 gives a cause when a new connection failed on borrow; without
			// one, the wait passed with the pool at its limit
			throw (ex.getCause() != null) ? translate(ex.getCause()) : exhausted(start);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisConnectionFailureException("Interrupted while waiting for a batch connection", ex);
		}
		catch (Exception ex) {
			throw translate(ex);
		}
	}

	/**
	 * Whether a borrow failed on a new connection that closed before it could be used:
	 * during its handshake (thrown by the factory's create as it is) or right after it
	 * (found by the check on borrow, and given by commons-pool2 as the cause).
	 */
	private static boolean closedBeforeUse(RuntimeException ex) {
		return ex instanceof PooledConnections.ClosedBeforeUse
				|| (ex instanceof NoSuchElementException && ex.getCause() instanceof PooledConnections.ClosedBeforeUse);
	}

	private Duration remainingWait(long start) {
		Duration remaining = this.maxWait.minusNanos(System.nanoTime() - start);
		// never negative: commons-pool2 waits without bound for a negative duration
		return remaining.isNegative() ? Duration.ZERO : remaining;
	}

	private BatchPoolExhaustedException exhausted(long start) {
		this.exhausted.increment();
		return new BatchPoolExhaustedException(Messages.poolExhausted(this.address, this.maxWait,
				Duration.ofNanos(System.nanoTime() - start), this.pool.getNumActive(), this.pool.getMaxTotal()));
	}

	/**
	 * Give a healthy connection back.
	 * @param connection the connection
	 */
	void release(BatchConnection connection) {
		if (!connection.isOpen()) {
			invalidate(connection);
			return;
		}
		// Batches never switch auto-flush off on pooled connections; this keeps the
		// invariant even if a future code path does.
		connection.lettuce().setAutoFlushCommands(true);
		if (!this.keepsLast || !this.parked.compareAndSet(null, connection)) {
			this.pool.returnObject(connection);
			return;
		}
		if (this.borrowing.get() > 0 || this.closed) {
			unpark();
		}
	}

	/**
	 * Give the parked connection, if any, to commons-pool2: a borrow there may wait for
	 * it.
	 */
	private void unpark() {
		BatchConnection connection = this.parked.getAndSet(null);
		if (connection != null) {
			this.pool.returnObject(connection);
		}
	}

	/**
	 * Close a connection that broke or still has unanswered commands, and remove it from
	 * the pool. It is retired through a failed validation on return rather than
	 * {@code invalidateObject}, which would open a replacement connection at once, on
	 * this thread, towards a server that may be failing.
	 * @param connection the connection
	 */
	void invalidate(BatchConnection connection) {
		this.retired.add(connection);
		connection.lettuce().closeAsync();
		this.pool.returnObject(connection);
	}

	int active() {
		return Math.max(0, this.pool.getNumActive() - parkedCount());
	}

	int idle() {
		return this.pool.getNumIdle() + parkedCount();
	}

	private int parkedCount() {
		return (this.parked.get() != null) ? 1 : 0;
	}

	int waiting() {
		return this.pool.getNumWaiters();
	}

	long created() {
		return this.pool.getCreatedCount();
	}

	long destroyed() {
		return this.pool.getDestroyedCount();
	}

	/**
	 * Close every idle connection, and the others as they come back; wait briefly for
	 * them to close, so that the client does not close them a second time when it shuts
	 * down.
	 */
	void close() {
		// a connection given back from now on goes to the closed pool, which closes it
		this.closed = true;
		unpark();
		this.pool.close();
		this.factory.awaitClosing(Duration.ofSeconds(2));
	}

	/**
	 * The failure to open or use a connection, as a
	 * {@link RedisConnectionFailureException} that names the server and what happened.
	 */
	private DataAccessException translate(Throwable ex) {
		if (ex instanceof PooledConnections.ClosedBeforeUse closed) {
			Throwable handshake = closed.getCause();
			return (handshake != null)
					? new RedisConnectionFailureException(Messages.cannotOpen(this.address, handshake), handshake)
					: new RedisConnectionFailureException(Messages.closedBeforeUse(this.address));
		}
		if (ex instanceof DataAccessException dataAccess) {
			return dataAccess;
		}
		return new RedisConnectionFailureException(Messages.cannotOpen(this.address, ex), ex);
	}

}
