package dev.redisbatch.sample.concurrent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Threads that call one template with one command at a time, as request threads do: a GET
 * of a key of their own, then a SET of it (one-hour TTL), again and again until the time
 * is up. Every command is timed.
 *
 * @param commands the commands completed
 * @param nanos how long the threads ran, from the start signal to the last one's end
 * @param p50Micros the median time of one command
 * @param p99Micros the 99th percentile
 */
record ConcurrentCallers(long commands, long nanos, double p50Micros, double p99Micros) {

	/**
	 * At most this many times kept per thread: enough for the percentiles of a run of
	 * seconds.
	 */
	private static final int MAX_SAMPLES_PER_THREAD = 1 << 20;

	static ConcurrentCallers run(StringRedisTemplate template, int threads, Duration duration, String keyPrefix)
			throws InterruptedException {
		CountDownLatch start = new CountDownLatch(1);
		long[][] samples = new long[threads][];
		int[] counts = new int[threads];
		RuntimeException[] failures = new RuntimeException[threads];
		List<Thread> callers = new ArrayList<>();
		long[] window = new long[2];
		for (int t = 0; t < threads; t++) {
			int me = t;
			String key = keyPrefix + me;
			Thread caller = new Thread(() -> {
				long[] mine = new long[1024];
				int n = 0;
				try {
					start.await();
					long deadline = window[0] + duration.toNanos();
					boolean set = false;
					long now = System.nanoTime();
					while (now < deadline) {
						if (set) {
							template.opsForValue().set(key, "value", Duration.ofHours(1));
						}
						else {
							template.opsForValue().get(key);
						}
						set = !set;
						long end = System.nanoTime();
						if (n == mine.length && n < MAX_SAMPLES_PER_THREAD) {
							mine = Arrays.copyOf(mine, n * 2);
						}
						if (n < mine.length) {
							mine[n++] = end - now;
						}
						now = end;
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					failures[me] = ex;
				}
				samples[me] = Arrays.copyOf(mine, n);
				counts[me] = n;
			}, "sample-concurrent-" + t);
			caller.setDaemon(true);
			callers.add(caller);
			caller.start();
		}
		window[0] = System.nanoTime();
		start.countDown();
		for (Thread caller : callers) {
			caller.join(duration.toMillis() + TimeUnit.SECONDS.toMillis(30));
		}
		window[1] = System.nanoTime();
		for (RuntimeException failure : failures) {
			if (failure != null) {
				throw failure;
			}
		}
		long total = Arrays.stream(counts).asLongStream().sum();
		long[] all = new long[(int) Math.min(Integer.MAX_VALUE - 8, total)];
		int at = 0;
		for (long[] mine : samples) {
			if (mine != null) {
				System.arraycopy(mine, 0, all, at, Math.min(mine.length, all.length - at));
				at += mine.length;
			}
		}
		Arrays.sort(all);
		return new ConcurrentCallers(total, window[1] - window[0], percentile(all, 0.50), percentile(all, 0.99));
	}

	private static double percentile(long[] sorted, double quantile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
		return sorted[Math.max(0, index)] / 1000.0;
	}

}
