package dev.redisbatch.wire;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.redisbatch.internals.LettucePipeline;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

/**
 * The Netty customizer of a pool's batch connections: it puts a {@link Wire} on each
 * channel Lettuce initializes, where Lettuce's layout lets it (checked on each channel),
 * and knows each connection's by the key Lettuce's pipeline gives it. It runs the
 * application's own customizer first, if any. Install it on the client's resources with
 * {@code DefaultClientResources.builder().nettyCustomizer(...)}.
 */
public final class BatchChannels implements NettyCustomizer {

	private final Map<Object, Wired> channels = new ConcurrentHashMap<>();

	private final HandshakeRefusals refusals = new HandshakeRefusals();

	private final @Nullable NettyCustomizer first;

	/**
	 * The keys of every channel the handler was put on, open or since closed, for as long
	 * as their connections are referenced.
	 */
	private final Set<Object> installed = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	/**
	 * @param first the application's customizer, run before this one, or {@code null}
	 */
	public BatchChannels(@Nullable NettyCustomizer first) {
		this.first = first;
	}

	@Override
	public void afterBootstrapInitialized(Bootstrap bootstrap) {
		if (this.first != null) {
			this.first.afterBootstrapInitialized(bootstrap);
		}
	}

	@Override
	public void afterChannelInitialized(Channel channel) {
		if (this.first != null) {
			this.first.afterChannelInitialized(channel);
		}
		Wire wire = new Wire(this.refusals);
		Object key = LettucePipeline.install(channel, Wire.NAME, wire);
		if (key == null) {
			// not Lettuce's layout as known: the connection takes the portable path
			return;
		}
		this.installed.add(key);
		Wired wired = new Wired(channel, wire);
		this.channels.put(key, wired);
		channel.closeFuture().addListener((closed) -> this.channels.remove(key, wired));
	}

	/**
	 * The batch's side of a connection's channel.
	 * @param connection a connection of the client these resources serve
	 * @return its lease, or {@code null} when the connection is not known: its channel's
	 * layout or its channel writer is not Lettuce's as known, or its channel closed
	 */
	public @Nullable WireLease leaseOf(StatefulConnection<?, ?> connection) {
		Wired wired = wiredOf(connection);
		return (wired != null) ? wired.wire().lease() : null;
	}

	/**
	 * Whether a connection without a lease has none because Lettuce did not lay out its
	 * channel, or its channel writer, as known: not because its channel closed before the
	 * lease was asked for (it then takes the portable path only until the pool finds it
	 * closed).
	 * @param connection a connection of the client these resources serve
	 * @return whether the layout did not match
	 */
	public boolean layoutMismatched(StatefulConnection<?, ?> connection) {
		Object key = LettucePipeline.keyOf(connection);
		return key == null || !this.installed.contains(key);
	}

	/**
	 * The channel of a connection: for tests.
	 * @param connection a connection of the client these resources serve
	 * @return its channel, or {@code null} when the connection is not known
	 */
	public @Nullable Channel channelOf(StatefulConnection<?, ?> connection) {
		Wired wired = wiredOf(connection);
		return (wired != null) ? wired.channel() : null;
	}

	private @Nullable Wired wiredOf(StatefulConnection<?, ?> connection) {
		Object key = LettucePipeline.keyOf(connection);
		return (key != null) ? this.channels.get(key) : null;
	}

	/**
	 * The servers' refusals of the handshakes of this client's connections.
	 * @return them
	 */
	public HandshakeRefusals refusals() {
		return this.refusals;
	}

	private record Wired(Channel channel, Wire wire) {
	}

}
