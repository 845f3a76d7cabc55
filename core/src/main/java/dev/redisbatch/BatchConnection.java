package dev.redisbatch;

import dev.redisbatch.wire.WireLease;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * One pooled batch connection, as its pool found it when it opened: on the fast path,
 * with the batch's handler on its channel and its {@link WireLease}, or on the portable
 * path, Lettuce's own pipelining.
 */
final class BatchConnection {

	private final StatefulRedisConnection<byte[], byte[]> lettuce;

	private final @Nullable WireLease wire;

	BatchConnection(StatefulRedisConnection<byte[], byte[]> lettuce, @Nullable WireLease wire) {
		this.lettuce = lettuce;
		this.wire = wire;
	}

	/**
	 * The Lettuce connection.
	 */
	StatefulRedisConnection<byte[], byte[]> lettuce() {
		return this.lettuce;
	}

	/**
	 * The batch's side of its channel, or {@code null} on the portable path.
	 */
	@Nullable WireLease wire() {
		return this.wire;
	}

	boolean isOpen() {
		return this.lettuce.isOpen();
	}

	/**
	 * Lease it for a batch.
	 */
	Lease lease() {
		WireLease fast = this.wire;
		return (fast != null) ? new FastLease(this, fast) : new PortableLease(this);
	}

}
