package dev.redisbatch.sample.web;

import java.util.Collection;
import java.util.List;

/**
 * What an error message may repeat of a request: at most a few names, each cut to a short
 * length, so that an answer never grows with the input.
 */
final class Echo {

	/**
	 * The most characters repeated of one value.
	 */
	static final int MAX_LENGTH = 32;

	/**
	 * The most values repeated from a list.
	 */
	static final int MAX_VALUES = 3;

	private Echo() {
	}

	/**
	 * The value, or its first {@value #MAX_LENGTH} characters and its length.
	 */
	static String of(String value) {
		int length = value.codePointCount(0, value.length());
		if (length <= MAX_LENGTH) {
			return value;
		}
		return value.substring(0, value.offsetByCodePoints(0, MAX_LENGTH)) + "… (" + length + " characters)";
	}

	/**
	 * The first {@value #MAX_VALUES} values, each through {@link #of(String)}, and how
	 * many more there are.
	 */
	static String of(Collection<String> values) {
		List<String> shown = values.stream().limit(MAX_VALUES).map(Echo::of).toList();
		String text = String.join(", ", shown);
		return (values.size() > shown.size()) ? text + " and " + (values.size() - shown.size()) + " more" : text;
	}

}
