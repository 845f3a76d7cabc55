package dev.redisbatch;

import org.jspecify.annotations.Nullable;

/**
 * A command that goes to another master than the one it was written for, and did not run
 * where it was: after a {@code MOVED} or {@code ASK} reply (to the master the reply
 * names), or because its master could not be reached (to the master the topology names
 * now, by slot).
 *
 * @param response the command
 * @param bytes the command as it goes on the wire
 * @param slot its slot
 * @param host the master the reply named, or {@code null} to route by slot
 * @param port that master's port
 * @param asking whether {@code ASKING} must precede it
 * @param why the reply or the reason, for messages
 */
record Reroute(CommandResponse<?> response, byte[] bytes, int slot, @Nullable String host, int port, boolean asking,
		String why) {

}
