package dev.redisbatch.sample.web;

import java.util.List;

import dev.redisbatch.sample.redis.RedisRoute;
import dev.redisbatch.sample.timing.Jvm;
import org.jspecify.annotations.Nullable;

/**
 * What the page needs to know to draw its form.
 *
 * @param maxCount the largest count accepted
 * @param rttMillis the simulated round-trip time now
 * @param rttChoices the round-trip times the page can pick, in milliseconds
 * @param rttAdjustable whether traffic goes through the latency proxy, so the round-trip
 * time can be changed
 * @param running what runs now ({@code comparison} or {@code sweep}), {@code null} when
 * nothing does
 * @param timeBudgetMillis the longest time one strategy of a comparison may run
 * @param sweepPointBudgetMillis the longest time one chunk size of a sweep may run
 * @param route where Redis traffic goes
 * @param jvm the JVM the timings run on, and whether its JIT compiles fully
 * @param strategies every strategy, in order
 * @since 0.1.0
 */
public record Setup(int maxCount, double rttMillis, List<Integer> rttChoices, boolean rttAdjustable,
		@Nullable String running, long timeBudgetMillis, long sweepPointBudgetMillis, @Nullable RedisRoute route,
		Jvm jvm, List<Strategy> strategies) {

	/**
	 * A strategy the page offers.
	 *
	 * @param name the name
	 * @param description how it sends commands
	 */
	public record Strategy(String name, String description) {

	}

}
