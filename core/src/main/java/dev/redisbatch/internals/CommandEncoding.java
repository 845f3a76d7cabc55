package dev.redisbatch.internals;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import org.jspecify.annotations.Nullable;

/**
 * Lettuce's {@code CommandEncoder}, for a handler that encodes commands in its place (as
 * auto-batching's coalescer does): where it sits in a connection's pipeline, and what it
 * does with a command that cannot be encoded. That has changed between versions: 6.8 and
 * 7.x close the connection and fail the write, whose state may be out of sync; 6.6 fails
 * the command only and goes on. The installed Lettuce's encoder is asked once, on a
 * channel of its own.
 */
public final class CommandEncoding {

	/**
	 * What did not match when {@link #encoderOf} finds no encoder: for a warning.
	 */
	public static final String NO_ENCODER = "a connection's pipeline has no CommandEncoder";

	private static volatile @Nullable Boolean closesOnFailure;

	private CommandEncoding() {
	}

	/**
	 * The context of Lettuce's encoder in a pipeline.
	 * @param pipeline a channel's pipeline
	 * @return the context, or {@code null} when the pipeline has no such encoder
	 */
	public static @Nullable ChannelHandlerContext encoderOf(ChannelPipeline pipeline) {
		return pipeline.context(CommandEncoder.class);
	}

	/**
	 * Whether Lettuce's encoder closes the connection and fails the write when a command
	 * cannot be encoded, as 6.8 and 7.x do; otherwise it fails the command alone.
	 * @return the installed encoder's behaviour, found once
	 */
	public static boolean closesOnFailure() {
		Boolean known = closesOnFailure;
		if (known == null) {
			known = probe();
			closesOnFailure = known;
		}
		return known;
	}

	private static boolean probe() {
		EmbeddedChannel channel = new EmbeddedChannel(new CommandEncoder());
		Command<String, String, String> unencodable = new Command<>(CommandType.PING,
				new StatusOutput<>(StringCodec.UTF8)) {

			@Override
			public void encode(ByteBuf buf) {
				throw new IllegalStateException("cannot be encoded");
			}

		};
		try {
			channel.writeOutbound(unencodable);
		}
		catch (RuntimeException ex) {
			// the encoder failed the write
		}
		boolean closed = !channel.isOpen();
		channel.finishAndReleaseAll();
		return closed;
	}

}
