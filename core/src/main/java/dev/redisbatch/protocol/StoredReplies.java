package dev.redisbatch.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * Reads replies kept as RESP2 text (an exactly-once chunk's replies, as its script stored
 * and returned them: {@code *N} then the N replies) into Lettuce outputs, calling each
 * output in the order and with the depths Lettuce's own decoder uses, so that every
 * output type takes them as it takes a reply from the wire.
 * <p>
 * Only RESP2's types occur: status, error, integer, bulk string (and its null) and array
 * (and its null). The text is whole: nothing is read in parts.
 *
 * @since 0.1.0
 */
public final class StoredReplies {

	private final ByteBuffer text;

	private final int count;

	/**
	 * The replies in a text.
	 * @param text the text, from its {@code *N} header on
	 * @throws IllegalArgumentException when it does not start with an array header
	 */
	public StoredReplies(ByteBuffer text) {
		this.text = text.duplicate();
		if (!this.text.hasRemaining() || this.text.get() != '*') {
			throw new IllegalArgumentException("Stored replies start with an array header");
		}
		this.count = (int) readLong(this.text);
	}

	/**
	 * How many replies the text holds.
	 * @return the count
	 */
	public int count() {
		return this.count;
	}

	/**
	 * Read the next reply into an output. A part the output cannot take is reported to
	 * {@code unreadable}, once, and the rest of that reply is read past, as Lettuce's
	 * decoder does.
	 * @param output the output, or {@code null} to read the reply past
	 * @param unreadable told the output's failure
	 * @throws IllegalArgumentException when the text is not whole RESP2
	 */
	public void next(@Nullable CommandOutput<?, ?, ?> output, Unreadable unreadable) {
		Into into = new Into(output, unreadable);
		element(into, 0);
		into.complete(0);
	}

	private void element(Into into, int depth) {
		if (!this.text.hasRemaining()) {
			throw new IllegalArgumentException("Stored replies end early");
		}
		byte type = this.text.get();
		switch (type) {
			case '+' -> {
				ByteBuffer line = line();
				into.run((output) -> output.setSingle(line));
			}
			case '-' -> {
				ByteBuffer line = line();
				into.run((output) -> output.setError(line));
			}
			case ':' -> {
				long value = readLong(this.text);
				into.run((output) -> output.set(value));
			}
			case '$' -> {
				int length = (int) readLong(this.text);
				if (length < 0) {
					into.run((output) -> output.set((ByteBuffer) null));
				}
				else {
					ByteBuffer bytes = this.text.slice();
					bytes.limit(length);
					this.text.position(this.text.position() + length + 2);
					into.run((output) -> output.set(bytes));
				}
			}
			case '*' -> {
				int elements = (int) readLong(this.text);
				into.run((output) -> output.multiArray(elements));
				for (int i = 0; i < elements; i++) {
					element(into, depth + 1);
					into.complete(depth + 1);
				}
			}
			default -> throw new IllegalArgumentException("Not a RESP2 reply type: " + (char) type);
		}
	}

	/**
	 * The line up to CRLF, as bytes, the position past it.
	 */
	private ByteBuffer line() {
		int start = this.text.position();
		int end = start;
		while (this.text.get(end) != '\r') {
			end++;
		}
		ByteBuffer line = this.text.duplicate();
		line.position(start).limit(end);
		this.text.position(end + 2);
		return line.slice();
	}

	private static long readLong(ByteBuffer text) {
		boolean negative = false;
		long value = 0;
		byte next = text.get();
		if (next == '-') {
			negative = true;
			next = text.get();
		}
		while (next != '\r') {
			if (next < '0' || next > '9') {
				throw new IllegalArgumentException("Not a number in stored replies: "
						+ StandardCharsets.US_ASCII.decode(ByteBuffer.wrap(new byte[] { next })));
			}
			value = value * 10 + (next - '0');
			next = text.get();
		}
		text.get();
		return negative ? -value : value;
	}

	/**
	 * Told when an output cannot take a part of its reply.
	 */
	@FunctionalInterface
	public interface Unreadable {

		/**
		 * The output failed.
		 * @param failure what it threw
		 */
		void failed(RuntimeException failure);

	}

	/**
	 * Hands the parts of one reply to its output until the output fails.
	 */
	private static final class Into {

		private final @Nullable CommandOutput<?, ?, ?> output;

		private final Unreadable unreadable;

		private boolean failed;

		Into(@Nullable CommandOutput<?, ?, ?> output, Unreadable unreadable) {
			this.output = output;
			this.unreadable = unreadable;
		}

		void run(java.util.function.Consumer<CommandOutput<?, ?, ?>> part) {
			if (this.output == null || this.failed) {
				return;
			}
			try {
				part.accept(this.output);
			}
			catch (RuntimeException ex) {
				this.failed = true;
				this.unreadable.failed(ex);
			}
		}

		void complete(int depth) {
			run((output) -> output.complete(depth));
		}

	}

}
