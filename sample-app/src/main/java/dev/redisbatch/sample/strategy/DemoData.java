package dev.redisbatch.sample.strategy;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import org.springframework.util.Assert;

/**
 * The keys and values the sample writes: {@code count} keys under {@link #KEY_PREFIX}, so
 * the demo never touches other data. The same count always gives the same keys and
 * values, so every strategy works on the same data.
 *
 * @param keys the keys, {@code sample:0}, {@code sample:1}, ...
 * @param values the values, {@code value-0}, {@code value-1}, ..., aligned with the keys
 * @since 0.1.0
 */
public record DemoData(List<String> keys, List<String> values) {

	/**
	 * The prefix of every key the sample writes or reads.
	 */
	public static final String KEY_PREFIX = "sample:";

	/**
	 * Check that keys and values line up.
	 */
	public DemoData {
		Assert.isTrue(keys.size() == values.size(), "keys and values must have the same size");
	}

	/**
	 * The data for a count.
	 * @param count the number of keys
	 * @return the data
	 */
	public static DemoData of(int count) {
		Assert.isTrue(count >= 0, "count must not be negative");
		return new DemoData(new Generated(count, KEY_PREFIX), new Generated(count, "value-"));
	}

	/**
	 * Data for warming up, under {@code sample:warm-up:}, apart from the data the
	 * endpoints time.
	 * @param count the number of keys
	 * @return the data
	 */
	public static DemoData warmUp(int count) {
		Assert.isTrue(count >= 0, "count must not be negative");
		return new DemoData(new Generated(count, KEY_PREFIX + "warm-up:"), new Generated(count, "value-"));
	}

	/**
	 * The key at an index.
	 * @param index the index
	 * @return the key
	 */
	public static String key(int index) {
		return KEY_PREFIX + index;
	}

	/**
	 * The number of keys.
	 * @return the size
	 */
	public int size() {
		return this.keys.size();
	}

	/**
	 * The keys and values from {@code from} (inclusive) to {@code to} (exclusive).
	 * @param from the first index
	 * @param to the index after the last
	 * @return the slice
	 */
	public DemoData slice(int from, int to) {
		return new DemoData(this.keys.subList(from, to), this.values.subList(from, to));
	}

	/**
	 * {@code prefix + index}, computed when read, so a large count costs no memory.
	 */
	private static final class Generated extends AbstractList<String> implements RandomAccess {

		private final int size;

		private final String prefix;

		Generated(int size, String prefix) {
			this.size = size;
			this.prefix = prefix;
		}

		@Override
		public String get(int index) {
			if (index < 0 || index >= this.size) {
				throw new IndexOutOfBoundsException(index);
			}
			return this.prefix + index;
		}

		@Override
		public int size() {
			return this.size;
		}

	}

}
