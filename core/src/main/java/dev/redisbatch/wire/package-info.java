/**
 * The byte level of a batch connection: the handler the batch puts in each connection's
 * Netty pipeline ({@link dev.redisbatch.wire.Wire}, the event loop's side), the lease the
 * batch's thread holds while it writes chunks and decodes their replies
 * ({@link dev.redisbatch.wire.WireLease}), and what the two threads hand each other, each
 * owned by one small class: who uses the connection ({@code LeaseState}) and the bytes
 * read for a lease ({@code Inbox}). It never imports {@code dev.redisbatch}; what it
 * needs of Lettuce's and Netty's insides it asks the fence,
 * {@code dev.redisbatch.internals}.
 * <p>
 * Public only so that the library's other packages can use it: not part of the API of
 * redis-batch, and it may change in any release.
 */
@NullMarked
package dev.redisbatch.wire;

import org.jspecify.annotations.NullMarked;
