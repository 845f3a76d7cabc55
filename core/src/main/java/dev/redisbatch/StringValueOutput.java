package dev.redisbatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * The output of a command whose reply is one value, for a template whose values are UTF-8
 * strings ({@code StringRedisSerializer}): the value is decoded into its {@code String}
 * straight from the connection's bytes, through a buffer of the thread's, instead of into
 * a {@code byte[]} of its own that the serializer then copies again. Longer values than
 * that buffer take a {@code byte[]} of their own, as before.
 */
final class StringValueOutput extends CommandOutput<byte[], byte[], @Nullable String> {

	/**
	 * The longest value decoded through the thread's buffer.
	 */
	static final int SCRATCH_BYTES = 1024;

	private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

	StringValueOutput() {
		super(ByteArrayCodec.INSTANCE, null);
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		this.output = (bytes != null) ? decode(bytes) : null;
	}

	/**
	 * The UTF-8 string of the bytes between the buffer's position and its limit, which
	 * stay where they are.
	 */
	static String decode(ByteBuffer bytes) {
		int length = bytes.remaining();
		if (bytes.hasArray()) {
			return new String(bytes.array(), bytes.arrayOffset() + bytes.position(), length, StandardCharsets.UTF_8);
		}
		byte[] copy = (length <= SCRATCH_BYTES) ? SCRATCH.get() : new byte[length];
		bytes.get(bytes.position(), copy, 0, length);
		return new String(copy, 0, length, StandardCharsets.UTF_8);
	}

}
