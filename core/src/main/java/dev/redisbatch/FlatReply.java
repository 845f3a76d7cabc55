package dev.redisbatch;

import java.nio.ByteBuffer;
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

	/**
	 * The most digits read here: longer numbers (which may not fit a {@code long}) go to
	 * the state machine.
	 */
	private static final int MAX_DIGITS = 18;

	private FlatReply() {
	}

	/**
	 * A view of the bytes for
	 * {@link #decode(ByteBuf, ByteBuffer, CommandOutput, Consumer)}: the same bytes at
	 * the same indexes, read without a {@code ByteBuf}'s checks per byte. It holds until
	 * the bytes are written to or discarded.
	 * @param bytes the connection's bytes (in one piece of memory, as the state machine
	 * needs them too)
	 * @return the view
	 */
	static ByteBuffer view(ByteBuf bytes) {
		return bytes.nioBuffer(0, bytes.writerIndex());
	}

	/**
	 * Decode the next reply into the output if it is flat and has fully arrived.
	 * @param bytes the connection's bytes, from the reply's first byte on
	 * @param view their {@link #view(ByteBuf)}, taken since they were last written to
	 * @param output the command's output
	 * @param unreadable takes what the output throws (the reply is still read whole)
	 * @return whether the reply was decoded and read past; {@code false} leaves the bytes
	 * as they were
	 */
	static boolean decode(ByteBuf bytes, ByteBuffer view, CommandOutput<?, ?, ?> output,
			Consumer<Throwable> unreadable) {
		int start = bytes.readerIndex();
		int limit = bytes.writerIndex();
		if (start >= limit) {
			return false;
		}
		byte type = view.get(start);
		if (type != '$' && type != '+' && type != ':') {
			return false;
		}
		int lineEnd = (type == '+') ? lineEnd(view, start + 1, limit) : numberEnd(view, start + 1, limit);
		if (lineEnd < 0 || lineEnd + 2 > limit) {
			return false;
		}
		long number = (type == '+') ? 0 : parse(view, start + 1, lineEnd);
		if (type == '$' && number < -1) {
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
				output.setSingle(view.limit(lineEnd).position(start + 1));
			}
			else if (type == ':') {
				output.set(number);
			}
			else {
				output.set((number < 0) ? null : view.limit(lineEnd + 2 + (int) number).position(lineEnd + 2));
			}
		}
		catch (RuntimeException ex) {
			unreadable.accept(ex);
		}
		finally {
			view.clear();
		}
		output.complete(0);
		return true;
	}

	/**
	 * The index of the {@code \r} that ends a status line, or {@code -1} when it has not
	 * arrived.
	 */
	private static int lineEnd(ByteBuffer view, int from, int limit) {
		for (int i = from; i < limit; i++) {
			if (view.get(i) == '\r') {
				return i;
			}
		}
		return -1;
	}

	/**
	 * The index of the {@code \r} after a decimal number this path takes (an optional
	 * {@code -} and 1 to 18 digits), or {@code -1} when the line is something else or has
	 * not arrived (then the state machine reads it).
	 */
	private static int numberEnd(ByteBuffer view, int from, int limit) {
		int i = from;
		if (i < limit && view.get(i) == '-') {
			i++;
		}
		int digits = i;
		for (; i < limit; i++) {
			byte digit = view.get(i);
			if (digit == '\r') {
				return (i == digits) ? -1 : i;
			}
			if (digit < '0' || digit > '9' || i - digits == MAX_DIGITS) {
				return -1;
			}
		}
		return -1;
	}

	/**
	 * The decimal number from {@code from} to {@code to}, checked by
	 * {@link #numberEnd(ByteBuffer, int, int)}.
	 */
	private static long parse(ByteBuffer view, int from, int to) {
		int i = from;
		boolean negative = view.get(i) == '-';
		if (negative) {
			i++;
		}
		long value = 0;
		for (; i < to; i++) {
			value = value * 10 + (view.get(i) - '0');
		}
		return negative ? -value : value;
	}

}
