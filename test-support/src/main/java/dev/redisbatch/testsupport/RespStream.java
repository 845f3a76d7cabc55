package dev.redisbatch.testsupport;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongConsumer;

/**
 * Finds where each message of a RESP stream (RESP2 or RESP3, requests or replies) ends,
 * as bytes arrive in pieces of any size, and tells the byte length of each message. It
 * does not keep the data.
 */
final class RespStream {

	/**
	 * For each aggregate being read, how many of its elements are still to come.
	 */
	private final Deque<long[]> open = new ArrayDeque<>();

	private final StringBuilder header = new StringBuilder();

	private long bulkRemaining;

	private long messageBytes;

	/**
	 * Read the next bytes of the stream.
	 * @param data the bytes
	 * @param length how many of them
	 * @param messageEnded told the byte length of each message that ends in them
	 */
	void feed(byte[] data, int length, LongConsumer messageEnded) {
		int i = 0;
		while (i < length) {
			if (this.bulkRemaining > 0) {
				int take = (int) Math.min(this.bulkRemaining, length - i);
				this.bulkRemaining -= take;
				this.messageBytes += take;
				i += take;
				if (this.bulkRemaining == 0) {
					elementEnded(messageEnded);
				}
				continue;
			}
			byte b = data[i++];
			this.messageBytes++;
			if (b != '\n') {
				this.header.append((char) b);
				continue;
			}
			String line = this.header.toString();
			this.header.setLength(0);
			if (line.endsWith("\r")) {
				line = line.substring(0, line.length() - 1);
			}
			header(line, messageEnded);
		}
	}

	private void header(String line, LongConsumer messageEnded) {
		char type = line.isEmpty() ? '?' : line.charAt(0);
		switch (type) {
			case '$', '=', '!' -> {
				long size = Long.parseLong(line.substring(1));
				if (size < 0) {
					elementEnded(messageEnded);
				}
				else {
					this.bulkRemaining = size + 2;
				}
			}
			case '*', '~', '>', '%', '|' -> {
				long count = Long.parseLong(line.substring(1));
				long elements = (type == '%' || type == '|') ? count * 2 : count;
				if (elements <= 0) {
					elementEnded(messageEnded);
				}
				else {
					this.open.push(new long[] { elements });
				}
			}
			default -> elementEnded(messageEnded);
		}
	}

	private void elementEnded(LongConsumer messageEnded) {
		while (!this.open.isEmpty()) {
			long[] top = this.open.peek();
			if (--top[0] > 0) {
				return;
			}
			this.open.pop();
		}
		messageEnded.accept(this.messageBytes);
		this.messageBytes = 0;
	}

}
