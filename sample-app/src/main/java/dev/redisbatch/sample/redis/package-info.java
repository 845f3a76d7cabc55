/**
 * Where the sample's Redis traffic goes: the configured server, or an embedded one when
 * nothing answers on loopback, reached through a latency-adding proxy whose round-trip
 * time can be changed at runtime.
 */
@NullMarked
package dev.redisbatch.sample.redis;

import org.jspecify.annotations.NullMarked;
