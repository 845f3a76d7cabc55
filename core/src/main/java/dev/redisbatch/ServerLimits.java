package dev.redisbatch;

/**
 * What a server accepts, learned from its first connections: the largest key, value or
 * argument ({@code proto-max-bulk-len}), so that a value it would refuse is rejected
 * before it is sent (a server that refuses one mid-stream closes the connection, and the
 * replies before it can be lost).
 */
final class ServerLimits {

	/**
	 * Redis's default {@code proto-max-bulk-len}, used until the server says otherwise.
	 */
	static final long DEFAULT_MAX_BULK_BYTES = 512L * 1024 * 1024;

	private volatile long maxBulkBytes = DEFAULT_MAX_BULK_BYTES;

	/**
	 * The largest argument the server accepts; Redis's default when the server does not
	 * say.
	 */
	long maxBulkBytes() {
		return this.maxBulkBytes;
	}

	/**
	 * Ask a new connection's server for its {@code proto-max-bulk-len}.
	 * @param connection the new connection
	 * @return the connection
	 */
	BatchConnection learn(BatchConnection connection) {
		try {
			String value = connection.lettuce().sync().configGet("proto-max-bulk-len").get("proto-max-bulk-len");
			if (value != null) {
				this.maxBulkBytes = Long.parseLong(value.trim());
			}
		}
		catch (RuntimeException ex) {
			// CONFIG may be disabled or not permitted (managed services): keep Redis's
			// default
		}
		return connection;
	}

}
