package dev.redisbatch.wire;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import dev.redisbatch.internals.LettuceErrors;
import io.lettuce.core.RedisCommandExecutionException;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Opens one pool's connections, minding how their handshakes end: the servers' refusals
 * ({@code WRONGPASS}, say), as each connection's {@link Wire} read them.
 * <p>
 * Lettuce sometimes reports a refused handshake as a closed connection:
 * {@code Connection closed prematurely} or {@code RedisHandshakeHandler not registered}
 * (see {@link LettuceErrors#handshakeAnswerLost}). The failure to open a connection then
 * says what the server answered instead. A connection really closed during its handshake
 * (by a proxy, say) keeps Lettuce's report: the pool replaces it once, as one closed
 * before its first command.
 */
public final class HandshakeRefusals {

	/**
	 * The most bytes of a refusal kept: its first line, which names the error.
	 */
	private static final int MAX_BYTES = 200;

	private volatile @Nullable Refusal last;

	/**
	 * Open a connection.
	 * @param connect opens a connection
	 * @return the open connection
	 * @throws RuntimeException what opening it threw, with the server's refusal in place
	 * of Lettuce's report of a closed connection
	 */
	public <T> T open(Supplier<T> connect) {
		long start = System.nanoTime();
		try {
			return connect.get();
		}
		catch (RuntimeException ex) {
			throw explain(ex, start);
		}
	}

	/**
	 * Note a reply a new connection got, on its event loop.
	 * @param bytes bytes read from the connection, from the start of a reply
	 * @return whether it was an error, so that the next reply may still be the
	 * handshake's
	 */
	boolean note(ByteBuf bytes) {
		if (!bytes.isReadable()) {
			return true;
		}
		int start = bytes.readerIndex() + 1;
		if (bytes.getByte(start - 1) != '-') {
			return false;
		}
		int limit = start + Math.min(bytes.readableBytes() - 1, MAX_BYTES);
		int end = bytes.indexOf(start, limit, (byte) '\r');
		this.last = new Refusal(bytes.toString(start, ((end >= 0) ? end : limit) - start, StandardCharsets.UTF_8),
				System.nanoTime());
		return true;
	}

	/**
	 * The refusal that came last, if it came after the given time.
	 * @param since a {@link System#nanoTime()} value
	 * @return its first line, or {@code null}
	 */
	@Nullable String since(long since) {
		Refusal refusal = this.last;
		return (refusal != null && refusal.at() - since >= 0) ? refusal.line() : null;
	}

	/**
	 * The failure to open a connection, as the server's refusal (an error reply, as
	 * Lettuce reports one it did not lose) when Lettuce reported a closed connection and
	 * a refusal came since the attempt started.
	 * @param failure what opening the connection threw
	 * @param start when the attempt started, a {@link System#nanoTime()} value
	 * @return the failure to throw
	 */
	public RuntimeException explain(RuntimeException failure, long start) {
		String refusal = LettuceErrors.handshakeAnswerLost(failure) ? since(start) : null;
		if (refusal == null) {
			return failure;
		}
		// the type Lettuce gives a refusal it did not lose, so that the message reads the
		// same either way
		RedisCommandExecutionException refused = new RedisCommandExecutionException(refusal);
		refused.addSuppressed(failure);
		return refused;
	}

	private record Refusal(String line, long at) {
	}

}
