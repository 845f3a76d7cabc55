package dev.redisbatch;

import dev.redisbatch.protocol.RespWriter;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The ready-made bytes of the commands the engine adds to a chunk of its own:
 * {@link #MULTI} and {@link #EXEC} around a transactional chunk, {@link #ASKING} before a
 * command a cluster redirected with {@code ASK}. Their replies are read in place by
 * {@link Chunk}.
 */
final class WireCommand {

	static final byte[] MULTI = encoded(CommandType.MULTI);

	static final byte[] EXEC = encoded(CommandType.EXEC);

	static final byte[] ASKING = encoded(CommandType.ASKING);

	private WireCommand() {
	}

	private static byte[] encoded(CommandType command) {
		ByteBuf buffer = Unpooled.buffer(32);
		RespWriter.array(buffer, 1);
		RespWriter.bulk(buffer, command);
		byte[] bytes = new byte[buffer.readableBytes()];
		buffer.readBytes(bytes);
		return bytes;
	}

}
