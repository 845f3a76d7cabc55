/**
 * JMH benchmarks of redis-batch side by side with the other ways to batch Redis from
 * Spring: Jedis, {@code executePipelined}, Redisson and Lettuce.
 * {@link dev.redisbatch.benchmarks.Main} runs a profile of them and writes its numbers,
 * its report and its charts.
 */
@NullMarked
package dev.redisbatch.benchmarks;

import org.jspecify.annotations.NullMarked;
