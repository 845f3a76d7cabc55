package dev.redisbatch;

import java.time.Duration;

import io.lettuce.core.RedisURI;

/**
 * Runs one batch of {@code INCR counter} commands with retry on against the server on the
 * given port, which the test kills and restarts meanwhile, and prints the outcome counts.
 * Started in its own JVM with a small heap by {@link BoundedMemoryTests}.
 */
public final class RetryThroughRestartMain {

	private RetryThroughRestartMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		int commands = Integer.parseInt(args[1]);
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.connectTimeout(Duration.ofSeconds(2))
			.maxWait(Duration.ofSeconds(2))
			.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			BatchOptions options = BatchOptions.builder()
				.timeout(Duration.ofSeconds(5))
				.retry(BatchOptions.MAX_RETRY_ATTEMPTS, Duration.ofMillis(500))
				.build();
			BatchResults results;
			try {
				results = template.execute(options, (batch) -> {
					for (int i = 0; i < commands; i++) {
						batch.incr("counter");
					}
				});
			}
			catch (BatchException ex) {
				results = ex.getResults();
			}
			System.out.println("RESULT size=" + results.size() + " success=" + results.count(Outcome.SUCCESS)
					+ " failed=" + results.count(Outcome.FAILED) + " unknown=" + results.count(Outcome.UNKNOWN)
					+ " notSent=" + results.count(Outcome.NOT_SENT) + " millis=" + results.elapsed().toMillis()
					+ " stopped=" + results.abortReason());
		}
	}

}
