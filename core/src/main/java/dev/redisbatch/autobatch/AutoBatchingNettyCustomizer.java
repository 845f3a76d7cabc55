package dev.redisbatch.autobatch;

import dev.redisbatch.internals.CommandEncoding;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The Netty customizer of client resources with auto-batching: the application's own
 * customizer first, then the two handlers of auto-batching on every channel Lettuce
 * initializes (standalone, Sentinel and cluster connections, plain or TLS).
 * <ul>
 * <li>{@link CallerWrites}, nearest the pipeline's tail and called on the writing thread,
 * so that it meets every write first, whatever the application's customizer added;</li>
 * <li>{@link WriteCoalescer}, just after Lettuce's encoder.</li>
 * </ul>
 * A channel without Lettuce's encoder (none that Lettuce makes) is left as it is.
 */
final class AutoBatchingNettyCustomizer implements NettyCustomizer {

	private static final Log logger = LogFactory.getLog(AutoBatchingNettyCustomizer.class);

	private final @Nullable NettyCustomizer application;

	private final AutoBatching settings;

	AutoBatchingNettyCustomizer(@Nullable NettyCustomizer application, AutoBatching settings) {
		this.application = application;
		this.settings = settings;
	}

	@Override
	public void afterBootstrapInitialized(Bootstrap bootstrap) {
		if (this.application != null) {
			this.application.afterBootstrapInitialized(bootstrap);
		}
	}

	@Override
	public void afterChannelInitialized(Channel channel) {
		if (this.application != null) {
			this.application.afterChannelInitialized(channel);
		}
		ChannelPipeline pipeline = channel.pipeline();
		ChannelHandlerContext encoder = CommandEncoding.encoderOf(pipeline);
		if (encoder == null || pipeline.get(CallerWrites.NAME) != null) {
			logger.debug("Auto-batching left a channel as it is: no Lettuce encoder in its pipeline, or already there");
			return;
		}
		pipeline.addAfter(encoder.name(), WriteCoalescer.NAME,
				new WriteCoalescer(this.settings.maxWriteBytes(), this.settings.writeListener()));
		pipeline.addLast(ImmediateEventExecutor.INSTANCE, CallerWrites.NAME, new CallerWrites());
	}

	/**
	 * The application's own customizer, if it had one.
	 */
	@Nullable NettyCustomizer application() {
		return this.application;
	}

	AutoBatching settings() {
		return this.settings;
	}

}
