package dev.redisbatch;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The position of a {@code SCAN} over every master: one {@code SCAN} cursor per master,
 * and which masters are finished. Immutable and {@link Serializable}; it also has a
 * compact string form ({@link #toToken()}, {@link #fromToken(String)}) to store, for
 * example, in a Spring Batch {@code ExecutionContext}.
 * <p>
 * Each master is known by the lowest hash slot it serves (a standalone server or the
 * master that Sentinel names by one fixed key), not by its address: a replica that takes
 * over after a failover serves the same slots, so a scan resumes there from the same
 * cursor. A master the cursor does not know (a new master, or one whose lowest slot
 * changed because slots moved) is scanned from the start.
 * <p>
 * What {@code SCAN} guarantees, and so what a scan that resumes from a cursor guarantees:
 * every key that is present from the start of the scan to its end is returned at least
 * once; a key may be returned more than once (when the server resizes its tables, and
 * when a master is scanned again from the start), so whoever consumes the keys must
 * tolerate duplicates. Keys added or removed during the scan may or may not be returned.
 * On a Redis Cluster the guarantee holds while the slots stay where they are: keys of a
 * slot that moves from a master not yet scanned to one already finished are missed.
 * <p>
 * The token names no key and no address: it holds only slot numbers and cursors.
 *
 * @since 0.1.0
 * @see BatchTemplate#scanKeys(org.springframework.data.redis.core.ScanOptions,
 * ScanCursor)
 */
public final class ScanCursor implements Serializable {

	@Serial
	private static final long serialVersionUID = 1L;

	/**
	 * The key of the only master of a standalone or Sentinel deployment.
	 */
	static final int SINGLE_SERVER = -1;

	private static final String PREFIX = "scan1:";

	private static final String COMPLETE = "complete";

	private static final String DONE = "done";

	private static final String SERVER = "server";

	private static final Pattern CURSOR = Pattern.compile("[0-9]{1,20}");

	private static final Pattern SLOT = Pattern.compile("0|[1-9][0-9]{0,4}");

	private static final int MAX_SLOT = 16383;

	private static final ScanCursor START = new ScanCursor(new TreeMap<>(), false);

	private static final ScanCursor END = new ScanCursor(new TreeMap<>(), true);

	/**
	 * The cursor of each master, by the lowest slot it serves ({@link #SINGLE_SERVER} for
	 * a standalone server); {@code null} for a finished master.
	 */
	private final transient Map<Integer, @Nullable String> positions;

	private final transient boolean complete;

	private ScanCursor(TreeMap<Integer, @Nullable String> positions, boolean complete) {
		this.positions = Collections.unmodifiableMap(positions);
		this.complete = complete;
	}

	/**
	 * The start of a scan: every master from cursor 0.
	 * @return the starting position
	 */
	public static ScanCursor start() {
		return START;
	}

	/**
	 * Whether the scan has visited every master to its end.
	 * @return {@code true} when nothing is left to scan
	 */
	public boolean isComplete() {
		return this.complete;
	}

	/**
	 * This position as a compact string, for example {@code scan1:0=1536,5461=done}
	 * (masters by their lowest slot; a master not named starts from 0) or
	 * {@code scan1:server=88} (a standalone server). It contains only slot numbers and
	 * cursors.
	 * @return the token
	 * @see #fromToken(String)
	 */
	public String toToken() {
		if (this.complete) {
			return PREFIX + COMPLETE;
		}
		StringBuilder token = new StringBuilder(PREFIX);
		this.positions.forEach((master, cursor) -> {
			if (token.length() > PREFIX.length()) {
				token.append(',');
			}
			token.append((master == SINGLE_SERVER) ? SERVER : String.valueOf(master))
				.append('=')
				.append((cursor != null) ? cursor : DONE);
		});
		return token.toString();
	}

	/**
	 * The position a token from {@link #toToken()} stands for.
	 * @param token the token
	 * @return the position
	 * @throws IllegalArgumentException if the token is not one that {@link #toToken()}
	 * makes, with the reason
	 */
	public static ScanCursor fromToken(String token) {
		Assert.notNull(token, "token must not be null");
		if (!token.startsWith(PREFIX)) {
			throw invalid("it does not start with '" + PREFIX + "'");
		}
		String body = token.substring(PREFIX.length());
		if (body.equals(COMPLETE)) {
			return END;
		}
		TreeMap<Integer, @Nullable String> positions = new TreeMap<>();
		if (body.isEmpty()) {
			return START;
		}
		for (String entry : body.split(",", -1)) {
			int equals = entry.indexOf('=');
			if (equals < 0) {
				throw invalid("'" + entry + "' is not master=cursor");
			}
			String master = entry.substring(0, equals);
			String cursor = entry.substring(equals + 1);
			int key = parseMaster(master);
			if (positions.containsKey(key)) {
				throw invalid("master '" + master + "' appears twice");
			}
			if (!cursor.equals(DONE) && !isCursor(cursor)) {
				throw invalid("'" + cursor + "' is neither a SCAN cursor (an unsigned 64-bit number) nor 'done'");
			}
			if (cursor.equals(DONE)) {
				positions.put(key, null);
			}
			else if (Long.parseUnsignedLong(cursor) != 0) {
				// canonical form; cursor 0 is where an unknown master starts anyway
				positions.put(key, Long.toUnsignedString(Long.parseUnsignedLong(cursor)));
			}
		}
		if (positions.containsKey(SINGLE_SERVER) && positions.size() > 1) {
			throw invalid("it names both a standalone server and cluster masters");
		}
		return new ScanCursor(positions, false);
	}

	/**
	 * The cursor to continue a master from: {@code "0"} for a master this position does
	 * not know.
	 */
	String cursorOf(int master) {
		if (!this.positions.containsKey(master)) {
			return "0";
		}
		String cursor = this.positions.get(master);
		Assert.state(cursor != null, "master is finished");
		return cursor;
	}

	/**
	 * Whether a master is finished.
	 */
	boolean isFinished(int master) {
		return this.complete || (this.positions.containsKey(master) && this.positions.get(master) == null);
	}

	/**
	 * This position with a master moved on to a cursor.
	 */
	ScanCursor advance(int master, String cursor) {
		Assert.isTrue(!"0".equals(cursor), "cursor 0 ends a master: finish it instead");
		TreeMap<Integer, @Nullable String> next = new TreeMap<>(this.positions);
		next.put(master, cursor);
		return new ScanCursor(next, false);
	}

	/**
	 * This position with a master at a cursor: {@code "0"} starts it again from the
	 * beginning.
	 */
	ScanCursor at(int master, String cursor) {
		if (!"0".equals(cursor)) {
			return advance(master, cursor);
		}
		TreeMap<Integer, @Nullable String> next = new TreeMap<>(this.positions);
		next.remove(master);
		return new ScanCursor(next, false);
	}

	/**
	 * This position with a master finished.
	 */
	ScanCursor finish(int master) {
		TreeMap<Integer, @Nullable String> next = new TreeMap<>(this.positions);
		next.put(master, null);
		return new ScanCursor(next, false);
	}

	/**
	 * The end of the scan.
	 */
	static ScanCursor end() {
		return END;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (!(other instanceof ScanCursor that)) {
			return false;
		}
		return this.complete == that.complete && this.positions.equals(that.positions);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.positions, this.complete);
	}

	@Override
	public String toString() {
		return "ScanCursor[" + toToken() + "]";
	}

	private static int parseMaster(String master) {
		if (master.equals(SERVER)) {
			return SINGLE_SERVER;
		}
		if (!SLOT.matcher(master).matches() || Integer.parseInt(master) > MAX_SLOT) {
			throw invalid("'" + master + "' is neither 'server' nor a hash slot (0 to " + MAX_SLOT + ")");
		}
		return Integer.parseInt(master);
	}

	private static boolean isCursor(String cursor) {
		if (!CURSOR.matcher(cursor).matches()) {
			return false;
		}
		try {
			Long.parseUnsignedLong(cursor);
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static IllegalArgumentException invalid(String reason) {
		return new IllegalArgumentException("Invalid scan cursor token: " + reason
				+ " (a token is what ScanCursor.toToken() returns, such as 'scan1:0=1536,5461=done')");
	}

	@Serial
	private Object writeReplace() {
		return new Token(toToken());
	}

	@Serial
	private void readObject(ObjectInputStream stream) throws InvalidObjectException {
		throw new InvalidObjectException("A ScanCursor is serialized as its token");
	}

	/**
	 * The serialized form: the token, validated again when read.
	 */
	private record Token(String token) implements Serializable {

		@Serial
		private Object readResolve() throws InvalidObjectException {
			try {
				return fromToken(this.token);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidObjectException(ex.getMessage());
			}
		}

	}

}
