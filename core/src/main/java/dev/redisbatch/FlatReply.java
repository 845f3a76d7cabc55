package dev.redisbatch;

import java.util.function.Consumer;

import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;

/**
 * The replies most commands get (a bulk string, a status line, an integer: one value, no
 * nesting) decoded in place into the command's output, without Lettuce's state machine. A
 * {@code GET}'s value is copied once, by the output, straight from the connection's
 * bytes.
 * <p>
 * Only a reply that has fully arrived is decoded here; anything else (an error, an
 * aggregate, a RESP3 type, a reply still arriving) is left untouched for the state
 * machine, which then decodes it from its first byte. The output sees the same calls the
 * state machine would make, and a failure of the output goes to the same handler.
 */
final class FlatReply {

	private static final long NOT_A_NUMBER = Long.MIN_VALUE;

	private FlatReply() {
	}

	/**
	 * Decode the next reply into the output if it is flat and has fully arrived.
	 * @param bytes the connection's bytes, from the reply's first byte on
	 * @param output the command's output
	 * @param unreadable takes what the output throws (the reply is still read whole)
	 * @return whether the reply was decoded and read past; {@code false} leaves the bytes
	 * as they were
	 */
	static boolean decode(ByteBuf bytes, CommandOutput<?, ?, ?> output, Consumer<Throwable> unreadable) {
		int start = bytes.readerIndex();
		int limit = bytes.writerIndex();
		byte type = bytes.getByte(start);
		if (type != '$' && type != '+' && type != ':') {
			return false;
		}
		int lineEnd = bytes.indexOf(start + 1, limit, (byte) '\r');
		if (lineEnd < 0 || lineEnd + 2 > limit) {
			return false;
		}
		long number = (type == '+') ? 0 : parse(bytes, start + 1, lineEnd);
		if (number == NOT_A_NUMBER || (type == '$' && number < -1)) {
			return false;
		}
		int end = lineEnd + 2;
		if (type == '$' && number >= 0) {
			if (end + number + 2 > limit) {
				return false;
			}
			end += (int) number + 2;
		}
		bytes.readerIndex(end);
		// the calls the state machine would make, its failures to the same handler
		try {
			if (type == '+') {
				output.setSingle(bytes.internalNioBuffer(start + 1, lineEnd - start - 1));
			}
			else if (type == ':') {
				output.set(number);
			}
			else {
				output.set((number < 0) ? null : bytes.internalNioBuffer(lineEnd + 2, (int) number));
			}
		}
		catch (RuntimeException ex) {
			unreadable.accept(ex);
		}
		output.complete(0);
		return true;
	}

	/**
	 * The decimal number from {@code from} to {@code to}, or {@link #NOT_A_NUMBER} when
	 * it is not one this path takes (then the state machine reads it).
	 */
	private static long parse(ByteBuf bytes, int from, int to) {
		int i = from;
		boolean negative = i < to && bytes.getByte(i) == '-';
		if (negative) {
			i++;
		}
		if (i == to || to - i > 18) {
			return NOT_A_NUMBER;
		}
		long value = 0;
		for (; i < to; i++) {
			int digit = bytes.getByte(i) - '0';
			if (digit < 0 || digit > 9) {
				return NOT_A_NUMBER;
			}
			value = value * 10 + digit;
		}
		return negative ? -value : value;
	}

}
