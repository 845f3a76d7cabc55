/**
 * Micrometer observability of batches: one {@code redis.batch} observation per batch (a
 * timer with a meter registry, a span with tracing), its context and naming convention,
 * and the handler that records the batch meters. Tags only ever take fixed, bounded
 * values: never a key or a value.
 */
@NullMarked
package dev.redisbatch.observation;

import org.jspecify.annotations.NullMarked;
