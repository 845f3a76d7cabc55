package dev.redisbatch.internals;

import java.util.Map;
import java.util.Queue;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import org.jspecify.annotations.Nullable;

/**
 * How Lettuce lays out a connection's Netty pipeline, where redis-batch puts a handler of
 * its own: after TLS (if any) and before Lettuce's {@code CommandEncoder}, so that its
 * bytes pass below Lettuce and above TLS, with Lettuce's {@code CommandHandler} after the
 * encoder. A connection is known by the endpoint of that command handler, which Lettuce
 * makes the connection's channel writer unless something wraps it (command timeouts do).
 */
public final class LettucePipeline {

	/**
	 * What did not match when {@link #keyOf} knows no channel of a connection that
	 * {@link #install} was given: for a warning.
	 */
	public static final String LAYOUT_MISMATCH = "a connection's channel writer is not Lettuce's endpoint, or its "
			+ "pipeline has no CommandEncoder before its CommandHandler";

	private LettucePipeline() {
	}

	/**
	 * Put a handler on a new channel of Lettuce's, checking the layout first.
	 * @param channel the channel, as Lettuce initialized it
	 * @param name the handler's name
	 * @param handler the handler
	 * @return the key the channel's connection is known by ({@link #keyOf}), or
	 * {@code null} when the layout is not Lettuce's as known, and the handler was not put
	 */
	public static @Nullable Object install(Channel channel, String name, ChannelHandler handler) {
		ChannelPipeline pipeline = channel.pipeline();
		ChannelHandlerContext encoder = pipeline.context(CommandEncoder.class);
		ChannelHandlerContext commands = pipeline.context(CommandHandler.class);
		if (encoder == null || commands == null || !isBefore(pipeline, encoder.handler(), commands.handler())) {
			return null;
		}
		Object endpoint = ((CommandHandler) commands.handler()).getEndpoint();
		if (endpoint == null) {
			return null;
		}
		pipeline.addBefore(encoder.name(), name, handler);
		return endpoint;
	}

	/**
	 * The key a connection is known by: its channel writer.
	 * @param connection a connection
	 * @return the key, or {@code null} for a connection of another kind
	 */
	public static @Nullable Object keyOf(StatefulConnection<?, ?> connection) {
		return (connection instanceof RedisChannelHandler<?, ?> handler) ? handler.getChannelWriter() : null;
	}

	/**
	 * Lettuce's queue of the commands it wrote on a channel and awaits replies to:
	 * {@code CommandHandler.getStack()}. Only the channel's event loop may read it.
	 * @param channel the channel
	 * @return the queue, or {@code null} when the channel has no command handler
	 */
	public static @Nullable Queue<?> commandsAwaitingReplies(Channel channel) {
		CommandHandler handler = channel.pipeline().get(CommandHandler.class);
		return (handler != null) ? handler.getStack() : null;
	}

	/**
	 * Whether every handler between the pipeline's head and the given one is Lettuce's
	 * own: one of the application's there (a traffic shaper, a logging handler, TLS) must
	 * see every byte.
	 * @param pipeline the pipeline
	 * @param handler a handler in it
	 * @return whether only Lettuce's handlers come before it
	 */
	public static boolean onlyLettuceBefore(ChannelPipeline pipeline, ChannelHandler handler) {
		for (Map.Entry<String, ChannelHandler> entry : pipeline) {
			if (entry.getValue() == handler) {
				return true;
			}
			if (!entry.getValue().getClass().getName().startsWith("io.lettuce.core.")) {
				return false;
			}
		}
		return false;
	}

	private static boolean isBefore(ChannelPipeline pipeline, ChannelHandler first, ChannelHandler second) {
		for (Map.Entry<String, ChannelHandler> entry : pipeline) {
			if (entry.getValue() == first) {
				return true;
			}
			if (entry.getValue() == second) {
				return false;
			}
		}
		return false;
	}

}
