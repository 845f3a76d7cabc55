package dev.redisbatch.wire;

import dev.redisbatch.internals.ReplyDecoder;
import io.netty.buffer.ByteBuf;

/**
 * What a lease decodes replies into, in the order their requests were written: a chunk of
 * commands.
 */
public interface ReplyReader {

	/**
	 * Decode as many of its replies as the bytes hold.
	 * @param bytes the connection's bytes, from the next reply on
	 * @param decoder the connection's decoder, which keeps a reply read in part
	 * @return whether every reply is decoded
	 */
	boolean read(ByteBuf bytes, ReplyDecoder decoder);

	/**
	 * Whether every reply is decoded.
	 * @return whether it is
	 */
	boolean isDecoded();

}
