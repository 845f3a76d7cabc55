/**
 * Auto-batching for the application's own Lettuce connections: the commands that
 * concurrent callers write to one connection leave in one write (group commit), with no
 * change to the rest of the stack. {@link dev.redisbatch.autobatch.AutoBatching} installs
 * it on a Lettuce {@code ClientResources}; Spring Boot users switch it on with
 * {@code redis.batch.auto-batching.enabled=true}.
 * <p>
 * It never imports {@code dev.redisbatch}: the batch engine does not use it, and it does
 * not use the engine.
 */
@NullMarked
package dev.redisbatch.autobatch;

import org.jspecify.annotations.NullMarked;
