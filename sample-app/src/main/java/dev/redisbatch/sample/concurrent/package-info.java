/**
 * The concurrent scenario of auto-batching: many threads calling a
 * {@code StringRedisTemplate} with one command at a time, on a connection factory with
 * and without {@code redis.batch.auto-batching.enabled}, side by side.
 */
@NullMarked
package dev.redisbatch.sample.concurrent;

import org.jspecify.annotations.NullMarked;
