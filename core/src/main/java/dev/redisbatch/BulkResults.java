package dev.redisbatch;

/**
 * What a bulk operation ({@link BulkOperations}) did: the keys its scan matched, the
 * outcome of the command it sent for each of them, and where to resume.
 * <p>
 * {@link #keysMatched()} counts every key {@code SCAN} returned, and a key returned twice
 * counts twice; every matched key got one command, so {@code keysMatched()} equals
 * {@code commands().size()} (except for {@link BulkOperations#count()}, which sends
 * none). {@link #keysChanged()} counts, from Redis's replies, the keys the commands
 * actually changed, so a key returned twice counts once there.
 *
 * @since 0.1.0
 */
public final class BulkResults {

	private final String operation;

	private final long keysMatched;

	private final long keysChanged;

	private final BatchResults commands;

	private final ScanCursor cursor;

	BulkResults(String operation, long keysMatched, long keysChanged, BatchResults commands, ScanCursor cursor) {
		this.operation = operation;
		this.keysMatched = keysMatched;
		this.keysChanged = keysChanged;
		this.commands = commands;
		this.cursor = cursor;
	}

	/**
	 * The operation, as its observation names it.
	 * @return {@code unlink}, {@code del}, {@code expire}, {@code persist} or
	 * {@code count}
	 */
	public String operation() {
		return this.operation;
	}

	/**
	 * The keys the scan returned (a key returned twice counts twice).
	 * @return the count
	 */
	public long keysMatched() {
		return this.keysMatched;
	}

	/**
	 * The keys the commands changed, from Redis's replies: removed ({@code UNLINK},
	 * {@code DEL}), given the time to live ({@code PEXPIRE}), or made persistent
	 * ({@code PERSIST}); 0 for {@link BulkOperations#count()}.
	 * @return the count
	 */
	public long keysChanged() {
		return this.keysChanged;
	}

	/**
	 * The outcome of every command sent, one per matched key, as for any batch.
	 * @return the results of the commands
	 */
	public BatchResults commands() {
		return this.commands;
	}

	/**
	 * Where to resume: {@link ScanCursor#isComplete() complete} when every master was
	 * scanned to its end and every command succeeded; otherwise, for each master, the
	 * position before the first page with a command that did not succeed, or where its
	 * scan stopped. Pass it to {@link BulkOperations#from(ScanCursor)}.
	 * @return the cursor
	 */
	public ScanCursor cursor() {
		return this.cursor;
	}

	/**
	 * Whether the operation is done: every master scanned to its end and every command
	 * succeeded.
	 * @return whether nothing is left to resume
	 */
	public boolean isComplete() {
		return this.cursor.isComplete();
	}

	/**
	 * A one-line summary, with counts only (never a key).
	 * @return the summary
	 */
	public String summary() {
		return this.operation + ": " + this.keysMatched + " keys matched, " + this.keysChanged + " changed; "
				+ this.commands.summary() + (isComplete() ? "; complete" : "; resume from " + this.cursor.toToken());
	}

	@Override
	public String toString() {
		return "BulkResults[" + summary() + "]";
	}

}
