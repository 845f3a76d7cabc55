package dev.redisbatch.internals;

import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ConnectionBuilder;
import io.lettuce.core.ConnectionEvents;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.BootstrapConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.util.AttributeKey;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The client of batch connections: over TCP they always use Netty's NIO transport, whose
 * socket the batch's thread reads and writes itself. Lettuce picks a native transport
 * (epoll, io_uring, kqueue) whenever one is on the classpath, as it is in every Spring
 * WebFlux application on Linux (Reactor Netty depends on epoll's native library); on a
 * native channel every reply would cross the event loop, which makes a batch of one about
 * twice as slow. The NIO event loop comes from the resources' own provider, and goes back
 * to it when the client shuts down. Unix domain sockets keep the native transport they
 * need.
 */
public final class NioClient extends RedisClient {

	private static final Log logger = LogFactory.getLog(NioClient.class);

	private @Nullable EventLoopGroup nio;

	private boolean nioRefused;

	/**
	 * A client on the given resources, without a default URI.
	 * @param resources the client resources
	 */
	public NioClient(ClientResources resources) {
		super(resources, new RedisURI());
	}

	/**
	 * Lettuce configures the connection's bootstrap for the transport it picked; when
	 * that is a native one, the bootstrap is made again for NIO, with the same options
	 * (those of the native transport only are left out: batch connections set none) and
	 * the same address resolver, unless that is Netty's DNS resolver, which Lettuce
	 * builds for the native transport's datagram channels: the JDK's resolver (the
	 * system's DNS and hosts file) then finds the server when a connection opens.
	 */
	@Override
	@SuppressWarnings("unchecked")
	protected void connectionBuilder(Mono<SocketAddress> socketAddressSupplier, ConnectionBuilder builder,
			ConnectionEvents connectionEvents, RedisURI redisURI) {
		super.connectionBuilder(socketAddressSupplier, builder, connectionEvents, redisURI);
		String socket = redisURI.getSocket();
		if (Transports.socketChannelClass() == NioSocketChannel.class || (socket != null && !socket.isEmpty())) {
			return;
		}
		EventLoopGroup group = nioGroup();
		if (group == null) {
			return;
		}
		BootstrapConfig picked = builder.bootstrap().config();
		AddressResolverGroup<?> resolver = picked.resolver();
		if (resolver.getClass().getName().startsWith("io.netty.resolver.dns.")) {
			resolver = DefaultAddressResolverGroup.INSTANCE;
		}
		Bootstrap nio = new Bootstrap().group(group).channel(NioSocketChannel.class).resolver(resolver);
		picked.options().forEach((option, value) -> {
			if (option.getClass() == ChannelOption.class) {
				nio.option((ChannelOption<Object>) option, value);
			}
		});
		picked.attrs().forEach((key, value) -> nio.attr((AttributeKey<Object>) key, value));
		builder.bootstrap(nio);
	}

	/**
	 * The NIO event loop of batch connections, allocated on first use; {@code null} when
	 * the resources' provider cannot make one (an application's own provider), said once
	 * at WARN.
	 */
	@SuppressWarnings("deprecation") // the key Lettuce's providers know NIO by
	private synchronized @Nullable EventLoopGroup nioGroup() {
		if (this.nio == null && !this.nioRefused) {
			try {
				this.nio = getResources().eventLoopGroupProvider().allocate(NioEventLoopGroup.class);
			}
			catch (RuntimeException ex) {
				this.nioRefused = true;
				logger.warn("Batch connections use Lettuce's native transport ("
						+ Transports.socketChannelClass().getSimpleName()
						+ "), because the event loop provider of the client resources did not make "
						+ "an NIO event loop (" + ex.getClass().getSimpleName() + "): every reply crosses "
						+ "the event loop, which makes small batches about twice as slow");
			}
		}
		return this.nio;
	}

	@Override
	public CompletableFuture<Void> shutdownAsync(long quietPeriod, long timeout, TimeUnit unit) {
		return super.shutdownAsync(quietPeriod, timeout, unit)
			.thenCompose((closed) -> releaseNio(quietPeriod, timeout, unit));
	}

	private CompletableFuture<Void> releaseNio(long quietPeriod, long timeout, TimeUnit unit) {
		EventLoopGroup group;
		synchronized (this) {
			group = this.nio;
			this.nio = null;
		}
		CompletableFuture<Void> released = new CompletableFuture<>();
		if (group == null) {
			released.complete(null);
			return released;
		}
		EventLoopGroupProvider provider = getResources().eventLoopGroupProvider();
		provider.release(group, quietPeriod, timeout, unit).addListener((done) -> released.complete(null));
		return released;
	}

}
