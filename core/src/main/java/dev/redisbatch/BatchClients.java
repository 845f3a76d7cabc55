package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.redisbatch.internals.Compatibility;
import dev.redisbatch.internals.NioClient;
import dev.redisbatch.wire.BatchChannels;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.jspecify.annotations.Nullable;

/**
 * How Lettuce is set up for batch connections: the resources that put the batch's Netty
 * handler on each connection, and the clients that open them.
 */
final class BatchClients {

	private BatchClients() {
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

	/**
	 * The client that reads a cluster's topology. Batch connections to the masters are
	 * plain connections of the pool's own client.
	 */
	static RedisClusterClient clusterClient(ClientResources resources, List<RedisURI> seeds,
			@Nullable SslOptions sslOptions, Duration connectTimeout) {
		ClusterClientOptions.Builder options = ClusterClientOptions.builder()
			.socketOptions(socketOptions(connectTimeout));
		if (sslOptions != null) {
			options.sslOptions(sslOptions);
		}
		RedisClusterClient clusterClient = RedisClusterClient.create(resources, seeds);
		clusterClient.setOptions(options.build());
		return clusterClient;
	}

	private static SocketOptions socketOptions(Duration connectTimeout) {
		return SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).tcpNoDelay(true).build();
	}

}
