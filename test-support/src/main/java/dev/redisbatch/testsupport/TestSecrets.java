package dev.redisbatch.testsupport;

/**
 * Keys, values and passwords that must never appear in any log: tests that exercise
 * logging and error paths use them, and {@link LogScanner} fails the build if the marker
 * shows up in the output of the test run.
 *
 * @since 0.1.0
 */
public final class TestSecrets {

	/**
	 * The text every secret contains.
	 */
	public static final String MARKER = "NEVER-LOGGED";

	/**
	 * A password.
	 */
	public static final String PASSWORD = MARKER + "-password";

	private TestSecrets() {
	}

	/**
	 * A key.
	 * @param name what the key is for
	 * @return the key
	 */
	public static String key(String name) {
		return MARKER + "-key:" + name;
	}

	/**
	 * A value.
	 * @param name what the value is for
	 * @return the value
	 */
	public static String value(String name) {
		return MARKER + "-value:" + name;
	}

}
