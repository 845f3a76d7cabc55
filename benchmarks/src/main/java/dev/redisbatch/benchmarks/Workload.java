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
 * <p>
 * The mixed workload works on {@code commands / 4} entities, each with four commands:
 * {@code INCR ctr:<id>}, {@code HSET hsh:<id> field <value>},
 * {@code EXPIRE hsh:<id> 3600} and {@code GET key:<id>} (of a key that exists).
 * <p>
 * Everything is generated once per trial, so that no benchmark measures building its
 * input.
 */
final class Workload {

	/**
	 * The size of every value in bytes (ASCII), as {@code redis-benchmark -d 64}.
	 */
	static final int VALUE_SIZE = 64;

	/**
	 * The TTL of every SET and EXPIRE.
	 */
	static final Duration TTL = Duration.ofHours(1);

	/**
	 * The hash field of the mixed workload.
	 */
	static final String FIELD = "field";

	private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		.toCharArray();

	private static final long KEY_SPACE = 1_000_000_000_000L;

	private final String[] keys;

	private final String[] values;

	private final Map<String, String> entries;

	private final List<String> keyList;

	private final String[] counterKeys;

	private final String[] hashKeys;

	private Workload(String[] keys, String[] values, String[] counterKeys, String[] hashKeys) {
		this.keys = keys;
		this.values = values;
		this.counterKeys = counterKeys;
		this.hashKeys = hashKeys;
		this.entries = new LinkedHashMap<>(keys.length * 2);
		for (int i = 0; i < keys.length; i++) {
			this.entries.put(keys[i], values[i]);
		}
		this.keyList = List.of(keys);
	}

	/**
	 * Generate a workload.
	 * @param commands the number of commands one operation sends: the number of keys for
	 * SET and GET, and four commands per entity for the mixed workload (which needs at
	 * least 4)
	 * @param seed the random seed
	 * @return the workload
	 */
	static Workload create(int commands, long seed) {
		if (commands < 1) {
			throw new IllegalArgumentException("at least 1 command, was " + commands);
		}
		Random random = new Random(seed);
		Set<Long> ids = new HashSet<>(commands * 2);
		String[] keys = new String[commands];
		String[] values = new String[commands];
		long[] idOf = new long[commands];
		for (int i = 0; i < commands; i++) {
			long id;
			do {
				id = Math.floorMod(random.nextLong(), KEY_SPACE);
			}
			while (!ids.add(id));
			idOf[i] = id;
			keys[i] = key("key:", id);
			values[i] = value(random);
		}
		int entities = commands / 4;
		String[] counterKeys = new String[entities];
		String[] hashKeys = new String[entities];
		for (int i = 0; i < entities; i++) {
			counterKeys[i] = key("ctr:", idOf[i]);
			hashKeys[i] = key("hsh:", idOf[i]);
		}
		return new Workload(keys, values, counterKeys, hashKeys);
	}

	/**
	 * A key in the format of {@code redis-benchmark -r}: the prefix and 12 digits.
	 * @param prefix the prefix, 4 characters
	 * @param id the id, below 10^12
	 * @return the key
	 */
	static String key(String prefix, long id) {
		char[] chars = new char[prefix.length() + 12];
		prefix.getChars(0, prefix.length(), chars, 0);
		long rest = id;
		for (int i = chars.length - 1; i >= prefix.length(); i--) {
			chars[i] = (char) ('0' + (rest % 10));
			rest /= 10;
		}
		return new String(chars);
	}

	static String value(Random random) {
		char[] chars = new char[VALUE_SIZE];
		for (int i = 0; i < chars.length; i++) {
			chars[i] = ALPHABET[random.nextInt(ALPHABET.length)];
		}
		return new String(chars);
	}

	/**
	 * The number of keys (SET, GET).
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

	/**
	 * Keys and values in key order, built once, for {@code setAll}-style APIs.
	 * @return the entries
	 */
	Map<String, String> entries() {
		return this.entries;
	}

	/**
	 * The keys as an immutable list, for {@code getAll}-style APIs.
	 * @return the keys
	 */
	List<String> keyList() {
		return this.keyList;
	}

	/**
	 * The number of entities of the mixed workload.
	 * @return {@code size() / 4}
	 */
	int entities() {
		return this.counterKeys.length;
	}

	/**
	 * The number of commands of one mixed operation.
	 * @return {@code 4 * entities()}
	 */
	int mixedCommands() {
		return 4 * entities();
	}

	/**
	 * How many replies of a mixed batch are what Spring Data Redis, Lettuce and Redisson
	 * answer: per entity, INCR a {@code Long}, HSET a {@code Boolean}, EXPIRE
	 * {@code true}, and GET the value written.
	 * @param replies how many replies came back
	 * @param reply the j-th reply, in the order the commands were sent
	 * @return the number of replies as expected
	 */
	long answeredMixed(int replies, IntFunction<@Nullable Object> reply) {
		long answered = 0;
		for (int i = 0; i + 3 < replies; i += 4) {
			answered += (reply.apply(i) instanceof Long) ? 1 : 0;
			answered += (reply.apply(i + 1) instanceof Boolean) ? 1 : 0;
			answered += Boolean.TRUE.equals(reply.apply(i + 2)) ? 1 : 0;
			answered += this.values[i / 4].equals(reply.apply(i + 3)) ? 1 : 0;
		}
		return answered;
	}

	/**
	 * The request bytes of one command of a workload as {@code BatchTemplate} writes it
	 * (RESP): {@code SET key value PX 3600000} (128 bytes) or {@code GET key} (36 bytes),
	 * with this workload's 16-byte keys and 64-byte values. What a byte window holds.
	 * @param workload SET or GET
	 * @return the bytes of one command
	 */
	static int requestBytes(String workload) {
		String key = key("key:", 0);
		return switch (workload) {
			case "SET" -> resp("SET", key, "v".repeat(VALUE_SIZE), "PX", String.valueOf(TTL.toMillis()));
			case "GET" -> resp("GET", key);
			default -> throw new IllegalArgumentException("SET or GET, not " + workload);
		};
	}

	private static int resp(String... arguments) {
		int bytes = ("*" + arguments.length + "\r\n").length();
		for (String argument : arguments) {
			bytes += ("$" + argument.length() + "\r\n").length() + argument.length() + 2;
		}
		return bytes;
	}

	String[] counterKeys() {
		return this.counterKeys;
	}

	String[] hashKeys() {
		return this.hashKeys;
	}

}
