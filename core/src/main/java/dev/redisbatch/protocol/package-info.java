/**
 * The pure parts of the wire protocol that the engine relies on: writing commands in
 * RESP, hash slots of keys, where the keys of multi-key commands are, and reading cluster
 * redirects. No I/O and no state; each has unit tests that need no server.
 * <p>
 * Internal to redis-batch: public only so that the engine's package can use it, not an
 * API. It never imports {@code dev.redisbatch}.
 */
@NullMarked
package dev.redisbatch.protocol;

import org.jspecify.annotations.NullMarked;
