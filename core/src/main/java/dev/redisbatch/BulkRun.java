package dev.redisbatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandType;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * One run of a bulk operation: every master is scanned with its own cursor, a page from
 * each in turn, and the keys of each page are recorded, one command each, into one
 * {@link BatchRun}, which sends them in chunks while the scan goes on.
 * <p>
 * To know where to resume, each master keeps its pages whose commands are not all settled
 * yet (only those: the window bounds them), with the cursor each page started from. A
 * page whose commands all succeeded is forgotten; the first page of a master with a
 * command that did not succeed fixes that master's resume position, and its scan stops
 * (its lane has stopped, or its commands fail). Keys are never deserialized.
 */
final class BulkRun {

	private static final BatchSerializers<byte[], byte[]> RAW = new BatchSerializers<>(RedisSerializer.byteArray(),
			RedisSerializer.byteArray(), RedisSerializer.byteArray(), RedisSerializer.byteArray());

	private static final Supplier<CommandOutput<byte[], byte[], ?>> INTEGER = () -> new IntegerOutput<>(
			ByteArrayCodec.INSTANCE);

	private static final Function<@Nullable Object, Long> LONG = (raw) -> (raw != null) ? (Long) raw : 0L;

	private final BatchConnectionPool pool;

	private final MasterKeyScanner<byte[]> scanner;

	private final BatchRun run;

	private final RunSettings settings;

	private final Operation operation;

	private final long ttlMillis;

	private final ScanCursor from;

	private final CommandWriter<?> writer;

	private final Map<Integer, MasterScan> masters = new TreeMap<>();

	private int scanAttemptsLeft;

	private long matched;

	private long changed;

	private @Nullable Throwable scanFailure;

	BulkRun(BatchConnectionPool pool, MasterKeyScanner<byte[]> scanner, BatchRun run, RunSettings settings,
			Operation operation, long ttlMillis, ScanCursor from) {
		this.pool = pool;
		this.scanner = scanner;
		this.run = run;
		this.settings = settings;
		this.operation = operation;
		this.ttlMillis = ttlMillis;
		this.from = from;
		this.writer = new CommandWriter<>(RAW, run, true);
		this.scanAttemptsLeft = settings.retryAttempts();
	}

	/**
	 * Scan every master to its end (or until the batch stops), then wait for every
	 * command.
	 * @return the results, when the operation completed
	 * @throws BulkException otherwise
	 */
	BulkResults run() {
		this.run.bulk(this.operation.observedName());
		try {
			scanAll();
		}
		catch (RuntimeException | Error ex) {
			throw BatchRun.rethrow(this.run.afterFailure(ex));
		}
		boolean interrupted = Thread.currentThread().isInterrupted() && !this.run.isStopped();
		BatchResults commands = interrupted ? this.run.abort(Messages.interrupted()) : this.run.finish();
		for (MasterScan master : this.masters.values()) {
			this.changed += master.collect();
		}
		BulkResults results = new BulkResults(this.operation.observedName(), this.matched, this.changed, commands,
				cursor());
		if (!results.isComplete()) {
			Throwable cause = (this.run.abortCause() != null) ? this.run.abortCause() : this.scanFailure;
			throw new BulkException(message(results), results, cause);
		}
		return results;
	}

	private void scanAll() {
		boolean scanned = true;
		while (scanned) {
			scanned = false;
			for (Integer key : this.pool.mastersByLowestSlot().keySet()) {
				if (this.run.isStopped() || Thread.currentThread().isInterrupted()) {
					return;
				}
				MasterScan master = this.masters.computeIfAbsent(key,
						(lowestSlot) -> new MasterScan(lowestSlot, this.from));
				this.changed += master.collect();
				if (!master.isScanning()) {
					continue;
				}
				KeyScanCursor<byte[]> page = scanPage(master);
				if (page != null) {
					record(master, page);
					scanned = true;
				}
			}
		}
	}

	/**
	 * One page of a master; after a failure, again after the backoff while retry attempts
	 * are left; {@code null} when the master's scan stopped.
	 */
	private @Nullable KeyScanCursor<byte[]> scanPage(MasterScan master) {
		while (true) {
			NodePool node = this.pool.mastersByLowestSlot().get(master.lowestSlot);
			if (node == null) {
				// its slots moved: the next round finds them under another lowest slot
				master.stop("its slots moved");
				return null;
			}
			try {
				return this.scanner.scan(node, master.cursor);
			}
			catch (DataAccessException ex) {
				if (!Thread.currentThread().isInterrupted() && this.scanAttemptsLeft > 0
						&& Backoff.pause(this.settings.retryBackoff().toNanos())) {
					this.scanAttemptsLeft--;
					continue;
				}
				master.stop(Messages.scanFailed(node.address(), ex));
				if (this.scanFailure == null) {
					this.scanFailure = ex;
				}
				return null;
			}
		}
	}

	private void record(MasterScan master, KeyScanCursor<byte[]> page) {
		// exactly-once batches' markers are the batches' own: never touched, never
		// counted
		List<byte[]> keys = new ArrayList<>(page.getKeys());
		keys.removeIf(ExactlyOnce::isMarker);
		this.matched += keys.size();
		this.run.keysMatched(keys.size());
		if (this.operation != Operation.COUNT && !keys.isEmpty()) {
			List<@Nullable CommandResponse<Long>> responses = new ArrayList<>(keys.size());
			for (byte[] key : keys) {
				responses.add(send(key));
			}
			master.pages.add(new Page(master.cursor, responses));
		}
		if (page.isFinished() || "0".equals(page.getCursor())) {
			master.finished = true;
		}
		else {
			master.cursor = page.getCursor();
		}
	}

	private CommandResponse<Long> send(byte[] key) {
		CommandWriter<Long> command = this.writer.start(this.operation.command(), INTEGER, LONG).key(key);
		if (this.operation == Operation.EXPIRE) {
			command.number(this.ttlMillis);
		}
		return (CommandResponse<Long>) command.send();
	}

	/**
	 * Where to resume: per master, before its first page that did not fully succeed, or
	 * where its scan got to; complete when every master is finished.
	 */
	private ScanCursor cursor() {
		ScanCursor position = this.from;
		boolean complete = true;
		for (Integer key : this.pool.mastersByLowestSlot().keySet()) {
			MasterScan master = this.masters.get(key);
			if (master == null) {
				// never reached: the batch stopped first
				complete = complete && this.from.isFinished(key);
				continue;
			}
			if (master.resumeFrom != null) {
				position = position.at(key, master.resumeFrom);
				complete = false;
			}
			else if (master.finished) {
				position = position.finish(key);
			}
			else {
				position = position.at(key, master.cursor);
				complete = false;
			}
		}
		return complete ? ScanCursor.end() : position;
	}

	private String message(BulkResults results) {
		int left = 0;
		StringBuilder reasons = new StringBuilder();
		for (MasterScan master : this.masters.values()) {
			if (!master.finished || master.resumeFrom != null) {
				left++;
			}
			if (master.stopReason != null) {
				reasons.append("; ").append(master.stopReason);
			}
		}
		String stopped = results.commands().abortReason();
		if (stopped != null) {
			reasons.append("; stopped early: ").append(stopped);
		}
		return Messages.bulkIncomplete(this.operation.observedName(), this.matched, Math.max(left, 1),
				results.commands()) + reasons;
	}

	/**
	 * The operations: each sends one command per key, safe to apply twice.
	 */
	enum Operation {

		UNLINK(CommandType.UNLINK), DEL(CommandType.DEL), EXPIRE(CommandType.PEXPIRE), PERSIST(CommandType.PERSIST),
		COUNT(CommandType.SCAN);

		private final CommandType command;

		Operation(CommandType command) {
			this.command = command;
		}

		CommandType command() {
			return this.command;
		}

		String observedName() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * The scan of one master: its cursor, and its pages whose commands are not all
	 * settled.
	 */
	private static final class MasterScan {

		private final int lowestSlot;

		private final ArrayDeque<Page> pages = new ArrayDeque<>();

		private String cursor;

		private boolean finished;

		private @Nullable String resumeFrom;

		private @Nullable String stopReason;

		MasterScan(int lowestSlot, ScanCursor from) {
			this.lowestSlot = lowestSlot;
			this.finished = from.isFinished(lowestSlot);
			this.cursor = this.finished ? "0" : from.cursorOf(lowestSlot);
		}

		boolean isScanning() {
			return !this.finished && this.resumeFrom == null && this.stopReason == null;
		}

		void stop(String reason) {
			this.stopReason = reason;
		}

		/**
		 * Forget the oldest pages whose commands are all settled: the first that did not
		 * fully succeed fixes where this master resumes.
		 * @return the keys their commands changed
		 */
		long collect() {
			long changedKeys = 0;
			while (!this.pages.isEmpty()) {
				Page page = this.pages.peek();
				while (page.next < page.responses.size()) {
					CommandResponse<Long> response = page.responses.get(page.next);
					// entries before page.next were cleared; this one is set
					Outcome outcome = response.outcomeIfSettled();
					if (outcome == null) {
						return changedKeys;
					}
					if (outcome == Outcome.SUCCESS) {
						changedKeys += response.get();
					}
					else {
						page.failed = true;
					}
					page.responses.set(page.next++, null);
				}
				this.pages.poll();
				if (page.failed && this.resumeFrom == null) {
					this.resumeFrom = page.before;
				}
			}
			return changedKeys;
		}

	}

	/**
	 * The commands of one page, and the cursor the page was scanned from.
	 */
	private static final class Page {

		private final String before;

		private final List<@Nullable CommandResponse<Long>> responses;

		private int next;

		private boolean failed;

		Page(String before, List<@Nullable CommandResponse<Long>> responses) {
			this.before = before;
			this.responses = responses;
		}

	}

}
