/**
 * JMH benchmarks of redis-batch side by side with the other ways to batch Redis from
 * Spring: one command per round trip, {@code executePipelined}, raw Lettuce, Redisson and
 * Jedis. {@link dev.redisbatch.benchmarks.Main} runs the whole suite and writes the
 * report.
 */
@NullMarked
package dev.redisbatch.benchmarks;

import org.jspecify.annotations.NullMarked;
