package dev.redisbatch;

import dev.redisbatch.protocol.RespWriter;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * A command of the engine's own ({@code MULTI}, {@code EXEC}, {@code ASKING}) whose bytes
 * are already in a chunk's buffer: Lettuce queues it for its reply, and when it encodes
 * it, it writes the chunk's buffer if this command carries it, nothing otherwise. Their
 * bytes are ready-made: {@link #MULTI}, {@link #EXEC}, {@link #ASKING}.
 *
 * @param <T> the reply type
 */
final class WireCommand<T> extends AsyncCommand<byte[], byte[], T> {

	static final byte[] MULTI = encoded(CommandType.MULTI);

	static final byte[] EXEC = encoded(CommandType.EXEC);

	static final byte[] ASKING = encoded(CommandType.ASKING);

	private @Nullable ByteBuf carries;

	WireCommand(CommandType type, CommandOutput<byte[], byte[], T> output, @Nullable ByteBuf carries) {
		super(new Command<>(type, output));
		this.carries = carries;
	}

	private static byte[] encoded(CommandType command) {
		ByteBuf buffer = Unpooled.buffer(32);
		RespWriter.array(buffer, 1);
		RespWriter.bulk(buffer, command);
		byte[] bytes = new byte[buffer.readableBytes()];
		buffer.readBytes(bytes);
		return bytes;
	}

	@Override
	public void encode(ByteBuf buffer) {
		ByteBuf bytes = this.carries;
		if (bytes != null) {
			this.carries = null;
			buffer.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
		}
	}

}
