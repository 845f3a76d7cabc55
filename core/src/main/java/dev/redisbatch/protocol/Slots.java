package dev.redisbatch.protocol;

import java.nio.charset.StandardCharsets;
import java.util.SortedSet;
import java.util.TreeSet;

import io.lettuce.core.cluster.SlotHash;

/**
 * Redis Cluster hash slots of keys: CRC16 of the key, or of its hash tag (the part
 * between the first <code>{</code> and the next <code>}</code>, when not empty), modulo
 * 16384.
 *
 * @since 0.1.0
 */
public final class Slots {

	/**
	 * The number of hash slots of a cluster.
	 */
	public static final int COUNT = SlotHash.SLOT_COUNT;

	/**
	 * The "slot" of a command without keys: on a cluster it can go to any master.
	 */
	public static final int ANY = -1;

	/**
	 * The "slot" of a command whose keys hash to different slots.
	 */
	public static final int CROSS = -2;

	private Slots() {
	}

	/**
	 * The slot of a key.
	 * @param key the key as sent
	 * @return from 0 to 16383
	 */
	public static int of(byte[] key) {
		return SlotHash.getSlot(key);
	}

	/**
	 * The one slot of several keys.
	 * @param keys the keys as sent
	 * @return their slot; {@link #ANY} when there are none; {@link #CROSS} when they hash
	 * to different slots
	 */
	public static int of(byte[][] keys) {
		if (keys.length == 0) {
			return ANY;
		}
		int slot = of(keys[0]);
		for (int i = 1; i < keys.length; i++) {
			if (of(keys[i]) != slot) {
				return CROSS;
			}
		}
		return slot;
	}

	/**
	 * The distinct slots of keys, in order: for messages, which name slots and never
	 * keys.
	 * @param keys the keys as sent
	 * @return the slots
	 */
	public static SortedSet<Integer> distinct(byte[][] keys) {
		SortedSet<Integer> slots = new TreeSet<>();
		for (byte[] key : keys) {
			slots.add(of(key));
		}
		return slots;
	}

	/**
	 * A short hash tag of a slot: a key that holds <code>{tag}</code> hashes to it. The
	 * tags of all slots are found once, at the first call (about 160,000 CRC16s of a few
	 * bytes each), and kept (about 400 KB).
	 * @param slot from 0 to 16383
	 * @return the tag, ASCII letters and digits
	 */
	public static byte[] tag(int slot) {
		return Tags.TAGS[slot];
	}

	private static final class Tags {

		private static final byte[][] TAGS = find();

		private static byte[][] find() {
			byte[][] tags = new byte[COUNT][];
			int found = 0;
			for (long n = 0; found < COUNT; n++) {
				byte[] candidate = Long.toString(n, Character.MAX_RADIX).getBytes(StandardCharsets.US_ASCII);
				int slot = of(candidate);
				if (tags[slot] == null) {
					tags[slot] = candidate;
					found++;
				}
			}
			return tags;
		}

	}

}
