/**
 * Batches for reactive applications:
 * {@link dev.redisbatch.reactive.ReactiveBatchTemplate} takes a {@code Flux} and returns
 * a {@code Mono}, and never blocks a Reactor or Netty thread.
 */
@NullMarked
package dev.redisbatch.reactive;

import org.jspecify.annotations.NullMarked;
