package dev.redisbatch.sample.timing;

import java.util.Locale;

/**
 * What a timed run sends for every key.
 *
 * @since 0.1.0
 */
public enum Operation {

	/**
	 * {@code SET key value PX 3600000}.
	 */
	SET,

	/**
	 * {@code GET key}.
	 */
	GET;

	/**
	 * The name used in URLs and JSON.
	 * @return {@code set} or {@code get}
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The operation for a name used in URLs.
	 * @param id {@code set} or {@code get}, in any case
	 * @return the operation
	 */
	public static Operation of(String id) {
		return valueOf(id.toUpperCase(Locale.ROOT));
	}

}
