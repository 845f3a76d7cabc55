package dev.redisbatch;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The chunks an exactly-once lane on a cluster records for the slots other than the one
 * of its open chunk: a chunk's script runs in one hash slot, so each chunk holds the
 * commands of one slot. A chunk waits here until a command of its slot comes again; once
 * more than {@link #MAX_CHUNKS} wait, or more bytes than the lane's window, the lane
 * sends the oldest. Commands that cycle through a master's slots still fill chunks of
 * many commands.
 */
final class SlotChunks {

	/**
	 * The most chunks that wait.
	 */
	static final int MAX_CHUNKS = 4096;

	/**
	 * The first capacity of a chunk buffer: a slot's chunk often holds a few commands.
	 */
	static final int FIRST_BUFFER_BYTES = 512;

	private final LinkedHashMap<Integer, Chunk> waiting = new LinkedHashMap<>();

	private final long maxBytes;

	private long bytes;

	/**
	 * @param maxBytes the most request bytes that wait (the lane's window)
	 */
	SlotChunks(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	/**
	 * Take the chunk that waits for a slot, if one does.
	 */
	@Nullable Chunk take(int slot) {
		Chunk chunk = this.waiting.remove(slot);
		if (chunk != null) {
			this.bytes -= chunk.bytes();
		}
		return chunk;
	}

	/**
	 * Let a chunk of commands wait for more of its slot.
	 */
	void park(Chunk chunk) {
		this.waiting.put(chunk.slot(), chunk);
		this.bytes += chunk.bytes();
	}

	/**
	 * Whether more wait than may: then the oldest is sent.
	 */
	boolean isOverLimit() {
		return this.waiting.size() > MAX_CHUNKS || this.bytes > this.maxBytes;
	}

	/**
	 * Take the chunk that has waited longest, if any.
	 */
	@Nullable Chunk takeOldest() {
		Iterator<Chunk> oldest = this.waiting.values().iterator();
		if (!oldest.hasNext()) {
			return null;
		}
		Chunk chunk = oldest.next();
		oldest.remove();
		this.bytes -= chunk.bytes();
		return chunk;
	}

	/**
	 * Take every chunk that waits.
	 */
	List<Chunk> takeAll() {
		List<Chunk> all = new ArrayList<>(this.waiting.values());
		this.waiting.clear();
		this.bytes = 0;
		return all;
	}

	boolean isEmpty() {
		return this.waiting.isEmpty();
	}

}
