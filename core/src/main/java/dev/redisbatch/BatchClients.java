package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.redisbatch.internals.Compatibility;
import dev.redisbatch.internals.LettucePipeline;
import dev.redisbatch.internals.NioClient;
import dev.redisbatch.wire.BatchChannels;
import dev.redisbatch.wire.HandshakeRefusals;
import dev.redisbatch.wire.WireLease;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.channel.Channel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A pool's Lettuce clients, and the path its batch connections take: the fast path where
 * what it relies on inside Lettuce and Netty is there (checked once, when the pool is
 * built) and where Lettuce laid a new connection's channel out as known (checked on
 * each); the portable path, Lettuce's own pipelining, otherwise, said in one warning. It
 * owns the pool's client resources and shuts them down with the pool.
 */
final class BatchClients implements AutoCloseable {

	/**
	 * The pool's logger: its warnings are the pool's.
	 */
	private static final Log logger = LogFactory.getLog(BatchConnectionPool.class);

	/**
	 * What the portable path costs, as docs/performance.md measured it on loopback.
	 */
	static final String PORTABLE_PATH_COST = "at about three fifths to four fifths of the fast path's throughput, "
			+ "with 1.7 to 3.4 times its client CPU per command";

	/**
	 * How to choose the portable path, which silences the warning.
	 */
	static final String CHOOSE_PORTABLE_PATH = "redis.batch.fast-path.enabled=false (without Spring Boot, the "
			+ "pool builder's fastPath(false)) chooses the portable path and silences this warning";

	private final String description;

	/**
	 * The Netty customizer that puts the batch's handler on each connection, or
	 * {@code null} when batches take the portable path.
	 */
	private final @Nullable BatchChannels channels;

	/**
	 * The refusals of the pool's handshakes, as the batch's handler read them.
	 */
	private final HandshakeRefusals refusals;

	private final ClientResources resources;

	private final RedisClient client;

	private final @Nullable SslOptions sslOptions;

	private final Duration connectTimeout;

	/**
	 * Says once that a connection's channel was not laid out as the fast path needs.
	 */
	private final AtomicBoolean layoutWarned = new AtomicBoolean();

	/**
	 * The clients of a pool.
	 * @param description the pool's servers, for warnings
	 * @param fastPath whether the fast path is on
	 * @param fastPathChecks what the fast path relies on and is not there
	 * @param application the application's resources, or {@code null}
	 * @param sslOptions the TLS options, or {@code null}
	 * @param connectTimeout the longest time to open a connection
	 * @param reauthenticate when connections re-authenticate
	 * @param customized changes to the client options, for tests
	 */
	BatchClients(String description, boolean fastPath, Supplier<List<String>> fastPathChecks,
			@Nullable ClientResources application, @Nullable SslOptions sslOptions, Duration connectTimeout,
			ClientOptions.ReauthenticateBehavior reauthenticate, UnaryOperator<ClientOptions.Builder> customized) {
		this.description = description;
		this.channels = (fastPath && fastPathHolds(description, fastPathChecks.get()))
				? new BatchChannels((application != null) ? application.nettyCustomizer() : null) : null;
		this.refusals = (this.channels != null) ? this.channels.refusals() : new HandshakeRefusals();
		this.resources = resources(application, this.channels);
		this.sslOptions = sslOptions;
		this.connectTimeout = connectTimeout;
		this.client = client(this.resources, sslOptions, connectTimeout, reauthenticate, this.channels != null,
				customized);
	}

	/**
	 * Whether the fast path's checks passed; when they did not, one warning says why.
	 */
	private static boolean fastPathHolds(String description, List<String> mismatches) {
		if (!mismatches.isEmpty()) {
			logger.warn(Compatibility.describe("The fast path of batch connections to " + description, mismatches,
					"batches to it take the portable path, Lettuce's own pipelining, " + PORTABLE_PATH_COST + ". "
							+ "Use a Lettuce and Netty of the tested range for the fast path; "
							+ CHOOSE_PORTABLE_PATH));
			return false;
		}
		List<String> callerIo = Compatibility.callerIoMismatches();
		if (!callerIo.isEmpty()) {
			logger.warn(Compatibility.describe(
					"The batch's own thread reading and writing the sockets of batch connections to " + description,
					callerIo, "the connections' event loops read and write them"));
		}
		return true;
	}

	/**
	 * Opens batch connections with the URI, minding how their handshakes end (see
	 * {@link HandshakeRefusals#open}).
	 * @param uri where to connect
	 * @return what opens a connection
	 */
	Supplier<BatchConnection> connector(RedisURI uri) {
		return () -> batchConnection(this.refusals.open(() -> this.client.connect(ByteArrayCodec.INSTANCE, uri)));
	}

	/**
	 * A new connection, on the fast path when the batch's handler is on its channel, and
	 * on the portable path otherwise: the pool's path, or the channel was not laid out as
	 * the fast path needs (said once).
	 */
	private BatchConnection batchConnection(StatefulRedisConnection<byte[], byte[]> connection) {
		BatchChannels fast = this.channels;
		if (fast == null) {
			return new BatchConnection(connection, null);
		}
		WireLease wire = fast.leaseOf(connection);
		if (wire == null && fast.layoutMismatched(connection) && this.layoutWarned.compareAndSet(false, true)) {
			logger.warn(Compatibility.describe("The fast path of batch connections to " + this.description,
					List.of(LettucePipeline.LAYOUT_MISMATCH), "its connections take the portable path, Lettuce's own "
							+ "pipelining, " + PORTABLE_PATH_COST + "; " + CHOOSE_PORTABLE_PATH));
		}
		return new BatchConnection(connection, wire);
	}

	/**
	 * The Netty channel of a connection on the fast path, or {@code null}: for tests.
	 */
	@Nullable Channel channelOf(BatchConnection connection) {
		BatchChannels fast = this.channels;
		return (fast != null) ? fast.channelOf(connection.lettuce()) : null;
	}

	/**
	 * The client that reads a cluster's topology. Batch connections to the masters are
	 * plain connections of the pool's own client.
	 * @param seeds the cluster's seed URIs
	 * @return the client, on the pool's resources
	 */
	RedisClusterClient clusterClient(List<RedisURI> seeds) {
		ClusterClientOptions.Builder options = ClusterClientOptions.builder()
			.socketOptions(socketOptions(this.connectTimeout));
		if (this.sslOptions != null) {
			options.sslOptions(this.sslOptions);
		}
		RedisClusterClient clusterClient = RedisClusterClient.create(this.resources, seeds);
		clusterClient.setOptions(options.build());
		return clusterClient;
	}

	/**
	 * The Lettuce resources of the pool's connections.
	 */
	ClientResources resources() {
		return this.resources;
	}

	/**
	 * Shut the client and the pool's resources down. Built on the application's
	 * resources, they share its event loops, executor and timer, which this leaves
	 * running.
	 */
	@Override
	public void close() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	/**
	 * The resources of a pool's connections: on the fast path, the batch's Netty handler
	 * goes on each (through the pool's {@link BatchChannels}), and batches measure
	 * themselves, so no per-command latency is recorded. Built on the application's
	 * resources, they share its event loops, executor and timer (which the pool never
	 * shuts down); the channels run the application's Netty customizer first.
	 * @param application the application's resources, or {@code null}
	 * @param channels the pool's Netty customizer, or {@code null} on the portable path
	 * @return resources the pool owns and shuts down
	 */
	static ClientResources resources(@Nullable ClientResources application, @Nullable BatchChannels channels) {
		ClientResources.Builder builder = (application != null) ? application.mutate()
			.eventLoopGroupProvider(application.eventLoopGroupProvider())
			.eventExecutorGroup(application.eventExecutorGroup())
			.timer(application.timer()) : DefaultClientResources.builder();
		builder.commandLatencyRecorder(CommandLatencyRecorder.disabled());
		if (channels != null) {
			builder.nettyCustomizer(channels);
		}
		return builder.build();
	}

	/**
	 * The client that opens batch connections: never reconnecting by itself (a
	 * reconnected connection would have a channel no lease knows), refusing commands
	 * while disconnected, and without command timeouts (chunks have deadlines of their
	 * own). It re-authenticates on new credentials only when told to. On the fast path it
	 * opens NIO connections, whose sockets the batch's thread reads and writes itself
	 * ({@link NioClient}); on the portable path it is Lettuce's own client.
	 */
	static RedisClient client(ClientResources resources, @Nullable SslOptions sslOptions, Duration connectTimeout,
			ClientOptions.ReauthenticateBehavior reauthenticate, boolean fastPath,
			UnaryOperator<ClientOptions.Builder> customized) {
		// A plain queue of commands awaiting replies: batches never cancel single
		// commands, so the hash index Lettuce keeps for that only costs time.
		ClientOptions.Builder options = ClientOptions.builder()
			.useHashIndexQueue(false)
			.autoReconnect(false)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.reauthenticateBehavior(reauthenticate)
			.socketOptions(socketOptions(connectTimeout));
		if (sslOptions != null) {
			options.sslOptions(sslOptions);
		}
		boolean nio = fastPath && Compatibility.callerIoMismatches().isEmpty();
		RedisClient redisClient = nio ? new NioClient(resources) : RedisClient.create(resources);
		redisClient.setOptions(customized.apply(options).build());
		return redisClient;
	}

	private static SocketOptions socketOptions(Duration connectTimeout) {
		return SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).tcpNoDelay(true).build();
	}

}
