package dev.redisbatch.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Writes commands in the form Redis reads them: an array of bulk strings
 * ({@code *<n>\r\n$<len>\r\n<bytes>\r\n...}). A chunk's commands are written once, by the
 * thread that records them, straight into the chunk's buffer; the connection's event loop
 * then only copies the chunk to the socket. Replies are still decoded by Lettuce.
 *
 * @since 0.1.0
 */
public final class RespWriter {

	private static final byte[] CRLF = { '\r', '\n' };

	/**
	 * Ready-made headers for the common small arrays and bulk strings, so that writing a
	 * typical command is a handful of copies rather than a loop over digits.
	 */
	private static final byte[][] ARRAY_HEADERS = headers('*', 64);

	private static final byte[][] BULK_HEADERS = headers('$', 1024);

	private RespWriter() {
	}

	private static byte[][] headers(char type, int count) {
		byte[][] headers = new byte[count][];
		for (int i = 0; i < count; i++) {
			headers[i] = (type + Integer.toString(i) + "\r\n").getBytes(StandardCharsets.US_ASCII);
		}
		return headers;
	}

	/**
	 * Write the header of an array: {@code *<elements>\r\n}.
	 * @param buffer where to write
	 * @param elements how many bulk strings follow
	 */
	public static void array(ByteBuf buffer, int elements) {
		if (elements < ARRAY_HEADERS.length) {
			put(buffer, ARRAY_HEADERS[elements], null);
			return;
		}
		buffer.writeByte('*');
		decimal(buffer, elements);
		buffer.writeBytes(CRLF);
	}

	/**
	 * Write a bulk string: {@code $<length>\r\n<bytes>\r\n}. Any bytes, empty and binary
	 * included.
	 * @param buffer where to write
	 * @param bytes the bytes
	 */
	public static void bulk(ByteBuf buffer, byte[] bytes) {
		if (bytes.length < BULK_HEADERS.length) {
			put(buffer, BULK_HEADERS[bytes.length], bytes);
			return;
		}
		buffer.writeByte('$');
		decimal(buffer, bytes.length);
		buffer.writeBytes(CRLF);
		buffer.writeBytes(bytes);
		buffer.writeBytes(CRLF);
	}

	/**
	 * Write a command name or keyword as a bulk string.
	 * @param buffer where to write
	 * @param keyword the keyword
	 */
	public static void bulk(ByteBuf buffer, ProtocolKeyword keyword) {
		bulk(buffer, keyword.getBytes());
	}

	/**
	 * Write an integer argument as a bulk string of its decimal digits.
	 * @param buffer where to write
	 * @param number the number
	 */
	public static void bulk(ByteBuf buffer, long number) {
		buffer.writeByte('$');
		decimal(buffer, length(number));
		buffer.writeBytes(CRLF);
		decimal(buffer, number);
		buffer.writeBytes(CRLF);
	}

	/**
	 * Write a floating-point argument as a bulk string, as {@link #doubleBytes(double)}
	 * spells it.
	 * @param buffer where to write
	 * @param number the number, not NaN
	 */
	public static void bulk(ByteBuf buffer, double number) {
		bulk(buffer, doubleBytes(number));
	}

	/**
	 * How Redis reads a floating-point argument: whole numbers without a fraction (so
	 * {@code -0.0} is {@code 0}), infinities as {@code +inf} and {@code -inf}, others in
	 * Java's shortest exact form (such as {@code 0.1} or {@code 1.0E20}).
	 * @param number the number
	 * @return its ASCII form
	 * @throws IllegalArgumentException for NaN, which Redis refuses
	 */
	public static byte[] doubleBytes(double number) {
		if (Double.isNaN(number)) {
			throw new IllegalArgumentException("NaN is not a number Redis accepts");
		}
		if (number == (long) number && Math.abs(number) < 1e15) {
			return Long.toString((long) number).getBytes(StandardCharsets.US_ASCII);
		}
		if (Double.isInfinite(number)) {
			return ((number > 0) ? "+inf" : "-inf").getBytes(StandardCharsets.US_ASCII);
		}
		return Double.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The length of the largest bulk string of the command written in {@code buffer} from
	 * {@code from} to {@code to}.
	 * @param buffer the buffer
	 * @param from where the command starts
	 * @param to where it ends
	 * @return the largest length, in bytes
	 */
	public static long largestBulk(ByteBuf buffer, int from, int to) {
		long largest = 0;
		int index = from;
		// skip the array header (*<count>\r\n)
		while (index < to && buffer.getByte(index) != '\n') {
			index++;
		}
		index++;
		while (index < to && buffer.getByte(index) == '$') {
			long length = 0;
			index++;
			byte digit;
			while ((digit = buffer.getByte(index)) != '\r') {
				length = length * 10 + (digit - '0');
				index++;
			}
			largest = Math.max(largest, length);
			index += 2 + length + 2;
		}
		return largest;
	}

	/**
	 * Read the bulk strings in a buffer (as Lettuce encodes a command's arguments), up to
	 * its end or the first byte that does not start one.
	 * @param buffer the buffer, read from its reader index
	 * @return the bulk strings
	 */
	public static List<byte[]> bulks(ByteBuf buffer) {
		List<byte[]> bulks = new ArrayList<>();
		while (buffer.isReadable() && buffer.readByte() == '$') {
			int length = 0;
			byte digit;
			while ((digit = buffer.readByte()) != '\r') {
				length = length * 10 + (digit - '0');
			}
			buffer.skipBytes(1);
			byte[] bulk = new byte[length];
			buffer.readBytes(bulk);
			buffer.skipBytes(2);
			bulks.add(bulk);
		}
		return bulks;
	}

	/**
	 * The number of characters of a number in decimal, sign included.
	 * @param value the number
	 * @return its length
	 */
	public static int length(long value) {
		if (value == Long.MIN_VALUE) {
			return 20;
		}
		int length = (value < 0) ? 2 : 1;
		long rest = Math.abs(value);
		while (rest >= 10) {
			rest /= 10;
			length++;
		}
		return length;
	}

	/**
	 * Write a header and, when given, a bulk string's bytes and its CRLF; into a heap
	 * buffer, straight into its array: one bounds check and one growth check for the
	 * whole element, where three {@code writeBytes} calls would make three of each (a
	 * chunk's commands are most of what a batch's thread does).
	 */
	private static void put(ByteBuf buffer, byte[] header, byte @Nullable [] bytes) {
		if (!buffer.hasArray()) {
			buffer.writeBytes(header);
			if (bytes != null) {
				buffer.writeBytes(bytes);
				buffer.writeBytes(CRLF);
			}
			return;
		}
		int size = header.length + ((bytes != null) ? bytes.length + 2 : 0);
		buffer.ensureWritable(size);
		// read after ensureWritable, which may have moved the bytes to a larger array
		byte[] array = buffer.array();
		int writerIndex = buffer.writerIndex();
		int at = buffer.arrayOffset() + writerIndex;
		System.arraycopy(header, 0, array, at, header.length);
		if (bytes != null) {
			at += header.length;
			System.arraycopy(bytes, 0, array, at, bytes.length);
			at += bytes.length;
			array[at] = '\r';
			array[at + 1] = '\n';
		}
		buffer.writerIndex(writerIndex + size);
	}

	private static void decimal(ByteBuf buffer, long value) {
		if (value < 0) {
			if (value == Long.MIN_VALUE) {
				buffer.writeBytes(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
				return;
			}
			buffer.writeByte('-');
			value = -value;
		}
		if (value < 10) {
			buffer.writeByte((int) ('0' + value));
			return;
		}
		long divisor = 1;
		while (value / divisor >= 10) {
			divisor *= 10;
		}
		while (divisor > 0) {
			buffer.writeByte((int) ('0' + (value / divisor) % 10));
			divisor /= 10;
		}
	}

}
