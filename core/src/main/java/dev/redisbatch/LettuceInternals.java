package dev.redisbatch;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.AbstractNioChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
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

	private LettuceInternals() {
	}

	// errors

	/**
	 * Whether a command's failure is Redis's own error reply (as opposed to a local
	 * failure such as a closed connection).
	 */
	static boolean isErrorReply(Throwable failure) {
		return failure instanceof RedisCommandExecutionException;
	}

	/**
	 * Lettuce's message when a connection closed before its handshake ended.
	 */
	static final String CLOSED_IN_HANDSHAKE = "Connection closed prematurely";

	/**
	 * Lettuce's message when a new connection's channel was torn down before Lettuce
	 * looked at its handshake.
	 */
	static final String HANDSHAKE_HANDLER_GONE = "RedisHandshakeHandler not registered";

	/**
	 * Whether opening a connection failed without the server's answer to the handshake:
	 * the connection closed during it, or was gone before Lettuce looked at it. Lettuce
	 * also reports a refused handshake ({@code WRONGPASS}) so when the refusal wins one
	 * of two races: with a credentials provider that is not an immediate one (as from
	 * {@code RedisURI.Builder.withPassword}), it sends {@code HELLO} from another thread,
	 * and the refusal can arrive before that thread is done, which makes the close
	 * overtake it; and the connecting thread looks at the handshake only after the
	 * connection is up, when the refused connection may be gone already. Seen about once
	 * in 300 refused handshakes on an idle machine, far more often on a busy one.
	 */
	static boolean handshakeAnswerLost(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if ((cause instanceof RedisConnectionException && CLOSED_IN_HANDSHAKE.equals(cause.getMessage()))
					|| (cause instanceof IllegalStateException && HANDSHAKE_HANDLER_GONE.equals(cause.getMessage()))) {
				return true;
			}
		}
		return false;
	}

	// the channel behind a connection

	/**
	 * Knows the Netty channel of each connection a client opens, by the endpoint (channel
	 * writer) of Lettuce's command handler on it, and puts the batch's {@link Wire}
	 * between TLS and Lettuce's {@code CommandEncoder}: never first in the pipeline,
	 * which would bypass encryption. It runs the application's own customizer first, if
	 * any. Install it on the client's resources with
	 * {@code DefaultClientResources.builder().nettyCustomizer(...)}. It finds the
	 * channels of a client whose command timeouts are off, as batch connections' are:
	 * with them on, Lettuce puts a writer of its own in front of the endpoint.
	 */
	static final class Channels implements NettyCustomizer {

		private final Map<Object, Wired> channels = new ConcurrentHashMap<>();

		private final HandshakeRefusals refusals = new HandshakeRefusals();

		private final @Nullable NettyCustomizer first;

		/**
		 * @param first the application's customizer, run before this one, or {@code null}
		 */
		Channels(@Nullable NettyCustomizer first) {
			this.first = first;
		}

		@Override
		public void afterBootstrapInitialized(Bootstrap bootstrap) {
			if (this.first != null) {
				this.first.afterBootstrapInitialized(bootstrap);
			}
		}

		@Override
		public void afterChannelInitialized(Channel channel) {
			if (this.first != null) {
				this.first.afterChannelInitialized(channel);
			}
			ChannelPipeline pipeline = channel.pipeline();
			ChannelHandlerContext encoder = pipeline.context(CommandEncoder.class);
			CommandHandler handler = pipeline.get(CommandHandler.class);
			if (encoder == null || handler == null) {
				return;
			}
			Wire wire = new Wire(this.refusals);
			pipeline.addBefore(encoder.name(), Wire.NAME, wire);
			Object endpoint = handler.getEndpoint();
			Wired wired = new Wired(channel, wire);
			this.channels.put(endpoint, wired);
			channel.closeFuture().addListener((closed) -> this.channels.remove(endpoint, wired));
		}

		/**
		 * The channel of a connection, or {@code null} when it is not known (a connection
		 * of other client resources).
		 */
		@Nullable Channel channelOf(StatefulConnection<?, ?> connection) {
			Wired wired = wiredOf(connection);
			return (wired != null) ? wired.channel() : null;
		}

		/**
		 * The batch's handler on a connection's channel, or {@code null} when the
		 * connection is not known (a connection of other client resources).
		 */
		@Nullable Wire wireOf(StatefulConnection<?, ?> connection) {
			Wired wired = wiredOf(connection);
			return (wired != null) ? wired.wire() : null;
		}

		private @Nullable Wired wiredOf(StatefulConnection<?, ?> connection) {
			if (connection instanceof RedisChannelHandler<?, ?> handler) {
				return this.channels.get(handler.getChannelWriter());
			}
			return null;
		}

		/**
		 * The servers' refusals of the handshakes of this client's connections.
		 */
		HandshakeRefusals refusals() {
			return this.refusals;
		}

		/**
		 * A connection's channel and the handler put on it.
		 */
		private record Wired(Channel channel, Wire wire) {
		}

	}

	// the socket behind a plaintext channel

	/**
	 * Netty's protected method that returns a NIO channel's JDK channel.
	 */
	static final String JAVA_CHANNEL = "javaChannel";

	/**
	 * That method, made accessible once; {@code null} in a Netty without it.
	 */
	private static final @Nullable Method JAVA_CHANNEL_METHOD = javaChannelMethod();

	private static @Nullable Method javaChannelMethod() {
		try {
			Method method = AbstractNioChannel.class.getDeclaredMethod(JAVA_CHANNEL);
			method.setAccessible(true);
			return method;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Whether every handler between the pipeline's head and the batch's {@link Wire} is
	 * Lettuce's own: one of the application's there (a traffic shaper, a logging handler,
	 * TLS) must see every byte, which only the event loop's path shows it.
	 */
	private static boolean onlyLettuceBefore(ChannelPipeline pipeline) {
		for (Map.Entry<String, ChannelHandler> handler : pipeline) {
			if (handler.getValue() instanceof Wire) {
				return true;
			}
			if (!handler.getValue().getClass().getName().startsWith("io.lettuce.core.")) {
				return false;
			}
		}
		return false;
	}

	/**
	 * Lettuce's queue of the commands it wrote on a channel and awaits replies to:
	 * {@code CommandHandler.getStack()}, public but not documented for use. Only the
	 * channel's event loop may read it. {@code null} when the channel has no command
	 * handler.
	 */
	static @Nullable Queue<?> commandsAwaitingReplies(Channel channel) {
		CommandHandler handler = channel.pipeline().get(CommandHandler.class);
		return (handler != null) ? handler.getStack() : null;
	}

	/**
	 * The socket of a plaintext NIO channel, for the batch's thread to read and write:
	 * Netty keeps it in {@code AbstractNioChannel.javaChannel()}, which is protected.
	 * {@code null} for any other channel: TLS (whose bytes the {@code SslHandler} must
	 * see), an application's handler in front of the batch's, the native transports, or a
	 * Netty without that method.
	 */
	static @Nullable CallerSocket callerSocketOf(Channel channel) {
		if (!(channel instanceof NioSocketChannel) || !onlyLettuceBefore(channel.pipeline())) {
			return null;
		}
		Method javaChannel = JAVA_CHANNEL_METHOD;
		if (javaChannel == null) {
			return null;
		}
		try {
			return (javaChannel.invoke(channel) instanceof SocketChannel socket)
					? new CallerSocket(socket, channel.alloc()) : null;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	// the calling thread

	/**
	 * Netty's {@code ThreadExecutorMap.currentExecutor()}, in an internal package of
	 * Netty's: the event executor whose thread calls it. {@code null} in a Netty without
	 * it.
	 */
	private static final @Nullable MethodHandle CURRENT_EXECUTOR = currentExecutorHandle();

	private static @Nullable MethodHandle currentExecutorHandle() {
		try {
			Class<?> map = Class.forName("io.netty.util.internal.ThreadExecutorMap", false,
					EventLoop.class.getClassLoader());
			return MethodHandles.publicLookup()
				.findStatic(map, "currentExecutor", MethodType.methodType(EventExecutor.class));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/**
	 * Whether the calling thread is a Netty event loop's (Lettuce's, or Reactor Netty's),
	 * which must never wait for replies.
	 */
	static boolean onEventLoop() {
		MethodHandle current = CURRENT_EXECUTOR;
		if (current == null) {
			return false;
		}
		try {
			return (EventExecutor) current.invokeExact() instanceof EventLoop;
		}
		catch (Throwable ex) {
			return false;
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
