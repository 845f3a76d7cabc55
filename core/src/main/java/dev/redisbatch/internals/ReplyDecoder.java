package dev.redisbatch.internals;

import java.util.function.Consumer;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.RedisStateMachine;
import io.netty.buffer.ByteBuf;

/**
 * Lettuce's decoder of RESP replies ({@code RedisStateMachine}, public but not documented
 * for use), for a connection whose replies redis-batch reads itself: it keeps a reply
 * read in part until its next bytes come.
 */
public final class ReplyDecoder {

	private final RedisStateMachine machine = new RedisStateMachine();

	/**
	 * Decode one reply into an output.
	 * @param bytes the bytes, from the reply's first
	 * @param output where the reply goes
	 * @param unreadable told of a part of the reply the output could not take
	 * @return whether the whole reply was decoded
	 */
	public boolean decode(ByteBuf bytes, CommandOutput<?, ?, ?> output, Consumer<Throwable> unreadable) {
		return this.machine.decode(bytes, output, unreadable);
	}

	/**
	 * Forget a reply read in part.
	 */
	public void reset() {
		this.machine.reset();
	}

}
