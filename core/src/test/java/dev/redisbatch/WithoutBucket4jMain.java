package dev.redisbatch;

import io.lettuce.core.RedisURI;

/**
 * Runs a batch without a rate cap, then asks for a cap, in a JVM whose class path lacks
 * Bucket4j, and prints what happened. Started by {@link PoliteModeTests}.
 */
public final class WithoutBucket4jMain {

	private WithoutBucket4jMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		boolean bucket4j;
		try {
			Class.forName("io.github.bucket4j.Bucket");
			bucket4j = true;
		}
		catch (ClassNotFoundException ex) {
			bucket4j = false;
		}
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool,
					BatchOptions.builder().maxCommandsPerSecond(BatchOptions.NO_RATE_CAP).build());
			BatchResults results = template.execute((batch) -> batch.set("plain", "ran"));
			String message;
			try {
				BatchOptions.builder().maxCommandsPerSecond(100);
				message = "none";
			}
			catch (IllegalStateException ex) {
				message = ex.getMessage();
			}
			System.out.println("RESULT bucket4j=" + bucket4j + " plain=" + results.isSuccess() + " message=" + message);
		}
	}

}
