package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.benchmarks.SuitePlan.Block;
import dev.redisbatch.benchmarks.SuitePlan.Group;
import dev.redisbatch.benchmarks.SuitePlan.Iterations;
import dev.redisbatch.benchmarks.SuitePlan.Measure;

/**
 * The reply-path profiles that compare builds or paths on one machine the same day:
 * {@code reply-path-loopback} and {@code reply-path-small}, three forks of shorter
 * iterations than the full {@code reply-path} profile, and {@code reply-path-steady}, the
 * same cells and the concurrent scenario once the JIT compiler is done.
 */
final class ShortReplyPathPlans {

	/**
	 * The iterations of every cell of these profiles.
	 */
	private static final Iterations ITERATIONS = new Iterations(2, 500, 4, 500, SuitePlan.REPLY_PATH_FORKS);

	/**
	 * A pre-warm on loopback (up to 20,000 batches, at most ten seconds), then eight
	 * seconds of warmup: at a distance eight seconds are a few hundred batches, and the
	 * code that runs once per batch would still be C1's.
	 */
	private static final Iterations STEADY_ITERATIONS = new Iterations(8, 1000, 4, 500, SuitePlan.REPLY_PATH_FORKS, 10);

	/**
	 * A pre-warm on one thread, then twenty seconds of warmup for 32 threads, whose work
	 * leaves the compiler little of the two cores.
	 */
	private static final Iterations STEADY_CONCURRENT_ITERATIONS = new Iterations(2, 10_000, 2, 10_000,
			SuitePlan.REPLY_PATH_FORKS, 10);

	private ShortReplyPathPlans() {
	}

	/**
	 * The reply-path cells on loopback only (N = 1, 10, 100 and 1,000, SET and GET,
	 * BatchTemplate and Jedis, three forks, shorter iterations): the small batches of web
	 * requests, in about six minutes, to compare two builds on one machine the same day.
	 */
	static SuitePlan loopback() {
		return shortReplyPath("reply-path-loopback",
				new Group("reply-path-small", "Reply path: batches of 1 to 1,000 commands on loopback",
						List.of(new Block(SuitePlan.REPLY_PATH_STRATEGIES, List.of("SET", "GET"),
								List.of(1, 10, 100, 1_000), List.of("direct"))),
						ITERATIONS, Measure.REPLY_PATH));
	}

	/**
	 * The small batches of web requests, near and at a distance: N = 1 and 10 on
	 * loopback, and N = 100 and 1,000 on loopback and at RTT 1 and 10 ms, SET and GET,
	 * BatchTemplate (with its own I/O and with the event loop's) and Jedis, three forks:
	 * about 15 minutes.
	 */
	static SuitePlan small() {
		List<String> strategies = List.of(Strategies.BATCH_TEMPLATE, Strategies.BATCH_TEMPLATE_EVENT_LOOP,
				Strategies.JEDIS);
		List<Group> groups = nearAndFar(strategies, "Reply path", ITERATIONS);
		return shortReplyPath("reply-path-small", groups.toArray(Group[]::new));
	}

	/**
	 * The groups of {@link #small()}: N = 1 and 10 on loopback, N = 100 and 1,000 on
	 * loopback and at RTT 1 and 10 ms, SET and GET.
	 */
	private static List<Group> nearAndFar(List<String> strategies, String title, Iterations iterations) {
		return List.of(
				new Group("reply-path-small", title + ": batches of 1 and 10 commands on loopback",
						List.of(new Block(strategies, List.of("SET", "GET"), SuitePlan.REPLY_PATH_SMALL_SIZES,
								List.of("direct"))),
						iterations, Measure.REPLY_PATH),
				new Group("reply-path", title + ": batches of 100 and 1,000 commands, near and far",
						List.of(new Block(strategies, List.of("SET", "GET"), List.of(100, 1_000),
								List.of("direct", "rtt1", "rtt10"))),
						iterations, Measure.REPLY_PATH));
	}

	/**
	 * The cells of {@link #small()} and the concurrent scenario, BatchTemplate against
	 * the peers, measured once the JIT compiler is done: {@code BatchTemplate} has more
	 * code to compile than a Jedis pipeline, and after the short profiles' one second of
	 * warmup its forks still spend CPU compiling it (with 32 busy threads on 2 cores, for
	 * some twenty seconds). About 30 minutes.
	 */
	static SuitePlan steady() {
		int threads = SuitePlan.CONCURRENT_THREADS;
		List<Group> groups = new ArrayList<>(
				nearAndFar(SuitePlan.REPLY_PATH_STRATEGIES, "Reply path, steady state", STEADY_ITERATIONS));
		groups.add(new Group("concurrent",
				"Concurrent scenario, steady state: " + threads + " threads, batches of " + SuitePlan.CONCURRENT_BATCH
						+ " GETs",
				List.of(new Block(ConcurrentReaders.ids(), List.of("GET"), List.of(SuitePlan.CONCURRENT_BATCH),
						List.of("direct"))),
				STEADY_CONCURRENT_ITERATIONS, Measure.concurrent(threads)));
		return shortReplyPath("reply-path-steady", groups.toArray(Group[]::new));
	}

	private static SuitePlan shortReplyPath(String name, Group... groups) {
		return new SuitePlan(name, 100_000, List.of(groups), 0, List.of(), Duration.ofSeconds(60), List.of(), 0, 100, 0,
				0, List.of());
	}

}
