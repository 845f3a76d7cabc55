package dev.redisbatch.autobatch;

import java.nio.channels.ClosedChannelException;

import dev.redisbatch.internals.CommandEncoding;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Encodes the commands written between two flushes into one buffer and writes it as one
 * message, so that a group of commands costs one buffer and one entry of Netty's outbound
 * queue instead of one of each per command, and a write carries whole groups.
 * <p>
 * It sits between Lettuce's command handler (which has queued each command for its reply)
 * and Lettuce's encoder, and encodes each command itself, exactly as the encoder would
 * ({@link RedisCommand#encode}); the buffer goes on from the encoder's place in the
 * pipeline, so the encoder sees only what this handler lets through. Anything that is not
 * a single command (Lettuce's handshake writes a list) goes through the encoder as
 * before, after the commands written before it.
 * <p>
 * The buffer leaves on every flush and whenever it reaches the byte bound; the write
 * promises of its commands complete with it ({@link WritePromises}). The listener hears
 * the number of commands of each write. What the installed Lettuce's encoder does when a
 * command cannot be encoded is done here too ({@link CommandEncoding#closesOnFailure()}):
 * the command's write fails with an {@link EncoderException} and the connection is
 * closed, or (Lettuce 6.6) the command alone fails with it. On a close, what is pending
 * leaves first; when the connection goes inactive, what is pending fails as any write to
 * a closed connection does, before Lettuce hears of it.
 */
final class WriteCoalescer extends ChannelDuplexHandler {

	/**
	 * The handler's name in the pipeline.
	 */
	static final String NAME = "redisBatchWriteCoalescer";

	private static final Log logger = LogFactory.getLog(WriteCoalescer.class);

	private final int maxWriteBytes;

	private final WriteListener listener;

	/**
	 * Where the buffer goes on from: the context of Lettuce's encoder, so that the buffer
	 * starts at the handler after it.
	 */
	private @Nullable ChannelHandlerContext encoder;

	private @Nullable ByteBuf buffer;

	private @Nullable WritePromises promises;

	/**
	 * The bytes of the last write, to size the next buffer.
	 */
	private int lastWriteBytes;

	WriteCoalescer(int maxWriteBytes, WriteListener listener) {
		this.maxWriteBytes = maxWriteBytes;
		this.listener = listener;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.encoder = CommandEncoding.encoderOf(ctx.pipeline());
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		ChannelHandlerContext encoder = this.encoder;
		if (!(msg instanceof RedisCommand<?, ?, ?> command) || encoder == null) {
			emit();
			ctx.write(msg, promise);
			return;
		}
		ByteBuf buffer = this.buffer;
		WritePromises promises = this.promises;
		if (buffer == null || promises == null) {
			// sized like the last write: a busy connection's groups are alike
			buffer = ctx.alloc().ioBuffer(Math.min(this.maxWriteBytes, Math.max(256, this.lastWriteBytes)));
			promises = new WritePromises(16);
			this.buffer = buffer;
			this.promises = promises;
		}
		int start = buffer.writerIndex();
		try {
			command.encode(buffer);
		}
		catch (Throwable ex) {
			buffer.writerIndex(start);
			if (!CommandEncoding.closesOnFailure()) {
				// as Lettuce 6.6's encoder: the command fails, the others go on
				command.completeExceptionally(new EncoderException("Cannot encode command", ex));
				promises.add(promise);
				return;
			}
			// as Lettuce's encoder: the connection's state may be out of sync, close it.
			// The cause goes to the command; the log names its type only, as its message
			// may hold a key or a value.
			emit();
			encoder.flush();
			ctx.close();
			logger.error("Cannot encode a command (" + ex.getClass().getName()
					+ "); closing the connection, whose state may be out of sync");
			throw new EncoderException(
					"Cannot encode a command; closing the connection, whose state may be out of sync", ex);
		}
		promises.add(promise);
		if (buffer.readableBytes() >= this.maxWriteBytes) {
			emit();
			encoder.flush();
		}
	}

	@Override
	public void flush(ChannelHandlerContext ctx) {
		emit();
		ctx.flush();
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		// what was written before the close leaves before it, as it would have without
		// auto-batching, where each write was flushed at once
		flush(ctx);
		ctx.close(promise);
	}

	@Override
	public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
		flush(ctx);
		ctx.disconnect(promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		emit();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		ByteBuf buffer = this.buffer;
		WritePromises promises = this.promises;
		this.buffer = null;
		this.promises = null;
		if (buffer != null) {
			buffer.release();
		}
		if (promises != null) {
			promises.fail(new ClosedChannelException());
		}
	}

	/**
	 * Write the pending commands, if any, as one message past Lettuce's encoder.
	 */
	private void emit() {
		ByteBuf buffer = this.buffer;
		WritePromises promises = this.promises;
		ChannelHandlerContext encoder = this.encoder;
		if (buffer == null || promises == null || encoder == null) {
			return;
		}
		this.buffer = null;
		this.promises = null;
		if (promises.size() == 0) {
			// only a command that could not be encoded was in it
			buffer.release();
			return;
		}
		this.lastWriteBytes = buffer.readableBytes();
		ChannelPromise write = encoder.newPromise();
		write.addListener(promises);
		try {
			this.listener.written(promises.size());
		}
		catch (RuntimeException ex) {
			logger.warn("A WriteListener of auto-batching failed; the write goes on", ex);
		}
		encoder.write(buffer, write);
	}

}
