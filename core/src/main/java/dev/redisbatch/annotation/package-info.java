/**
 * {@link dev.redisbatch.annotation.RedisBatch @RedisBatch}: pipeline the
 * {@code RedisTemplate} calls a method makes, and the proxy-based post-processor that
 * applies it. Feeds the same engine as {@link dev.redisbatch.BatchTemplate}. Spring
 * Boot's auto-configuration turns it on; without Boot,
 * {@link dev.redisbatch.annotation.EnableRedisBatch @EnableRedisBatch} does.
 */
@NullMarked
package dev.redisbatch.annotation;

import org.jspecify.annotations.NullMarked;
