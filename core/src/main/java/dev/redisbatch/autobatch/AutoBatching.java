package dev.redisbatch.autobatch;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import org.jspecify.annotations.Nullable;

/**
 * Auto-batching for Lettuce connections: the commands that concurrent callers write to
 * one connection leave in one write, and the rest of the stack does not change.
 * <p>
 * Lettuce writes and flushes every command on its own, with an event-loop task and a
 * system call each; at high concurrency on one shared connection (Spring Data Redis's
 * default) that, not the network, sets the rate, on the client and in the server's read
 * path. With auto-batching, the callers' commands are handed to the event loop together
 * and written together: one task and one write for all the commands queued by the time
 * the event loop gets to them (group commit), or for every {@link #maxWriteBytes()} of
 * them. A lone command never waits for a timer: at low load every write carries one
 * command, as before.
 * <p>
 * Nothing else changes: commands keep their order, every write promise completes as it
 * would have, and Lettuce's reconnect, retry and cancellation rules apply as they are.
 * <p>
 * Install it on the client resources of the connections it should batch:
 * <pre class="code">
 * ClientResources resources = AutoBatching.defaults().clientResources(DefaultClientResources.create());
 * </pre> or, building them,
 * {@code builder.nettyCustomizer(AutoBatching.defaults().nettyCustomizer())}. Spring Boot
 * users set {@code redis.batch.auto-batching.enabled=true} instead.
 *
 * @since 0.1.0
 */
public final class AutoBatching {

	/**
	 * The default byte bound of one write: 64 KB.
	 */
	public static final int DEFAULT_MAX_WRITE_BYTES = 64 * 1024;

	/**
	 * The smallest byte bound of one write: 1 KB.
	 */
	public static final int MIN_MAX_WRITE_BYTES = 1024;

	/**
	 * The largest byte bound of one write: 64 MB.
	 */
	public static final int MAX_MAX_WRITE_BYTES = 64 * 1024 * 1024;

	private static final AutoBatching DEFAULTS = builder().build();

	private final int maxWriteBytes;

	private final WriteListener writeListener;

	private AutoBatching(Builder builder) {
		this.maxWriteBytes = builder.maxWriteBytes;
		this.writeListener = builder.writeListener;
	}

	/**
	 * Auto-batching with its defaults: writes of up to 64 KB, no listener.
	 * @return the default settings
	 */
	public static AutoBatching defaults() {
		return DEFAULTS;
	}

	/**
	 * A builder of settings.
	 * @return a new builder with the defaults
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Whether client resources batch their connections' writes: built with a customizer
	 * of {@link #nettyCustomizer}, or wrapped by {@link #clientResources}.
	 * @param resources client resources
	 * @return whether auto-batching is on them
	 */
	public static boolean isApplied(ClientResources resources) {
		return resources.nettyCustomizer() instanceof AutoBatchingNettyCustomizer;
	}

	/**
	 * The same client resources with auto-batching: the same event loops and everything
	 * else, with the resources' own Netty customizer run first on every channel, then
	 * auto-batching's. Shutting the result down shuts down {@code resources}; shut down
	 * one or the other, once. Resources that already have auto-batching are returned as
	 * they are.
	 * @param resources the client resources to add auto-batching to
	 * @return client resources with auto-batching
	 */
	public ClientResources clientResources(ClientResources resources) {
		if (isApplied(resources)) {
			return resources;
		}
		return AutoBatchingClientResources.wrap(resources, this);
	}

	/**
	 * The Netty customizer that adds auto-batching to every channel, for
	 * {@link DefaultClientResources.Builder#nettyCustomizer}.
	 * @return a customizer of these settings
	 */
	public NettyCustomizer nettyCustomizer() {
		return new AutoBatchingNettyCustomizer(null, this);
	}

	/**
	 * A Netty customizer that runs the application's own first, then adds auto-batching.
	 * @param application the application's customizer
	 * @return the two composed, the application's first
	 */
	public NettyCustomizer nettyCustomizer(NettyCustomizer application) {
		if (application instanceof AutoBatchingNettyCustomizer) {
			return application;
		}
		return new AutoBatchingNettyCustomizer(application, this);
	}

	/**
	 * The byte bound of one write: a group of commands leaves as soon as it reaches it.
	 * @return bytes
	 */
	public int maxWriteBytes() {
		return this.maxWriteBytes;
	}

	/**
	 * What hears of every write.
	 * @return the listener
	 */
	public WriteListener writeListener() {
		return this.writeListener;
	}

	/**
	 * Builds {@link AutoBatching} settings; each setter checks its value.
	 *
	 * @since 0.1.0
	 */
	public static final class Builder {

		private int maxWriteBytes = DEFAULT_MAX_WRITE_BYTES;

		private WriteListener writeListener = WriteListener.NONE;

		private Builder() {
		}

		/**
		 * The byte bound of one write, from 1 KB to 64 MB: a group of commands leaves as
		 * soon as it reaches it, even while callers are still adding to it. A single
		 * command larger than the bound leaves on its own.
		 * @param maxWriteBytes bytes
		 * @return this builder
		 * @throws IllegalArgumentException when out of range
		 */
		public Builder maxWriteBytes(int maxWriteBytes) {
			if (maxWriteBytes < MIN_MAX_WRITE_BYTES || maxWriteBytes > MAX_MAX_WRITE_BYTES) {
				throw new IllegalArgumentException("maxWriteBytes must be from " + MIN_MAX_WRITE_BYTES + " (1 KB) to "
						+ MAX_MAX_WRITE_BYTES + " (64 MB), but was " + maxWriteBytes);
			}
			this.maxWriteBytes = maxWriteBytes;
			return this;
		}

		/**
		 * What hears of every write, with the number of commands it carries; for example
		 * {@link AutoBatchingMetrics}. Called on the event loop.
		 * @param writeListener the listener
		 * @return this builder
		 */
		public Builder writeListener(@Nullable WriteListener writeListener) {
			this.writeListener = (writeListener != null) ? writeListener : WriteListener.NONE;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 */
		public AutoBatching build() {
			return new AutoBatching(this);
		}

	}

}
