/**
 * The fence: every place where redis-batch relies on how Lettuce, Netty or Spring Data
 * Redis work inside, beyond their documented API. Each assumption is checked once (when a
 * pool is built, or on each new channel for the pipeline's layout) before anything relies
 * on it, and a failed check says in one sentence what did not match, so that the rest of
 * redis-batch can fall back to the libraries' public API instead of failing a batch. It
 * imports nothing of redis-batch.
 * <p>
 * Public only so that the library's other packages can use it: not part of the API of
 * redis-batch, and it may change in any release.
 */
@NullMarked
package dev.redisbatch.internals;

import org.jspecify.annotations.NullMarked;
