package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;

/**
 * Writes commands in the form Redis reads them: an array of bulk strings
 * ({@code *<n>\r\n$<len>\r\n<bytes>\r\n...}). A chunk's commands are written once, by the
 * thread that records them, straight into the chunk's buffer; the connection's event loop
 * then only copies the chunk to the socket. Replies are still decoded by Lettuce.
 */
final class RespWriter {

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

	static void array(ByteBuf buffer, int elements) {
		if (elements < ARRAY_HEADERS.length) {
			buffer.writeBytes(ARRAY_HEADERS[elements]);
			return;
		}
		buffer.writeByte('*');
		decimal(buffer, elements);
		buffer.writeBytes(CRLF);
	}

	static void bulk(ByteBuf buffer, byte[] bytes) {
		if (bytes.length < BULK_HEADERS.length) {
			buffer.writeBytes(BULK_HEADERS[bytes.length]);
		}
		else {
			buffer.writeByte('$');
			decimal(buffer, bytes.length);
			buffer.writeBytes(CRLF);
		}
		buffer.writeBytes(bytes);
		buffer.writeBytes(CRLF);
	}

	static void bulk(ByteBuf buffer, ProtocolKeyword keyword) {
		bulk(buffer, keyword.getBytes());
	}

	static void bulk(ByteBuf buffer, long number) {
		buffer.writeByte('$');
		decimal(buffer, length(number));
		buffer.writeBytes(CRLF);
		decimal(buffer, number);
		buffer.writeBytes(CRLF);
	}

	static void bulk(ByteBuf buffer, double number) {
		bulk(buffer, doubleBytes(number));
	}

	static byte[] doubleBytes(double number) {
		if (number == (long) number && Math.abs(number) < 1e15) {
			return Long.toString((long) number).getBytes(StandardCharsets.US_ASCII);
		}
		if (Double.isInfinite(number)) {
			return ((number > 0) ? "+inf" : "-inf").getBytes(StandardCharsets.US_ASCII);
		}
		return Double.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The largest bulk string of the command written in {@code buffer} from {@code from}
	 * to {@code to}.
	 */
	static long largestBulk(ByteBuf buffer, int from, int to) {
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
	 * The bulk strings in a buffer (as Lettuce encodes a command's arguments).
	 */
	static List<byte[]> bulks(ByteBuf buffer) {
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
	 */
	static int length(long value) {
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
