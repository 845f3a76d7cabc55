package dev.redisbatch;

import java.time.Duration;

import javax.net.ssl.SSLException;

import dev.redisbatch.protocol.Slots;
import org.jspecify.annotations.Nullable;

/**
 * Every sentence the engine puts in front of a user: the reasons in
 * {@link BatchFailure#message()} and {@link BatchResults#abortReason()}, and the messages
 * of the exceptions it throws. In one place, so that they stay consistent, and so that it
 * is easy to check that none of them carries a key, a value or a password: they name
 * commands, counts, slots, addresses and limits only.
 */
final class Messages {

	private static final String QUOTED_ARGUMENTS = ", with args beginning with:";

	private static final String NO_CONNECTION = "No batch connection to ";

	private static final String STOPPED = "not sent: the batch stopped ";

	private Messages() {
	}

	// why a command was not sent

	static String notSent(String why) {
		return STOPPED + "early (" + why + ")";
	}

	static String notSentToServer(String address, String why) {
		return STOPPED + "sending to " + address + " (" + why + ")";
	}

	/**
	 * Whether a failure is a command not sent because the batch, or its lane, stopped:
	 * its message only repeats why.
	 */
	static boolean isStopNotice(BatchFailure failure) {
		return failure.outcome() == Outcome.NOT_SENT && failure.message().startsWith(STOPPED);
	}

	static String closedBeforeWrite() {
		return "not sent: the connection closed just before the write";
	}

	static String tooLarge(long largest, long limit) {
		return "not sent: an argument of " + largest + " bytes is larger than the server's proto-max-bulk-len of "
				+ limit + " bytes";
	}

	static String crossSlot(String command, byte[][] keys) {
		return "not sent: the keys of " + command + " hash to different slots of the cluster " + Slots.distinct(keys)
				+ ", and one command can only reach the keys of one slot. Put keys that go together under one hash "
				+ "tag, such as {order:42}:items and {order:42}:total";
	}

	// why a sent command has no reply

	static String noReplyInTime(Duration timeout) {
		return "sent, but no reply within the chunk timeout of " + timeout + " (it may have run)";
	}

	static String noReply() {
		return "sent, but no reply came (it may have run)";
	}

	static String noReplyInterrupted() {
		return "sent, but the batch was interrupted before its reply (it may have run)";
	}

	static String unreadableReply(@Nullable Throwable failure) {
		// the exception's message is not kept: it may quote the reply
		return "Redis answered, but the reply does not have the shape of the command's reply type ("
				+ ((failure != null) ? failure.getClass().getSimpleName() : "unknown") + "); the command ran: fix "
				+ "the CommandReply rather than send it again";
	}

	static String noReplyConnection(Throwable failure) {
		return "sent, but no reply came (" + describe(failure) + "); it may have run";
	}

	// why a batch, or its lane to one server, stopped

	static String interrupted() {
		return "the thread was interrupted";
	}

	static String chunkTimedOut(Duration timeout) {
		return "a chunk got no reply within its timeout of " + timeout;
	}

	static String connectionLost() {
		return "a chunk lost its connection before every reply came (when the server closes it, its log says why: "
				+ "client-output-buffer-limit and client-query-buffer-limit are common causes, and a smaller "
				+ "chunk-size or max-chunk-bytes keeps a chunk under them)";
	}

	/**
	 * Why a lane stopped when it could not borrow a connection. The pool's own failures
	 * begin with {@link #NO_CONNECTION} and the address, so they are not repeated.
	 */
	static String noConnection(String address, Throwable failure) {
		String text = failure.getMessage();
		if (text != null && text.startsWith(NO_CONNECTION + address)) {
			return "n" + text.substring(1);
		}
		return "no batch connection to " + address + ": " + describe(failure);
	}

	static String noRoute(Throwable failure) {
		return "no route in the cluster: " + describe(failure);
	}

	static String masterFailed(String address, String why) {
		return "master " + address + ": " + why;
	}

	static String recordingCodeThrew(Throwable failure) {
		return "the recording code threw " + failure.getClass().getSimpleName();
	}

	static String closedBeforeComplete() {
		return "the batch was closed before it completed";
	}

	static String masterUnreachable() {
		return "its master was unreachable";
	}

	// cluster

	static String tooManyRedirects(int limit, String last) {
		return "not run: redirected more than " + limit + " times while the cluster topology changed (last: " + last
				+ ")";
	}

	static String transactionSpansSlots(int slot, int firstSlot) {
		return "A transactional batch on Redis Cluster runs MULTI/EXEC on one master, so all its keys must hash to "
				+ "one slot, but this command's key is in slot " + slot + " and the batch's first key in slot "
				+ firstSlot + ". Put the keys under one hash tag, such as {user:42}:name and {user:42}:visits, or turn "
				+ "transactional off. Nothing of this command was sent.";
	}

	static String splitSuffix(int parts) {
		return " (its keys span " + parts + " slots, so it was sent as one command per slot)";
	}

	static String splitPartly() {
		return "some of its parts ran and some did not";
	}

	// misuse

	static String batchComplete() {
		return "The batch is complete: record commands inside the batch callback, not after it returned";
	}

	/**
	 * An error reply as a failure may carry it: without the arguments that Redis quotes
	 * after an unknown command ({@code ERR unknown command 'X', with args beginning with:
	 * 'key' ...}), which may be keys or values.
	 */
	static @Nullable String errorReply(@Nullable String error) {
		if (error == null) {
			return null;
		}
		int quoted = error.indexOf(QUOTED_ARGUMENTS);
		return (quoted >= 0) ? error.substring(0, quoted) + " (its arguments are not kept)" : error;
	}

	static String notExactlyOnce(String command) {
		return command + " cannot run in an exactly-once batch: each chunk runs as one Lua script, and a script cannot "
				+ "run " + command + " (send it in a batch without exactlyOnce)";
	}

	static String tooManyArgumentsExactlyOnce(String command, int most) {
		return command + " has more than " + most + " arguments, the most a command of an exactly-once batch may have "
				+ "(its script passes them through Lua): split it into several commands";
	}

	static String exactlyOnceWithoutKey(String command) {
		return "An exactly-once batch on a Redis Cluster cannot run " + command + " without a key: each chunk runs as "
				+ "one script in one hash slot, chosen by its commands' keys. Give the command its keys (for a command "
				+ "by name, through its key arguments), or send it in a batch without exactlyOnce";
	}

	static String exactlyOnceIdAsDefault() {
		return "An exactly-once id names one batch, so it cannot be a template's default: every batch of the "
				+ "template would share it and could take another's replies. Give it in the options of the batch it "
				+ "names (template.execute(options, callback))";
	}

	static String exactlyOnceTransactional() {
		return "exactlyOnce already runs each chunk atomically, as one Lua script; it cannot be combined with "
				+ "transactional (MULTI/EXEC): set transactional(false) for this batch";
	}

	static String scriptFailedAfterClaim() {
		return "no reply: the chunk's script failed after it began, so whether its commands ran cannot be told";
	}

	static String notResolved(int attempts) {
		return "no reply: the chunk was sent " + (attempts + 1) + " times on new connections and never answered";
	}

	static String keylessOnCluster(String command) {
		return command
				+ " has no key: on a Redis Cluster a batch sends each command to the master of its key's slot, so "
				+ "a command sent by name needs at least one argument marked with key(...). Run commands without keys "
				+ "on a connection to the node you mean";
	}

	static String commandInArguments() {
		return "Record the next command after this one's arguments are complete, not inside its arguments function";
	}

	static String notThreadSafe() {
		return "A Batch is not thread-safe: record commands on the thread that runs the batch callback "
				+ "(chunks already go out while you record)";
	}

	static String onEventLoop(String thread) {
		return "A batch cannot run on a Netty event loop (thread '" + thread + "'): it waits for replies that an event "
				+ "loop reads. Run it from another thread: executeAsync(...), or ReactiveBatchTemplate in reactive code";
	}

	static String responseNotComplete(int index) {
		return "Response #" + index
				+ " is not complete yet: read it after execute(...) returns, not inside the batch callback";
	}

	static String rateCapNeedsBucket4j(String setting) {
		return setting + " caps the batch's rate with Bucket4j, which is not on the classpath: add the dependency "
				+ "com.bucket4j:bucket4j_jdk17-core (the redis-batch Spring Boot starter brings it), or leave the cap at 0";
	}

	static String bulkInBoundBatch() {
		return "A bulk operation runs a batch of its own and cannot join the @RedisBatch batch bound to this thread: "
				+ "run it outside the @RedisBatch method";
	}

	static String lettuceTooOld(String oldest, String found) {
		return "redis-batch needs Lettuce " + oldest + " or newer (Spring Boot 3.5.x manages 6.6, 4.0.x 6.8, 4.1.x "
				+ "7.x), and this application has Lettuce " + found
				+ ": remove the application's lettuce.version override, or set it to 6.6.0.RELEASE or newer";
	}

	// bulk operations

	static String scanFailed(String address, Throwable failure) {
		return "SCAN on " + address + " failed (" + describe(failure) + "); that master's scan stopped";
	}

	static String bulkIncomplete(String operation, long keysMatched, int mastersLeft, BatchResults commands) {
		return "Bulk " + operation + " did not complete: " + keysMatched + " keys matched; " + commands.summary() + "; "
				+ mastersLeft + ((mastersLeft == 1) ? " master" : " masters") + " left to resume from the cursor";
	}

	// the pool

	static String poolExhausted(String address, Duration maxWait, Duration waited, int leased, int maxActive) {
		String held;
		if (leased >= maxActive) {
			held = (maxActive == 1) ? "its one connection was leased" : "all " + maxActive + " connections were leased";
		}
		else {
			held = leased + " of its " + maxActive + " connections were leased (the others were opening or closing)";
		}
		return NO_CONNECTION + address + " became free within the pool's max-wait of " + maxWait + ": " + held
				+ " when the wait ended after " + waited.toMillis() + " ms (raise redis.batch.pool.max-active or "
				+ "max-wait, or run fewer batches at once)";
	}

	/**
	 * A connection that could not be opened: the innermost cause says best what happened
	 * ({@code Connection refused}, {@code WRONGPASS ...}, a timeout), and a TLS failure
	 * is named as one.
	 */
	static String cannotOpen(String address, Throwable failure) {
		boolean tls = false;
		Throwable innermost = failure;
		while (true) {
			tls |= innermost instanceof SSLException;
			Throwable cause = innermost.getCause();
			if (cause == null || cause == innermost) {
				break;
			}
			innermost = cause;
		}
		return NO_CONNECTION + address + " could be opened: " + (tls ? "the TLS handshake failed: " : "")
				+ describe(innermost);
	}

	static String closedBeforeUse(String address) {
		return NO_CONNECTION + address + " could be used: two new connections in a row closed before their first "
				+ "command (something closes connections as they open: CLIENT KILL, a proxy, a firewall)";
	}

	// server errors

	/**
	 * Name the server limit behind an error that does not say which one it is.
	 */
	static String explain(String error) {
		if (error.contains("Protocol error: invalid bulk length")) {
			return error + " (a key or value is larger than the server's proto-max-bulk-len)";
		}
		return error;
	}

	/**
	 * A failure as its type and message: for reasons, never with a stack trace.
	 */
	static String describe(Throwable failure) {
		String text = failure.getMessage();
		return failure.getClass().getSimpleName() + ((text != null) ? ": " + text : "");
	}

}
