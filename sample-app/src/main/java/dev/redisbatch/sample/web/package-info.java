/**
 * The sample's JSON endpoints under {@code /redis} and their problem details.
 */
@NullMarked
package dev.redisbatch.sample.web;

import org.jspecify.annotations.NullMarked;
