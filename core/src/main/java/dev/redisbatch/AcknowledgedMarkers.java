package dev.redisbatch;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.protocol.Slots;
import org.jspecify.annotations.Nullable;

/**
 * The markers of a lane's exactly-once chunks that were answered on their first write:
 * such a chunk cannot arrive a second time, so its marker is no longer needed. The lane's
 * next chunk's script removes some ({@link #takeFor(int)}), and the rest go with
 * {@code UNLINK}s as the lane's lease ends ({@link #unlinkAll(Lease)}). A marker either
 * misses expires. On a cluster a marker is removed only together with markers of its own
 * slot: a script, and an {@code UNLINK} of several keys, stay in one slot.
 */
final class AcknowledgedMarkers {

	/**
	 * The most markers one chunk (or one {@code UNLINK}) removes.
	 */
	static final int MAX_PER_REMOVAL = 256;

	private final boolean cluster;

	private @Nullable List<byte[]> markers;

	AcknowledgedMarkers(boolean cluster) {
		this.cluster = cluster;
	}

	void add(byte[] marker) {
		List<byte[]> known = this.markers;
		if (known == null) {
			known = new ArrayList<>();
			this.markers = known;
		}
		known.add(marker);
	}

	/**
	 * Take the markers a chunk's script removes: at most {@link #MAX_PER_REMOVAL}, of the
	 * chunk's slot on a cluster.
	 * @param slot the chunk's slot
	 */
	List<byte[]> takeFor(int slot) {
		List<byte[]> known = this.markers;
		if (known == null || known.isEmpty()) {
			return List.of();
		}
		if (!this.cluster) {
			List<byte[]> taken = known.subList(0, Math.min(known.size(), MAX_PER_REMOVAL));
			List<byte[]> removed = new ArrayList<>(taken);
			taken.clear();
			return removed;
		}
		List<byte[]> removed = new ArrayList<>();
		Iterator<byte[]> each = known.iterator();
		while (each.hasNext() && removed.size() < MAX_PER_REMOVAL) {
			byte[] marker = each.next();
			if (Slots.of(marker) == slot) {
				removed.add(marker);
				each.remove();
			}
		}
		return removed;
	}

	/**
	 * Remove every marker left, with {@code UNLINK}s on the connection as its lease ends,
	 * their replies not awaited (the pool waits for them before it lends the connection
	 * again).
	 */
	void unlinkAll(Lease lease) {
		List<byte[]> known = this.markers;
		this.markers = null;
		if (known == null || known.isEmpty()) {
			return;
		}
		try {
			Map<Integer, List<byte[]>> bySlot = new LinkedHashMap<>();
			for (byte[] marker : known) {
				bySlot.computeIfAbsent(this.cluster ? Slots.of(marker) : Slots.ANY, (slot) -> new ArrayList<>())
					.add(marker);
			}
			for (List<byte[]> markers : bySlot.values()) {
				for (int from = 0; from < markers.size(); from += MAX_PER_REMOVAL) {
					List<byte[]> some = markers.subList(from, Math.min(markers.size(), from + MAX_PER_REMOVAL));
					lease.lettuce().async().unlink(some.toArray(new byte[0][]));
				}
			}
		}
		catch (RuntimeException ex) {
			// the markers expire
		}
	}

}
