package dev.redisbatch.protocol;

import org.jspecify.annotations.Nullable;

/**
 * A cluster's answer that a command belongs elsewhere, and therefore did not run:
 * {@code MOVED <slot> <host>:<port>} (the slot has a new owner: read the topology again)
 * or {@code ASK <slot> <host>:<port>} (the slot is migrating: send this one command
 * there, after {@code ASKING}).
 *
 * @param ask whether it is {@code ASK} rather than {@code MOVED}
 * @param slot the slot
 * @param host the host of the master that serves it; empty when Redis means the host the
 * command was sent to ({@code MOVED 3999 :6380}, as a server with
 * {@code cluster-preferred-endpoint-type unknown-endpoint} answers)
 * @param port that master's port
 * @since 0.1.0
 */
public record Redirect(boolean ask, int slot, String host, int port) {

	/**
	 * Whether an error reply is a redirect ({@code MOVED} or {@code ASK}).
	 * @param error the error reply, or {@code null}
	 * @return whether it starts like a redirect
	 */
	public static boolean isRedirect(@Nullable String error) {
		return error != null && (error.startsWith("MOVED ") || error.startsWith("ASK "));
	}

	/**
	 * Read a redirect from an error reply.
	 * @param error the error reply
	 * @return the redirect, or {@code null} when the reply is not a well-formed redirect
	 * (IPv6 hosts are supported: the port follows the last colon)
	 */
	public static @Nullable Redirect parse(@Nullable String error) {
		if (!isRedirect(error)) {
			return null;
		}
		String[] parts = error.split(" ");
		if (parts.length != 3) {
			return null;
		}
		int colon = parts[2].lastIndexOf(':');
		if (colon < 0 || colon == parts[2].length() - 1) {
			return null;
		}
		try {
			int slot = Integer.parseInt(parts[1]);
			int port = Integer.parseInt(parts[2].substring(colon + 1));
			if (slot < 0 || slot >= Slots.COUNT || port <= 0 || port > 65535) {
				return null;
			}
			return new Redirect(parts[0].equals("ASK"), slot, parts[2].substring(0, colon), port);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * {@code MOVED} or {@code ASK}, for messages.
	 * @return the kind of redirect
	 */
	public String kind() {
		return this.ask ? "ASK" : "MOVED";
	}

}
