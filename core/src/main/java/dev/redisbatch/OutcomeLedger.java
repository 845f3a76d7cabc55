package dev.redisbatch;

import java.time.Duration;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

/**
 * Counts outcomes and keeps failures compactly (a few bytes each, messages shared), so
 * that even a batch of millions of failed or unsent commands fits in a small heap.
 */
final class OutcomeLedger {

	private static final int MAX_POOLED_MESSAGES = 1024;

	private final long[] counts = new long[Outcome.values().length];

	private final Map<String, String> messages = new HashMap<>();

	private int[] indices = new int[16];

	private byte[] outcomes = new byte[16];

	private String[] commandNames = new String[16];

	private String[] failureMessages = new String[16];

	private int failureCount;

	private boolean sorted = true;

	void success() {
		this.counts[Outcome.SUCCESS.ordinal()]++;
	}

	void failure(int index, String command, Outcome outcome, String message) {
		this.counts[outcome.ordinal()]++;
		if (this.failureCount == this.indices.length) {
			int capacity = this.indices.length * 2;
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
				slice.failure(index - from, this.commandNames[i], Outcome.values()[this.outcomes[i]],
						this.failureMessages[i]);
				failed++;
			}
		}
		slice.counts[Outcome.SUCCESS.ordinal()] = (to - from) - failed;
		return slice;
	}

	BatchResults toResults(String name, int chunks, Duration elapsed, @Nullable String abortReason) {
		return new BatchResults(name, this.counts, new FailureList(this), chunks, elapsed, abortReason);
	}

	private String pooled(String message) {
		String existing = this.messages.get(message);
		if (existing != null) {
			return existing;
		}
		if (this.messages.size() < MAX_POOLED_MESSAGES) {
			this.messages.put(message, message);
		}
		return message;
	}

	/**
	 * A read-only view of the failures in index order, built once from the ledger.
	 */
	private static final class FailureList extends AbstractList<BatchFailure> {

		private static final Outcome[] OUTCOMES = Outcome.values();

		private final int[] indices;

		private final byte[] outcomes;

		private final String[] commands;

		private final String[] messages;

		private final int size;

		FailureList(OutcomeLedger ledger) {
			this.size = ledger.failureCount;
			int @Nullable [] order = ledger.sorted ? null
					: IntStream.range(0, this.size)
						.boxed()
						.sorted(Comparator.comparingInt((i) -> ledger.indices[i]))
						.mapToInt(Integer::intValue)
						.toArray();
			this.indices = new int[this.size];
			this.outcomes = new byte[this.size];
			this.commands = new String[this.size];
			this.messages = new String[this.size];
			for (int i = 0; i < this.size; i++) {
				int from = (order != null) ? order[i] : i;
				this.indices[i] = ledger.indices[from];
				this.outcomes[i] = ledger.outcomes[from];
				this.commands[i] = ledger.commandNames[from];
				this.messages[i] = ledger.failureMessages[from];
			}
		}

		@Override
		public BatchFailure get(int i) {
			if (i < 0 || i >= this.size) {
				throw new IndexOutOfBoundsException("Index " + i + " out of bounds for length " + this.size);
			}
			return new BatchFailure(this.indices[i], this.commands[i], OUTCOMES[this.outcomes[i]], this.messages[i]);
		}

		@Override
		public int size() {
			return this.size;
		}

	}

}
