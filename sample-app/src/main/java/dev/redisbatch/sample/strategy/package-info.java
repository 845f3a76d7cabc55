/**
 * The ways the sample sends the same Redis work: one
 * {@link dev.redisbatch.sample.strategy.DemoStrategy} bean per way, collected in order.
 */
@NullMarked
package dev.redisbatch.sample.strategy;

import org.jspecify.annotations.NullMarked;
