package dev.redisbatch.protocol;

import org.jspecify.annotations.Nullable;

/**
 * Error replies with which a server refuses a command without running it, for a while
 * only: {@code LOADING} (it is loading its dataset after a restart), {@code BUSY} (a
 * script or function runs too long) and {@code TRYAGAIN} (a cluster slot is migrating).
 * Sending the command again later is safe: it did not run.
 *
 * @since 0.1.0
 */
public final class Refusals {

	private Refusals() {
	}

	/**
	 * Whether an error reply is a temporary refusal.
	 * @param error the error reply, or {@code null}
	 * @return whether the command did not run and may be sent again later
	 */
	public static boolean isTemporary(@Nullable String error) {
		return error != null
				&& (error.startsWith("LOADING ") || error.startsWith("BUSY ") || error.startsWith("TRYAGAIN "));
	}

}
