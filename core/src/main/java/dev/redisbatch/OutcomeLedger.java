package dev.redisbatch;

import java.time.Duration;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

/**
 * Counts outcomes and keeps failures compactly, so that even a batch of millions of
 * failed or unsent commands fits in a small heap:
 * <ul>
 * <li>each failure is a few bytes (its index, outcome, and shared command name and
 * message);</li>
 * <li>the commands recorded after the batch stopped are one range,
 * {@link Outcome#NOT_SENT} with one reason, and cost one byte each (their command name,
 * as a code).</li>
 * </ul>
 * {@link BatchResults#failures()} is a view that yields every failure, in index order,
 * without making an object per failure until it is read.
 */
final class OutcomeLedger {

	private static final int MAX_POOLED_MESSAGES = 1024;

	private static final Outcome[] OUTCOMES = Outcome.values();

	/**
	 * The first failure's room: a batch where every command succeeds allocates none, and
	 * shares these empty arrays until then.
	 */
	private static final int FIRST_FAILURES = 16;

	private static final int[] NO_INDICES = {};

	private static final byte[] NO_OUTCOMES = {};

	private static final String[] NO_STRINGS = {};

	private final long[] counts = new long[OUTCOMES.length];

	private @Nullable Map<String, String> messages;

	private int[] indices = NO_INDICES;

	private byte[] outcomes = NO_OUTCOMES;

	private String[] commandNames = NO_STRINGS;

	private String[] failureMessages = NO_STRINGS;

	private int failureCount;

	private boolean sorted = true;

	/**
	 * The commands recorded after the batch stopped: {@link Tail#NONE} until there is
	 * one.
	 */
	private Tail tail = Tail.NONE;

	void success() {
		this.counts[Outcome.SUCCESS.ordinal()]++;
	}

	void failure(int index, String command, Outcome outcome, String message) {
		this.counts[outcome.ordinal()]++;
		if (this.failureCount == this.indices.length) {
			int capacity = Math.max(FIRST_FAILURES, this.indices.length * 2);
			this.indices = Arrays.copyOf(this.indices, capacity);
			this.outcomes = Arrays.copyOf(this.outcomes, capacity);
			this.commandNames = Arrays.copyOf(this.commandNames, capacity);
			this.failureMessages = Arrays.copyOf(this.failureMessages, capacity);
		}
		if (this.failureCount > 0 && this.indices[this.failureCount - 1] > index) {
			this.sorted = false;
		}
		this.indices[this.failureCount] = index;
		this.outcomes[this.failureCount] = (byte) outcome.ordinal();
		this.commandNames[this.failureCount] = command;
		this.failureMessages[this.failureCount] = pooled(message);
		this.failureCount++;
	}

	/**
	 * A command recorded after the batch stopped: {@link Outcome#NOT_SENT} at once, the
	 * next index of one range that shares its reason.
	 * @param index its index: the first one of the range, or the one after the last
	 * @param command its name
	 * @param reason why the batch stopped, the same for the whole range
	 */
	void notSentAfterStop(int index, String command, String reason) {
		this.counts[Outcome.NOT_SENT.ordinal()]++;
		if (this.tail == Tail.NONE) {
			this.tail = new Tail();
		}
		// the range keeps its first command's reason only
		this.tail.add(index, command, (this.tail.size() == 0) ? pooled(reason) : reason);
	}

	long count(Outcome outcome) {
		return this.counts[outcome.ordinal()];
	}

	long total() {
		long total = 0;
		for (long count : this.counts) {
			total += count;
		}
		return total;
	}

	/**
	 * A ledger of the commands from {@code from} (inclusive) to {@code to} (exclusive),
	 * re-indexed from 0. Every one of them must already have its outcome.
	 */
	OutcomeLedger slice(int from, int to) {
		OutcomeLedger slice = new OutcomeLedger();
		int failed = 0;
		for (int i = 0; i < this.failureCount; i++) {
			int index = this.indices[i];
			if (index >= from && index < to) {
				slice.failure(index - from, this.commandNames[i], OUTCOMES[this.outcomes[i]], this.failureMessages[i]);
				failed++;
			}
		}
		for (int index = Math.max(from, this.tail.start); index < Math.min(to, this.tail.end()); index++) {
			slice.notSentAfterStop(index - from, this.tail.name(index), this.tail.reason());
			failed++;
		}
		slice.counts[Outcome.SUCCESS.ordinal()] = (to - from) - failed;
		return slice;
	}

	BatchResults toResults(String name, int chunks, Duration elapsed, @Nullable String abortReason) {
		List<BatchFailure> failures = (this.failureCount == 0 && this.tail.size() == 0) ? List.of()
				: new FailureList(this);
		return new BatchResults(name, this.counts, failures, chunks, elapsed, abortReason);
	}

	private String pooled(String message) {
		Map<String, String> pool = this.messages;
		if (pool == null) {
			pool = new HashMap<>();
			this.messages = pool;
		}
		String existing = pool.get(message);
		if (existing != null) {
			return existing;
		}
		if (pool.size() < MAX_POOLED_MESSAGES) {
			pool.put(message, message);
		}
		return message;
	}

	/**
	 * The commands recorded after the batch stopped: one range of indexes with one
	 * reason, and a byte per command for its name (a code into a table of the few names a
	 * batch uses), in pages, so that a batch that stops early costs a byte per command it
	 * still records.
	 */
	private static final class Tail {

		/**
		 * No command was recorded after a stop: shared, and never added to.
		 */
		static final Tail NONE = new Tail();

		private static final int PAGE = 1 << 16;

		private static final int MAX_CODES = 256;

		private final List<String> names = new ArrayList<>();

		private final Map<String, Integer> codes = new HashMap<>();

		/**
		 * Names beyond the table's 256, by index (a batch with that many different
		 * commands after a stop is unusual).
		 */
		private final Map<Integer, String> others = new HashMap<>();

		private byte[][] pages = new byte[0][];

		private int start = Integer.MAX_VALUE;

		private int size;

		private @Nullable String reason;

		void add(int index, String command, String why) {
			if (this.size == 0) {
				this.start = index;
				this.reason = why;
			}
			else if (index != this.start + this.size) {
				throw new IllegalStateException("Commands recorded after a stop have consecutive indexes, but #" + index
						+ " follows #" + (this.start + this.size - 1));
			}
			int page = this.size / PAGE;
			if (page == this.pages.length) {
				this.pages = Arrays.copyOf(this.pages, page + 1);
				this.pages[page] = new byte[PAGE];
			}
			Integer code = this.codes.get(command);
			if (code == null && this.names.size() < MAX_CODES - 1) {
				code = this.names.size();
				this.names.add(command);
				this.codes.put(command, code);
			}
			if (code == null) {
				code = MAX_CODES - 1;
				this.others.put(index, command);
			}
			this.pages[page][this.size % PAGE] = (byte) (int) code;
			this.size++;
		}

		int end() {
			return (this.size == 0) ? Integer.MIN_VALUE : this.start + this.size;
		}

		int size() {
			return this.size;
		}

		String name(int index) {
			int offset = index - this.start;
			int code = this.pages[offset / PAGE][offset % PAGE] & 0xFF;
			return (code == MAX_CODES - 1) ? this.others.get(index) : this.names.get(code);
		}

		String reason() {
			return String.valueOf(this.reason);
		}

	}

	/**
	 * A read-only view of the failures in index order: those kept one by one (sorted once
	 * when the view is made), then the range of commands recorded after the stop, all of
	 * whose indexes come after them. A {@link BatchFailure} is made when an element is
	 * read.
	 */
	private static final class FailureList extends AbstractList<BatchFailure> {

		private final int[] indices;

		private final byte[] outcomes;

		private final String[] commands;

		private final String[] messages;

		private final int kept;

		private final Tail tail;

		private final int tailSize;

		FailureList(OutcomeLedger ledger) {
			this.kept = ledger.failureCount;
			int @Nullable [] order = ledger.sorted ? null
					: IntStream.range(0, this.kept)
						.boxed()
						.sorted(Comparator.comparingInt((i) -> ledger.indices[i]))
						.mapToInt(Integer::intValue)
						.toArray();
			this.indices = new int[this.kept];
			this.outcomes = new byte[this.kept];
			this.commands = new String[this.kept];
			this.messages = new String[this.kept];
			for (int i = 0; i < this.kept; i++) {
				int from = (order != null) ? order[i] : i;
				this.indices[i] = ledger.indices[from];
				this.outcomes[i] = ledger.outcomes[from];
				this.commands[i] = ledger.commandNames[from];
				this.messages[i] = ledger.failureMessages[from];
			}
			this.tail = ledger.tail;
			this.tailSize = ledger.tail.size();
		}

		@Override
		public BatchFailure get(int i) {
			if (i < 0 || i >= size()) {
				throw new IndexOutOfBoundsException("Index " + i + " out of bounds for length " + size());
			}
			if (i < this.kept) {
				return new BatchFailure(this.indices[i], this.commands[i], OUTCOMES[this.outcomes[i]],
						this.messages[i]);
			}
			int index = this.tail.start + (i - this.kept);
			return new BatchFailure(index, this.tail.name(index), Outcome.NOT_SENT, this.tail.reason());
		}

		@Override
		public int size() {
			return this.kept + this.tailSize;
		}

	}

}
