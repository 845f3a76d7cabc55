package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import java.util.function.Supplier;

import dev.redisbatch.internals.Compatibility;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.ReauthenticateBehavior;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisConnectionFailureException;
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
 * gets a {@link BatchPoolExhaustedException}. A connection that cannot be opened or used
 * (refused, authentication, TLS, a timeout, closed before its first command) is a
 * {@link org.springframework.data.redis.RedisConnectionFailureException} instead, as soon
 * as the attempt fails; either is the cause of the batch's {@link BatchException}.
 * <p>
 * Spring Boot creates one from {@code spring.data.redis.*} and
 * {@code redis.batch.pool.*}; without Boot, use {@link #builder(RedisURI)} or
 * {@link #clusterBuilder(Iterable)}.
 *
 * @since 0.1.0
 */
public final class BatchConnectionPool implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(BatchConnectionPool.class);

	/**
	 * The default largest number of connections to one server.
	 */
	public static final int DEFAULT_MAX_ACTIVE = 8;

	/**
	 * The default longest wait for a free connection.
	 */
	public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(5);

	/**
	 * The default longest time to open a connection (TCP connect and handshake).
	 */
	public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * The system property that, set to {@code false}, makes the portable path the default
	 * of every pool built after ({@link Builder#fastPath(boolean)}): a switch for
	 * operators, without a change of code. Spring Boot applications set the property of
	 * the same name instead.
	 * @since 0.1.0
	 */
	public static final String FAST_PATH_PROPERTY = "redis.batch.fast-path.enabled";

	private final Topology topology;

	private final List<RedisURI> uris;

	private final BatchClients clients;

	private final GenericObjectPoolConfig<BatchConnection> poolConfig;

	private final LongAdder exhausted = new LongAdder();

	/**
	 * The threads of the async batches of every template on this pool.
	 */
	private final AsyncBatches asyncBatches = new AsyncBatches();

	/**
	 * The server of a standalone or Sentinel pool; {@code null} for a cluster.
	 */
	private final @Nullable NodePool server;

	/**
	 * The masters of a cluster; {@code null} for a standalone or Sentinel pool.
	 */
	private final @Nullable ClusterMasters masters;

	private BatchConnectionPool(Builder builder) {
		this.topology = builder.topology();
		this.uris = builder.connectionUris();
		String description = describe(this.topology, this.uris);
		this.clients = new BatchClients(description, builder.fastPath, builder.fastPathChecks, builder.clientResources,
				builder.sslOptions, builder.connectTimeout, builder.reauthenticate, builder.clientOptions);
		this.poolConfig = NodePool.config(builder.maxActive, builder.effectiveMaxIdle(), builder.effectiveMinIdle(),
				builder.maxWait);
		if (this.topology == Topology.CLUSTER) {
			this.server = null;
			this.masters = new ClusterMasters(this.clients.clusterClient(this.uris), this.uris.get(0),
					(address, uri) -> newNodePool(address, this.clients.connector(uri)));
		}
		else {
			this.masters = null;
			this.server = newNodePool(description, this.clients.connector(this.uris.get(0)));
		}
	}

	private static String describe(Topology topology, List<RedisURI> uris) {
		RedisURI uri = uris.get(0);
		return switch (topology) {
			case SENTINEL -> "the master '" + uri.getSentinelMasterId() + "' named by Sentinel";
			case CLUSTER -> "the cluster of " + uri.getHost() + ":" + uri.getPort();
			case STANDALONE -> uri.getHost() + ":" + uri.getPort();
		};
	}

	private NodePool newNodePool(String address, Supplier<BatchConnection> open) {
		return new NodePool(address, open, this.poolConfig, this.exhausted);
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
	 * A builder for a pool that connects where an application's Spring Data Redis
	 * {@link org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory
	 * LettuceConnectionFactory} connects, for Spring applications without Spring Boot.
	 * The pool is still a pool of its own: the factory is only read, never used or
	 * changed, and need not be started.
	 * <p>
	 * It takes from the factory a standalone server and its database, the master that
	 * Redis Sentinel names, or a Redis Cluster; the user and password (or credentials
	 * provider); TLS with its peer verification mode and {@code SslOptions}; the connect
	 * timeout and re-authentication behaviour of the client options; and the client name,
	 * with {@code -batch} appended ({@code redis-batch} when the factory sets none). The
	 * factory's command timeout, {@code ReadFrom} and client resources do not apply to
	 * batches.
	 * @param connectionFactory a {@code LettuceConnectionFactory} with a standalone,
	 * Sentinel or Cluster configuration
	 * @return a builder, on which pool settings can still be changed
	 * @throws IllegalArgumentException if the factory is of another kind (Jedis, for
	 * example) or uses a Unix domain socket or a static master/replica configuration: use
	 * {@link #builder(RedisURI)} or {@link #clusterBuilder(Iterable)} then
	 */
	public static Builder builder(org.springframework.data.redis.connection.RedisConnectionFactory connectionFactory) {
		return ConnectionFactoryUris.builder(connectionFactory);
	}

	/**
	 * A builder for a pool of connections to a Redis Cluster: connections to each master,
	 * found from the cluster's topology.
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
	 * The number of connections lent to running batches (to every master, on a cluster).
	 * @return the active count
	 */
	public int getActive() {
		return nodes().stream().mapToInt(NodePool::active).sum();
	}

	/**
	 * The number of connections open and waiting in the pool (to every master, on a
	 * cluster).
	 * @return the idle count
	 */
	public int getIdle() {
		return nodes().stream().mapToInt(NodePool::idle).sum();
	}

	/**
	 * The number of callers waiting for a connection.
	 * @return the waiting count
	 */
	public int getWaiting() {
		return nodes().stream().mapToInt(NodePool::waiting).sum();
	}

	/**
	 * The largest number of connections the pool opens to one server (to each master, on
	 * a cluster).
	 * @return the maximum
	 */
	public int getMaxActive() {
		return this.poolConfig.getMaxTotal();
	}

	/**
	 * The largest number of idle connections the pool keeps open to one server: the
	 * builder's {@code maxIdle}, capped at {@link #getMaxActive()}.
	 * @return the effective maximum
	 */
	public int getMaxIdle() {
		return this.poolConfig.getMaxIdle();
	}

	/**
	 * The number of idle connections the pool tries to keep open to one server: the
	 * builder's {@code minIdle}, capped at {@link #getMaxIdle()}.
	 * @return the effective minimum
	 */
	public int getMinIdle() {
		return this.poolConfig.getMinIdle();
	}

	/**
	 * How many connections the pool has opened since it was created.
	 * @return the count
	 */
	public long getCreatedCount() {
		return nodes().stream().mapToLong(NodePool::created).sum();
	}

	/**
	 * How many connections the pool has closed since it was created (broken ones
	 * included).
	 * @return the count
	 */
	public long getDestroyedCount() {
		return nodes().stream().mapToLong(NodePool::destroyed).sum();
	}

	/**
	 * How many times a caller found no connection within the maximum wait.
	 * @return the count
	 */
	public long getExhaustedCount() {
		return this.exhausted.sum();
	}

	private Collection<NodePool> nodes() {
		NodePool single = this.server;
		return (single != null) ? List.of(single) : cluster().pools();
	}

	/**
	 * The server of a standalone or Sentinel pool.
	 */
	NodePool server() {
		NodePool single = this.server;
		Assert.state(single != null, "A cluster pool has one pool per master: route by slot");
		return single;
	}

	/**
	 * The Netty channel of one of the pool's connections, or {@code null} when it is not
	 * (or no longer) known: for tests.
	 */
	@Nullable Channel channelOf(BatchConnection connection) {
		return this.clients.channelOf(connection);
	}

	/**
	 * The master that serves a slot, as the pool's view of the cluster topology says.
	 * @throws RedisConnectionFailureException when the topology cannot be read or names
	 * no master for the slot
	 */
	RedisClusterNode masterNode(int slot) {
		return cluster().masterNode(slot);
	}

	/**
	 * The pool of a master of the topology.
	 */
	NodePool master(RedisClusterNode node) {
		return cluster().master(node);
	}

	/**
	 * The pool of the master at an address (as a {@code MOVED} or {@code ASK} reply names
	 * it).
	 */
	NodePool master(String host, int port) {
		return cluster().master(host, port);
	}

	/**
	 * The pools of the masters, by the lowest hash slot each serves, in slot order: on a
	 * cluster, the masters of the pool's current view of the topology that serve slots
	 * (never replicas); on a standalone or Sentinel pool, the one server, under
	 * {@link ScanCursor#SINGLE_SERVER}. A replica that takes over from a master serves
	 * the same slots, so it is found under the same key.
	 * @throws RedisConnectionFailureException when the topology cannot be read or names
	 * no master
	 */
	SortedMap<Integer, NodePool> mastersByLowestSlot() {
		NodePool single = this.server;
		return (single != null) ? new TreeMap<>(Map.of(ScanCursor.SINGLE_SERVER, single)) : cluster().byLowestSlot();
	}

	/**
	 * Read the cluster topology again (after a {@code MOVED} reply or a lost master).
	 * Failures are ignored: the old view stays, and commands are redirected as needed.
	 */
	void refreshTopology() {
		cluster().refresh();
	}

	private ClusterMasters cluster() {
		ClusterMasters cluster = this.masters;
		Assert.state(cluster != null, "Not a cluster pool");
		return cluster;
	}

	/**
	 * The Lettuce resources of the pool's client.
	 */
	ClientResources clientResources() {
		return this.clients.resources();
	}

	/**
	 * Close every connection and release the client. Connections lent to running batches
	 * are closed as they come back.
	 */
	@Override
	public void close() {
		// batches still running end as the connections close
		this.asyncBatches.shutdown();
		ClusterMasters cluster = this.masters;
		if (cluster != null) {
			cluster.close();
		}
		else {
			server().close();
		}
		this.clients.close();
	}

	/**
	 * The threads that run the async batches of the templates on this pool, unless a
	 * template was given an executor of its own.
	 */
	Executor asyncExecutor() {
		return this.asyncBatches.executor();
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
	 * Builds a {@link BatchConnectionPool}.
	 */
	public static final class Builder {

		private final List<RedisURI> uris;

		private final boolean cluster;

		private boolean fastPath = !"false".equals(System.getProperty(FAST_PATH_PROPERTY));

		private Supplier<List<String>> fastPathChecks = Compatibility::fastPathMismatches;

		private UnaryOperator<ClientOptions.Builder> clientOptions = UnaryOperator.identity();

		private @Nullable ClientResources clientResources;

		private @Nullable SslOptions sslOptions;

		private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

		private ReauthenticateBehavior reauthenticate = ReauthenticateBehavior.DEFAULT;

		private int maxActive = DEFAULT_MAX_ACTIVE;

		private @Nullable Integer maxIdle;

		private int minIdle = 0;

		private Duration maxWait = DEFAULT_MAX_WAIT;

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
		 * How connections react to new credentials from the URIs' credentials provider,
		 * as in Lettuce's {@code ClientOptions}. With
		 * {@link ReauthenticateBehavior#ON_NEW_CREDENTIALS} and a provider that
		 * {@linkplain io.lettuce.core.RedisCredentialsProvider#supportsStreaming()
		 * streams} them (short-lived tokens), every open connection sends {@code AUTH}
		 * with the new credentials; a connection that a batch holds does so when the
		 * batch gives it back, so that its chunks finish on it first. By default
		 * ({@link ReauthenticateBehavior#DEFAULT}) only new connections use new
		 * credentials.
		 * @param reauthenticate the behaviour
		 * @return this builder
		 */
		public Builder reauthenticate(ReauthenticateBehavior reauthenticate) {
			Assert.notNull(reauthenticate, "must not be null");
			this.reauthenticate = reauthenticate;
			return this;
		}

		/**
		 * How long opening a connection (TCP connect and handshake) may take.
		 * @param connectTimeout a positive duration
		 * @return this builder
		 */
		public Builder connectTimeout(Duration connectTimeout) {
			Assert.isTrue(connectTimeout != null && !connectTimeout.isNegative() && !connectTimeout.isZero(),
					"must be positive");
			this.connectTimeout = connectTimeout;
			return this;
		}

		/**
		 * The largest number of connections to one server, in use or idle (default
		 * {@value BatchConnectionPool#DEFAULT_MAX_ACTIVE}).
		 * @param maxActive at least 1
		 * @return this builder
		 */
		public Builder maxActive(int maxActive) {
			Assert.isTrue(maxActive >= 1, () -> "must be at least 1 but was " + maxActive);
			this.maxActive = maxActive;
			return this;
		}

		/**
		 * The largest number of idle connections kept open (default: {@code maxActive}).
		 * A value above {@code maxActive} is accepted, as commons-pool2 accepts it: the
		 * pool then keeps at most {@code maxActive} idle, since it never holds more
		 * connections than that.
		 * @param maxIdle 0 or more
		 * @return this builder
		 */
		public Builder maxIdle(int maxIdle) {
			Assert.isTrue(maxIdle >= 0, () -> "must not be negative but was " + maxIdle);
			this.maxIdle = maxIdle;
			return this;
		}

		/**
		 * The number of idle connections the pool tries to keep open (default 0). A value
		 * above the effective {@code maxIdle} (which is at most {@code maxActive}) is
		 * accepted, as commons-pool2 accepts it: the pool then tries to keep the
		 * effective {@code maxIdle} open.
		 * @param minIdle 0 or more
		 * @return this builder
		 */
		public Builder minIdle(int minIdle) {
			Assert.isTrue(minIdle >= 0, () -> "must not be negative but was " + minIdle);
			this.minIdle = minIdle;
			return this;
		}

		/**
		 * The idle connections kept at most: {@code maxIdle}, or {@code maxActive} when
		 * unset, and never more than {@code maxActive}.
		 */
		private int effectiveMaxIdle() {
			return (this.maxIdle != null) ? Math.min(this.maxIdle, this.maxActive) : this.maxActive;
		}

		/**
		 * The idle connections kept at least: {@code minIdle}, never more than the
		 * effective {@code maxIdle}.
		 */
		private int effectiveMinIdle() {
			return Math.min(this.minIdle, effectiveMaxIdle());
		}

		/**
		 * How long a batch waits for a free connection before it fails. Never unbounded.
		 * @param maxWait a positive duration
		 * @return this builder
		 */
		public Builder maxWait(Duration maxWait) {
			Assert.isTrue(maxWait != null && !maxWait.isNegative() && !maxWait.isZero(),
					"must be positive: the batch pool never waits without bound");
			this.maxWait = maxWait;
			return this;
		}

		/**
		 * Create the pool. No connection is opened until a batch needs one.
		 * @return the pool
		 */
		public BatchConnectionPool build() {
			LettuceRequirement.check();
			return new BatchConnectionPool(this);
		}

		/**
		 * Whether batches take the fast path (the default): the batch's thread writes and
		 * reads each connection's socket itself, or decodes the replies the event loop
		 * hands it, relying on Lettuce's and Netty's insides, which are checked when the
		 * pool is built; where a check fails, batches take the portable path, with one
		 * warning. With {@code false}, they always take the portable path: Lettuce's own
		 * pipelining, through its public API alone, with every guarantee kept. The
		 * default is {@code true}, unless the system property
		 * {@value #FAST_PATH_PROPERTY} is {@code false}.
		 * @param fastPath whether batches take the fast path
		 * @return this builder
		 * @since 0.1.0
		 */
		public Builder fastPath(boolean fastPath) {
			this.fastPath = fastPath;
			return this;
		}

		/**
		 * What the fast path relies on and is not there: for tests that break an
		 * assumption on purpose.
		 */
		Builder fastPathChecks(Supplier<List<String>> checks) {
			this.fastPathChecks = checks;
			return this;
		}

		/**
		 * Changes the connections' client options after the pool set them: for tests.
		 */
		Builder clientOptions(UnaryOperator<ClientOptions.Builder> options) {
			this.clientOptions = options;
			return this;
		}

		private Topology topology() {
			if (this.cluster) {
				return Topology.CLUSTER;
			}
			return this.uris.get(0).getSentinels().isEmpty() ? Topology.STANDALONE : Topology.SENTINEL;
		}

		/**
		 * Copies of the caller's URIs (never changed) whose timeout is the connect
		 * timeout: the handshake (HELLO, AUTH, SELECT) uses the URI timeout, while
		 * commands use per-chunk deadlines instead.
		 */
		private List<RedisURI> connectionUris() {
			List<RedisURI> copies = new ArrayList<>(this.uris.size());
			for (RedisURI uri : this.uris) {
				RedisURI.Builder copy = RedisURI.builder(uri).withTimeout(this.connectTimeout);
				if (uri.getSentinelMasterId() != null) {
					copy.withSentinelMasterId(uri.getSentinelMasterId());
				}
				for (RedisURI sentinel : uri.getSentinels()) {
					copy.withSentinel(sentinel);
				}
				copies.add(copy.build());
			}
			return copies;
		}

	}

}
