/**
 * {@link dev.redisbatch.annotation.RedisBatch @RedisBatch}: pipeline the
 * {@code RedisTemplate} calls a method makes, and the proxy-based post-processor that
 * applies it. Feeds the same engine as {@link dev.redisbatch.BatchTemplate}.
 */
@NullMarked
package dev.redisbatch.annotation;

import org.jspecify.annotations.NullMarked;
