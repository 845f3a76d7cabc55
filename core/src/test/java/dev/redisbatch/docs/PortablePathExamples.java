package dev.redisbatch.docs;

import dev.redisbatch.BatchConnectionPool;
import io.lettuce.core.RedisURI;

/**
 * The example of docs/configuration.md on the portable path.
 */
public final class PortablePathExamples {

	private PortablePathExamples() {
	}

	/**
	 * A pool whose batches always take the portable path.
	 * @param host the server's host
	 * @param port its port
	 * @return the pool
	 */
	public static BatchConnectionPool portablePool(String host, int port) {
		BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://" + host + ":" + port))
			.fastPath(false)
			.build();
		return pool;
	}

}
