package dev.redisbatch.benchmarks;

import java.util.function.ToLongFunction;

/**
 * A trial's warmup on loopback, before its iterations, so that a cell measures the code a
 * long-running service runs: compiled by C2.
 * <p>
 * HotSpot compiles a method with C2 after thousands of calls. The code that runs once per
 * batch gets there only after as many batches, and through a 10 ms round trip a trial
 * sends about a hundred batches a second: after JMH's warmup iterations it still runs
 * C1's profiling code. On loopback the same batches take microseconds. So with
 * {@code -D}{@value #SECONDS}{@code =s}, each trial first sends up to {@value #BATCHES}
 * batches (for at most that many seconds) on loopback, with a client of its own of the
 * same strategy, and closes it. Every client of a cell gets the same.
 */
final class Prewarm {

	/**
	 * The system property with the longest pre-warm, in seconds; none when unset or 0.
	 */
	static final String SECONDS = "redisbatch.bench.prewarm.seconds";

	/**
	 * The most batches of one pre-warm: past C2's thresholds (about 15,000 calls) for the
	 * code that runs once per batch.
	 */
	static final int BATCHES = 20_000;

	private Prewarm() {
	}

	/**
	 * Send batches with a strategy of its own on loopback until {@value #BATCHES} have
	 * gone or the time is up, then close it. Nothing when no pre-warm is set.
	 * @param strategy the strategy id
	 * @param batch sends one batch and answers how many commands answered as expected
	 * @param expected that number
	 */
	static void onLoopback(String strategy, ToLongFunction<Strategy> batch, long expected) {
		int seconds = Integer.getInteger(SECONDS, 0);
		if (seconds <= 0) {
			return;
		}
		long deadline = System.nanoTime() + seconds * 1_000_000_000L;
		try (Strategy warm = Strategies.create(strategy, BenchmarkEnvironment.direct())) {
			for (int i = 0; i < BATCHES && System.nanoTime() - deadline < 0; i++) {
				long answered = batch.applyAsLong(warm);
				if (answered != expected) {
					throw new IllegalStateException(strategy + " (pre-warm): " + answered + " of " + expected
							+ " commands answered as expected");
				}
			}
		}
	}

}
