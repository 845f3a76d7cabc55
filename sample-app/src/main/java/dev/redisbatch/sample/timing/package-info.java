/**
 * Times the strategies: one at a time for the classic endpoints, side by side for a
 * comparison, and across chunk sizes for the sweep; one comparison or sweep at a time.
 */
@NullMarked
package dev.redisbatch.sample.timing;

import org.jspecify.annotations.NullMarked;
