/**
 * The redis-batch sample application: JSON endpoints that time the same Redis work with
 * and without pipelining, and a page at {@code /} that charts them side by side.
 */
@NullMarked
package dev.redisbatch.sample;

import org.jspecify.annotations.NullMarked;
