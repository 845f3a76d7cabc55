package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.util.Assert;

/**
 * The connections batches run on: a commons-pool2 pool of long-lived Lettuce connections
 * of its own, separate from the application's shared connection, so that a large batch
 * never delays the rest of the application.
 * <p>
 * The connections are configured for batches:
 * <ul>
 * <li>they never reconnect and re-send commands on their own (at-most-once): a connection
 * that breaks is closed and leaves the pool, and its unanswered commands become
 * {@link Outcome#UNKNOWN};</li>
 * <li>Lettuce's per-command timeouts are off, because each chunk has its own
 * deadline;</li>
 * <li>they have their own event loops and no per-command tracing.</li>
 * </ul>
 * The pool is bounded: a caller waits at most {@code maxWait} for a connection and then
 * gets a {@link BatchPoolExhaustedException}.
 * <p>
 * Spring Boot creates one from {@code spring.data.redis.*} and
 * {@code redis.batch.pool.*}; without Boot, use {@link #builder(RedisURI)} or
 * {@link #clusterBuilder(Iterable)}.
 *
 * @since 0.1.0
 */
public final class BatchConnectionPool implements AutoCloseable {

	private static final LettuceExceptionConverter EXCEPTION_CONVERTER = new LettuceExceptionConverter();

	/**
	 * Redis's default {@code proto-max-bulk-len}, used until the server says otherwise.
	 */
	private static final long DEFAULT_MAX_BULK_BYTES = 512L * 1024 * 1024;

	private final AbstractRedisClient client;

	private final @Nullable ClientResources ownedResources;

	private final GenericObjectPool<StatefulConnection<byte[], byte[]>> pool;

	private final Topology topology;

	private final Duration maxWait;

	private final LongAdder exhausted = new LongAdder();

	private final Set<StatefulConnection<byte[], byte[]>> retired = ConcurrentHashMap.newKeySet();

	private final AtomicInteger opening = new AtomicInteger();

	private volatile long maxBulkBytes = DEFAULT_MAX_BULK_BYTES;

	private final ChannelRegistry channels = new ChannelRegistry();

	private final ConnectionFactory factory;

	private final ExecutorService connector = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "redis-batch-connector");
		thread.setDaemon(true);
		return thread;
	});

	private BatchConnectionPool(Builder builder) {
		ClientResources resources = builder.clientResources;
		// Batches measure themselves: no per-command latency recording on batch
		// connections. The Netty customizer lets a chunk be written to a connection's
		// channel as one message.
		this.ownedResources = (resources != null) ? null
				: DefaultClientResources.builder()
					.commandLatencyRecorder(CommandLatencyRecorder.disabled())
					.nettyCustomizer(this.channels)
					.build();
		ClientResources used = (resources != null) ? resources : this.ownedResources;
		this.topology = builder.topology();
		this.client = builder.createClient(used);
		this.maxWait = builder.maxWait;
		Supplier<StatefulConnection<byte[], byte[]>> connector = builder.connector(this.client);
		this.factory = new ConnectionFactory(() -> learnLimits(connector.get()), this.retired);
		this.pool = new GenericObjectPool<>(this.factory, poolConfig(builder));
	}

	/**
	 * A builder for a pool of connections to a standalone server, or to the master that
	 * Redis Sentinel names when the URI is a sentinel URI.
	 * @param uri the server, for example
	 * {@code RedisURI.create("redis://localhost:6379")}
	 * @return a builder
	 */
	public static Builder builder(RedisURI uri) {
		Assert.notNull(uri, "uri must not be null");
		return new Builder(List.of(uri), false);
	}

	/**
	 * A builder for a pool of connections to a Redis Cluster.
	 * @param seeds nodes to discover the cluster from
	 * @return a builder
	 */
	public static Builder clusterBuilder(Iterable<RedisURI> seeds) {
		Assert.notNull(seeds, "seeds must not be null");
		List<RedisURI> list = new ArrayList<>();
		seeds.forEach(list::add);
		Assert.notEmpty(list, "at least one cluster node is required");
		return new Builder(list, true);
	}

	/**
	 * What kind of deployment the pool connects to.
	 * @return the topology
	 */
	public Topology topology() {
		return this.topology;
	}

	/**
	 * The number of connections lent to running batches.
	 * @return the active count
	 */
	public int getActive() {
		return this.pool.getNumActive();
	}

	/**
	 * The number of connections open and waiting in the pool.
	 * @return the idle count
	 */
	public int getIdle() {
		return this.pool.getNumIdle();
	}

	/**
	 * The number of callers waiting for a connection.
	 * @return the waiting count
	 */
	public int getWaiting() {
		return this.pool.getNumWaiters();
	}

	/**
	 * The largest number of connections the pool opens.
	 * @return the maximum
	 */
	public int getMaxActive() {
		return this.pool.getMaxTotal();
	}

	/**
	 * How many connections the pool has opened since it was created.
	 * @return the count
	 */
	public long getCreatedCount() {
		return this.pool.getCreatedCount();
	}

	/**
	 * How many connections the pool has closed since it was created (broken ones
	 * included).
	 * @return the count
	 */
	public long getDestroyedCount() {
		return this.pool.getDestroyedCount();
	}

	/**
	 * How many times a caller found no connection within the maximum wait.
	 * @return the count
	 */
	public long getExhaustedCount() {
		return this.exhausted.sum();
	}

	/**
	 * The largest key, value or argument the server accepts ({@code proto-max-bulk-len}),
	 * as learned when a connection opened; Redis's default when the server does not say.
	 */
	long maxBulkBytes() {
		return this.maxBulkBytes;
	}

	/**
	 * Ask a new connection's server for its {@code proto-max-bulk-len}, so that a value
	 * it would refuse is rejected before it is sent (a server that refuses one mid-stream
	 * closes the connection, and the replies before it can be lost).
	 */
	private StatefulConnection<byte[], byte[]> learnLimits(StatefulConnection<byte[], byte[]> connection) {
		if (connection instanceof StatefulRedisConnection<byte[], byte[]> standalone) {
			try {
				String value = standalone.sync().configGet("proto-max-bulk-len").get("proto-max-bulk-len");
				if (value != null) {
					this.maxBulkBytes = Long.parseLong(value.trim());
				}
			}
			catch (RuntimeException ex) {
				// CONFIG may be disabled or not permitted: keep Redis's default
			}
		}
		return connection;
	}

	/**
	 * The Netty channel of a standalone connection, to write a whole chunk as one
	 * message; {@code null} when the pool does not know it (cluster connections, or
	 * client resources the pool did not create), and the chunk goes through Lettuce's
	 * per-command dispatch instead.
	 */
	@Nullable Channel channelOf(StatefulConnection<byte[], byte[]> connection) {
		if (connection instanceof RedisChannelHandler<?, ?> handler) {
			return this.channels.get(handler.getChannelWriter());
		}
		return null;
	}

	/**
	 * The Lettuce resources of the pool's client.
	 */
	ClientResources clientResources() {
		return this.client.getResources();
	}

	/**
	 * Borrow a connection, waiting at most the pool's maximum wait.
	 * @return an open connection
	 * @throws BatchPoolExhaustedException if none became free in time
	 * @throws DataAccessException if a new connection could not be opened
	 */
	StatefulConnection<byte[], byte[]> borrow() {
		try {
			return this.pool.borrowObject(this.maxWait);
		}
		catch (NoSuchElementException ex) {
			if (ex.getCause() != null) {
				throw translate(ex.getCause());
			}
			this.exhausted.increment();
			throw new BatchPoolExhaustedException("No batch connection became free within " + this.maxWait + ": all "
					+ this.pool.getMaxTotal() + " connections of the batch pool are in use (raise "
					+ "redis.batch.pool.max-active or max-wait, or lower the parallelism of concurrent batches)");
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
	 * Borrow an idle connection if there is one; never opens one on this thread.
	 * @return a connection, or {@code null}
	 */
	@Nullable StatefulConnection<byte[], byte[]> tryBorrowIdle() {
		if (this.pool.getNumIdle() == 0) {
			return null;
		}
		try {
			return this.pool.borrowObject(Duration.ZERO);
		}
		catch (Exception ex) {
			return null;
		}
	}

	/**
	 * Open up to {@code wanted} more connections in the background, within
	 * {@code maxActive}, so that a batch asking for parallelism finds them idle later
	 * without ever waiting for a connection handshake itself (which, against a stopped
	 * server, would take the whole connect timeout).
	 * @param wanted how many more connections a batch would use
	 */
	void openInBackground(int wanted) {
		int room = this.pool.getMaxTotal() - (this.pool.getNumActive() + this.pool.getNumIdle() + this.opening.get());
		for (int i = 0; i < Math.min(wanted, room); i++) {
			this.opening.incrementAndGet();
			try {
				this.connector.execute(() -> {
					try {
						this.pool.addObject();
					}
					catch (Exception ex) {
						// the batch that asked goes on with the connections it has
					}
					finally {
						this.opening.decrementAndGet();
					}
				});
			}
			catch (RejectedExecutionException ex) {
				this.opening.decrementAndGet();
			}
		}
	}

	/**
	 * Give a healthy connection back.
	 * @param connection the connection
	 */
	void release(StatefulConnection<byte[], byte[]> connection) {
		if (!connection.isOpen()) {
			invalidate(connection);
			return;
		}
		// Batches never switch auto-flush off on pooled connections; this keeps the
		// invariant even if a future code path does.
		connection.setAutoFlushCommands(true);
		this.pool.returnObject(connection);
	}

	/**
	 * Close a connection that broke or still has unanswered commands, and remove it from
	 * the pool. It is retired through a failed validation on return rather than
	 * {@code invalidateObject}, which would open a replacement connection at once, on
	 * this thread, towards a server that may be failing.
	 * @param connection the connection
	 */
	void invalidate(StatefulConnection<byte[], byte[]> connection) {
		this.retired.add(connection);
		connection.closeAsync();
		this.pool.returnObject(connection);
	}

	/**
	 * Close every connection and release the client. Connections lent to running batches
	 * are closed as they come back.
	 */
	@Override
	public void close() {
		this.connector.shutdownNow();
		this.pool.close();
		this.factory.awaitClosing(Duration.ofSeconds(2));
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		if (this.ownedResources != null) {
			this.ownedResources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	private static DataAccessException translate(Throwable ex) {
		if (ex instanceof DataAccessException dataAccess) {
			return dataAccess;
		}
		if (ex instanceof Exception exception) {
			DataAccessException translated = EXCEPTION_CONVERTER.convert(exception);
			if (translated != null) {
				return translated;
			}
		}
		return new RedisConnectionFailureException("Cannot open a batch connection: " + ex.getMessage(), ex);
	}

	private static GenericObjectPoolConfig<StatefulConnection<byte[], byte[]>> poolConfig(Builder builder) {
		GenericObjectPoolConfig<StatefulConnection<byte[], byte[]>> config = new GenericObjectPoolConfig<>();
		config.setMaxTotal(builder.maxActive);
		config.setMaxIdle(builder.maxIdle);
		config.setMinIdle(builder.minIdle);
		config.setMaxWait(builder.maxWait);
		config.setBlockWhenExhausted(true);
		config.setTestOnBorrow(true);
		config.setTestOnReturn(true);
		config.setLifo(true);
		config.setJmxEnabled(false);
		if (builder.minIdle > 0) {
			config.setTimeBetweenEvictionRuns(Duration.ofSeconds(30));
		}
		return config;
	}

	/**
	 * Knows the Netty channel of each connection the pool's client opens, by the endpoint
	 * (channel writer) of Lettuce's command handler on it.
	 */
	private static final class ChannelRegistry implements NettyCustomizer {

		private final Map<Object, Channel> channels = new ConcurrentHashMap<>();

		@Override
		public void afterChannelInitialized(Channel channel) {
			CommandHandler handler = channel.pipeline().get(CommandHandler.class);
			if (handler != null) {
				Object endpoint = handler.getEndpoint();
				this.channels.put(endpoint, channel);
				channel.closeFuture().addListener((closed) -> this.channels.remove(endpoint, channel));
			}
		}

		@Nullable Channel get(Object endpoint) {
			return this.channels.get(endpoint);
		}

	}

	/**
	 * The kind of deployment a pool connects to.
	 */
	public enum Topology {

		/**
		 * One server.
		 */
		STANDALONE,

		/**
		 * The master that Redis Sentinel names.
		 */
		SENTINEL,

		/**
		 * A Redis Cluster.
		 */
		CLUSTER

	}

	/**
	 * Opens, checks and closes pooled connections.
	 */
	private static final class ConnectionFactory extends BasePooledObjectFactory<StatefulConnection<byte[], byte[]>> {

		private final Supplier<StatefulConnection<byte[], byte[]>> connector;

		private final Set<StatefulConnection<byte[], byte[]>> retired;

		private final Set<CompletableFuture<Void>> closing = ConcurrentHashMap.newKeySet();

		ConnectionFactory(Supplier<StatefulConnection<byte[], byte[]>> connector,
				Set<StatefulConnection<byte[], byte[]>> retired) {
			this.connector = connector;
			this.retired = retired;
		}

		@Override
		public StatefulConnection<byte[], byte[]> create() {
			return this.connector.get();
		}

		@Override
		public PooledObject<StatefulConnection<byte[], byte[]>> wrap(StatefulConnection<byte[], byte[]> connection) {
			return new DefaultPooledObject<>(connection);
		}

		@Override
		public boolean validateObject(PooledObject<StatefulConnection<byte[], byte[]>> pooled) {
			StatefulConnection<byte[], byte[]> connection = pooled.getObject();
			return connection.isOpen() && !this.retired.contains(connection);
		}

		@Override
		public void destroyObject(PooledObject<StatefulConnection<byte[], byte[]>> pooled) {
			StatefulConnection<byte[], byte[]> connection = pooled.getObject();
			this.retired.remove(connection);
			CompletableFuture<Void> closed = connection.closeAsync();
			this.closing.add(closed);
			closed.whenComplete((result, failure) -> this.closing.remove(closed));
		}

		/**
		 * Wait (briefly) for the connections being closed, so that the client does not
		 * close them a second time when it shuts down.
		 */
		void awaitClosing(Duration timeout) {
			try {
				CompletableFuture.allOf(this.closing.toArray(CompletableFuture[]::new))
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				// the client's shutdown closes whatever is left
			}
		}

	}

	/**
	 * Builds a {@link BatchConnectionPool}.
	 */
	public static final class Builder {

		private final List<RedisURI> uris;

		private final boolean cluster;

		private @Nullable ClientResources clientResources;

		private @Nullable SslOptions sslOptions;

		private Duration connectTimeout = Duration.ofSeconds(10);

		private int maxActive = 8;

		private int maxIdle = 8;

		private int minIdle = 0;

		private Duration maxWait = Duration.ofSeconds(5);

		private Builder(List<RedisURI> uris, boolean cluster) {
			this.uris = uris;
			this.cluster = cluster;
		}

		/**
		 * Use these client resources (event loops) instead of creating them. They are not
		 * shut down with the pool. Per-command tracing configured on them applies to
		 * batch commands too, so prefer the default.
		 * @param clientResources the resources
		 * @return this builder
		 */
		public Builder clientResources(ClientResources clientResources) {
			this.clientResources = clientResources;
			return this;
		}

		/**
		 * TLS settings (trust and key material, protocols) for URIs that use TLS.
		 * @param sslOptions the options
		 * @return this builder
		 */
		public Builder sslOptions(SslOptions sslOptions) {
			this.sslOptions = sslOptions;
			return this;
		}

		/**
		 * How long opening a connection (TCP connect and handshake) may take.
		 * @param connectTimeout a positive duration
		 * @return this builder
		 */
		public Builder connectTimeout(Duration connectTimeout) {
			Assert.isTrue(connectTimeout != null && !connectTimeout.isNegative() && !connectTimeout.isZero(),
					"connectTimeout must be positive");
			this.connectTimeout = connectTimeout;
			return this;
		}

		/**
		 * The largest number of connections, in use or idle.
		 * @param maxActive at least 1
		 * @return this builder
		 */
		public Builder maxActive(int maxActive) {
			Assert.isTrue(maxActive >= 1, "maxActive must be at least 1");
			this.maxActive = maxActive;
			return this;
		}

		/**
		 * The largest number of idle connections kept open.
		 * @param maxIdle at least 0
		 * @return this builder
		 */
		public Builder maxIdle(int maxIdle) {
			Assert.isTrue(maxIdle >= 0, "maxIdle must not be negative");
			this.maxIdle = maxIdle;
			return this;
		}

		/**
		 * The number of idle connections the pool tries to keep open.
		 * @param minIdle at least 0
		 * @return this builder
		 */
		public Builder minIdle(int minIdle) {
			Assert.isTrue(minIdle >= 0, "minIdle must not be negative");
			this.minIdle = minIdle;
			return this;
		}

		/**
		 * How long a batch waits for a free connection before it fails. Never unbounded.
		 * @param maxWait a positive duration
		 * @return this builder
		 */
		public Builder maxWait(Duration maxWait) {
			Assert.isTrue(maxWait != null && !maxWait.isNegative() && !maxWait.isZero(),
					"maxWait must be positive: the batch pool never waits without bound");
			this.maxWait = maxWait;
			return this;
		}

		/**
		 * Create the pool. No connection is opened until a batch needs one.
		 * @return the pool
		 */
		public BatchConnectionPool build() {
			Assert.isTrue(this.minIdle <= this.maxIdle, "minIdle must not exceed maxIdle");
			Assert.isTrue(this.maxIdle <= this.maxActive, "maxIdle must not exceed maxActive");
			return new BatchConnectionPool(this);
		}

		private Topology topology() {
			if (this.cluster) {
				return Topology.CLUSTER;
			}
			return this.uris.get(0).getSentinels().isEmpty() ? Topology.STANDALONE : Topology.SENTINEL;
		}

		private AbstractRedisClient createClient(ClientResources resources) {
			for (RedisURI uri : this.uris) {
				// The handshake (HELLO, AUTH, SELECT) uses the URI timeout; commands use
				// per-chunk deadlines instead.
				uri.setTimeout(this.connectTimeout);
			}
			SocketOptions socketOptions = SocketOptions.builder()
				.connectTimeout(this.connectTimeout)
				.keepAlive(true)
				.tcpNoDelay(true)
				.build();
			TimeoutOptions noCommandTimeouts = TimeoutOptions.builder().timeoutCommands(false).build();
			if (this.cluster) {
				ClusterClientOptions.Builder options = ClusterClientOptions.builder()
					.autoReconnect(false)
					.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
					.timeoutOptions(noCommandTimeouts)
					.socketOptions(socketOptions);
				options.useHashIndexQueue(false);
				if (this.sslOptions != null) {
					options.sslOptions(this.sslOptions);
				}
				RedisClusterClient clusterClient = RedisClusterClient.create(resources, this.uris);
				clusterClient.setOptions(options.build());
				return clusterClient;
			}
			// A plain queue of commands awaiting replies: batches never cancel single
			// commands,
			// so the hash index Lettuce keeps for that only costs time.
			ClientOptions.Builder options = ClientOptions.builder()
				.useHashIndexQueue(false)
				.autoReconnect(false)
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.timeoutOptions(noCommandTimeouts)
				.socketOptions(socketOptions);
			if (this.sslOptions != null) {
				options.sslOptions(this.sslOptions);
			}
			RedisClient redisClient = RedisClient.create(resources);
			redisClient.setOptions(options.build());
			return redisClient;
		}

		private Supplier<StatefulConnection<byte[], byte[]>> connector(AbstractRedisClient client) {
			if (client instanceof RedisClusterClient clusterClient) {
				return () -> clusterClient.connect(ByteArrayCodec.INSTANCE);
			}
			RedisClient redisClient = (RedisClient) client;
			RedisURI uri = this.uris.get(0);
			return () -> redisClient.connect(ByteArrayCodec.INSTANCE, uri);
		}

	}

}
