package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

/**
 * The data of one benchmark: random keys in the format {@code redis-benchmark} uses
 * ({@code key:} and 12 digits, 16 bytes), values of {@value #VALUE_SIZE} random
 * characters (as {@code redis-benchmark -d 64}), and a TTL of one hour on every write.
 * Everything is generated once per trial, so that no benchmark measures building its
 * input.
 */
final class Workload {

	/**
	 * The size of every value in bytes (ASCII), as {@code redis-benchmark -d 64}.
	 */
	static final int VALUE_SIZE = 64;

	/**
	 * The TTL of every SET.
	 */
	static final Duration TTL = Duration.ofHours(1);

	private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		.toCharArray();

	private static final long KEY_SPACE = 1_000_000_000_000L;

	private final String[] keys;

	private final String[] values;

	private final Map<String, String> entries;

	private Workload(String[] keys, String[] values) {
		this.keys = keys;
		this.values = values;
		this.entries = new LinkedHashMap<>(keys.length * 2);
		for (int i = 0; i < keys.length; i++) {
			this.entries.put(keys[i], values[i]);
		}
	}

	/**
	 * Generate a workload.
	 * @param size the number of keys, at least 1
	 * @param seed the random seed: the same seed gives every strategy the same data
	 * @return the workload
	 */
	static Workload create(int size, long seed) {
		if (size < 1) {
			throw new IllegalArgumentException("at least 1 key, was " + size);
		}
		Random random = new Random(seed);
		Set<Long> ids = new HashSet<>(size * 2);
		String[] keys = new String[size];
		String[] values = new String[size];
		for (int i = 0; i < size; i++) {
			long id;
			do {
				id = Math.floorMod(random.nextLong(), KEY_SPACE);
			}
			while (!ids.add(id));
			keys[i] = key(id);
			char[] value = new char[VALUE_SIZE];
			for (int c = 0; c < value.length; c++) {
				value[c] = ALPHABET[random.nextInt(ALPHABET.length)];
			}
			values[i] = new String(value);
		}
		return new Workload(keys, values);
	}

	/**
	 * A key in the format of {@code redis-benchmark -r}: {@code key:} and 12 digits.
	 * @param id the id, below 10^12
	 * @return the key
	 */
	static String key(long id) {
		char[] chars = "key:000000000000".toCharArray();
		long rest = id;
		for (int i = chars.length - 1; i >= 4; i--) {
			chars[i] = (char) ('0' + (rest % 10));
			rest /= 10;
		}
		return new String(chars);
	}

	/**
	 * The number of keys.
	 * @return the size
	 */
	int size() {
		return this.keys.length;
	}

	String[] keys() {
		return this.keys;
	}

	String[] values() {
		return this.values;
	}

	/**
	 * Keys and values in key order, built once, for {@code setAll}-style APIs.
	 * @return the entries
	 */
	Map<String, String> entries() {
		return this.entries;
	}

	/**
	 * The keys as a list, for {@code getAll}-style APIs.
	 * @return the keys
	 */
	List<String> keyList() {
		return List.of(this.keys);
	}

	/**
	 * How many of the first {@code count} values read back equal the values written: the
	 * check every strategy applies to its GET replies.
	 * @param count how many values were read
	 * @param actual the value read for the i-th key
	 * @return the number of values that match
	 */
	long matchingValues(int count, IntFunction<@Nullable Object> actual) {
		long matched = 0;
		for (int i = 0; i < count; i++) {
			if (this.values[i].equals(actual.apply(i))) {
				matched++;
			}
		}
		return matched;
	}

}
