package dev.redisbatch.internals;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;

/**
 * How Lettuce reports failures, where redis-batch must tell them apart: Redis's own error
 * reply from a local failure, and a handshake whose answer Lettuce lost from one the
 * server refused. The texts are Lettuce's, checked by {@code LettuceContractTests}.
 */
public final class LettuceErrors {

	/**
	 * Lettuce's message when a connection closed before its handshake ended.
	 */
	public static final String CLOSED_IN_HANDSHAKE = "Connection closed prematurely";

	/**
	 * Lettuce's message when a new connection's channel was torn down before Lettuce
	 * looked at its handshake.
	 */
	public static final String HANDSHAKE_HANDLER_GONE = "RedisHandshakeHandler not registered";

	private LettuceErrors() {
	}

	/**
	 * Whether a command's failure is Redis's own error reply (as opposed to a local
	 * failure such as a closed connection).
	 * @param failure the failure
	 * @return whether it is an error reply
	 */
	public static boolean isErrorReply(Throwable failure) {
		return failure instanceof RedisCommandExecutionException;
	}

	/**
	 * Whether opening a connection failed without the server's answer to the handshake:
	 * the connection closed during it, or was gone before Lettuce looked at it. Lettuce
	 * also reports a refused handshake ({@code WRONGPASS}) so when the refusal wins one
	 * of two races: with a credentials provider that is not an immediate one (as from
	 * {@code RedisURI.Builder.withPassword}), it sends {@code HELLO} from another thread,
	 * and the refusal can arrive before that thread is done, which makes the close
	 * overtake it; and the connecting thread looks at the handshake only after the
	 * connection is up, when the refused connection may be gone already. Seen about once
	 * in 300 refused handshakes on an idle machine, far more often on a busy one.
	 * @param failure the failure to open a connection
	 * @return whether the server's answer was lost
	 */
	public static boolean handshakeAnswerLost(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if ((cause instanceof RedisConnectionException && CLOSED_IN_HANDSHAKE.equals(cause.getMessage()))
					|| (cause instanceof IllegalStateException && HANDSHAKE_HANDLER_GONE.equals(cause.getMessage()))) {
				return true;
			}
		}
		return false;
	}

}
