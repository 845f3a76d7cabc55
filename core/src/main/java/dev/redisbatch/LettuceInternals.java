package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

/**
 * Every place where redis-batch relies on how Lettuce and Spring Data Redis work inside,
 * beyond their documented API: error texts, the Netty channel behind a connection, a
 * connection without a socket, and Spring Data Redis's pipelined connection. A Lettuce or
 * Spring Data Redis upgrade that changes one of them breaks
 * {@code LettuceInternalsContractTests}, which checks each against the real libraries.
 */
final class LettuceInternals {

	/**
	 * How Lettuce's endpoint refuses a write as a whole, before anything reaches the
	 * socket (DefaultEndpoint: a closed or disconnected connection, a full queue).
	 */
	private static final List<String> WHOLE_WRITE_REFUSALS = List.of("Connection is closed", "Currently not connected",
			"Request queue size exceeded", "Command buffer size exceeded");

	private LettuceInternals() {
	}

	// errors

	/**
	 * Whether the failure of the first command of a write means that the endpoint refused
	 * the whole write, so that nothing of it was sent.
	 * @param failure how the command completed, or {@code null}
	 */
	static boolean refusedWholeWrite(@Nullable Throwable failure) {
		if (failure == null || failure.getClass() != RedisException.class) {
			return false;
		}
		String message = String.valueOf(failure.getMessage());
		return WHOLE_WRITE_REFUSALS.stream().anyMatch(message::startsWith);
	}

	/**
	 * Whether a command's failure is Redis's own error reply (as opposed to a local
	 * failure such as a closed connection).
	 */
	static boolean isErrorReply(Throwable failure) {
		return failure instanceof RedisCommandExecutionException;
	}

	/**
	 * The error Redis answered for a Lettuce command (such as {@code EXEC}), or
	 * {@code null}.
	 */
	static @Nullable String errorReply(RedisCommand<?, ?, ?> command) {
		Throwable failure = failureOf(command);
		return (failure != null && isErrorReply(failure)) ? String.valueOf(failure.getMessage()) : null;
	}

	/**
	 * How a completed Lettuce command failed, or {@code null}.
	 */
	static @Nullable Throwable failureOf(RedisCommand<?, ?, ?> command) {
		if (command instanceof CompletableFuture<?> future && future.isCompletedExceptionally()) {
			try {
				future.getNow(null);
			}
			catch (CompletionException ex) {
				return (ex.getCause() != null) ? ex.getCause() : ex;
			}
			catch (RuntimeException ex) {
				return ex;
			}
		}
		return null;
	}

	// the channel behind a connection

	/**
	 * Write a chunk's commands to a connection's channel as one message: Lettuce's
	 * command handler queues every command for its reply in the order given, and the
	 * encoder writes each one. A failed write closes the channel, which completes every
	 * queued command.
	 * @return {@code false} when the channel was no longer active, so nothing was written
	 */
	static boolean writeToChannel(Channel channel, List<? extends RedisCommand<byte[], byte[], ?>> commands) {
		if (!channel.isActive()) {
			return false;
		}
		channel.writeAndFlush(commands, channel.voidPromise());
		return true;
	}

	/**
	 * Knows the Netty channel of each connection a client opens, by the endpoint (channel
	 * writer) of Lettuce's command handler on it. Install it on the client's resources
	 * with {@code DefaultClientResources.builder().nettyCustomizer(...)}. It finds the
	 * channels of a client whose command timeouts are off, as batch connections' are:
	 * with them on, Lettuce puts a writer of its own in front of the endpoint.
	 */
	static final class Channels implements NettyCustomizer {

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

		/**
		 * The channel of a connection, or {@code null} when it is not known (a connection
		 * of other client resources); then the chunk goes through Lettuce's
		 * {@code dispatch} instead.
		 */
		@Nullable Channel channelOf(StatefulConnection<?, ?> connection) {
			if (connection instanceof RedisChannelHandler<?, ?> handler) {
				return this.channels.get(handler.getChannelWriter());
			}
			return null;
		}

	}

	// connections without a socket

	/**
	 * A Lettuce connection whose commands go to the given writer instead of a socket:
	 * Lettuce's API builds each command (arguments encoded, typed output ready) and hands
	 * it over.
	 */
	static StatefulRedisConnection<byte[], byte[]> connectionWritingTo(RedisChannelWriter writer,
			PushHandler pushHandler) {
		return new StatefulRedisConnectionImpl<>(writer, pushHandler, ByteArrayCodec.INSTANCE, Duration.ofDays(1));
	}

	/**
	 * Spring Data Redis's {@link LettuceConnection}, pipelining, on the dedicated
	 * connection the provider gives: it turns every {@code RedisConnection} call of a
	 * template into Lettuce commands and returns {@code null}, as pipelined connections
	 * do.
	 */
	static LettuceConnection pipelinedConnection(LettuceConnectionProvider provider, long timeoutMillis) {
		LettuceConnection connection = new LettuceConnection(null, provider, timeoutMillis, 0);
		connection.openPipeline();
		return connection;
	}

}
