package dev.redisbatch.autobatch;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.redisbatch.internals.CommandEncoding;
import dev.redisbatch.internals.Compatibility;
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
 * When what the coalescer relies on in Lettuce is not there
 * ({@link Compatibility#autoBatchingMismatches()}), or a channel has no Lettuce encoder,
 * channels are left as Lettuce made them, and one warning says why.
 */
final class AutoBatchingNettyCustomizer implements NettyCustomizer {

	private static final Log logger = LogFactory.getLog(AutoBatchingNettyCustomizer.class);

	private final @Nullable NettyCustomizer application;

	private final AutoBatching settings;

	private final Supplier<List<String>> checks;

	private final AtomicBoolean warned = new AtomicBoolean();

	AutoBatchingNettyCustomizer(@Nullable NettyCustomizer application, AutoBatching settings) {
		this(application, settings, Compatibility::autoBatchingMismatches);
	}

	/**
	 * @param checks what the coalescer relies on and is not there: a seam for tests that
	 * break an assumption on purpose
	 */
	AutoBatchingNettyCustomizer(@Nullable NettyCustomizer application, AutoBatching settings,
			Supplier<List<String>> checks) {
		this.application = application;
		this.settings = settings;
		this.checks = checks;
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
		if (pipeline.get(CallerWrites.NAME) != null) {
			return;
		}
		List<String> mismatches = this.checks.get();
		ChannelHandlerContext encoder = mismatches.isEmpty() ? CommandEncoding.encoderOf(pipeline) : null;
		if (encoder == null) {
			if (this.warned.compareAndSet(false, true)) {
				logger.warn(Compatibility.describe("Auto-batching",
						mismatches.isEmpty() ? List.of(CommandEncoding.NO_ENCODER) : mismatches,
						"the application's connections are left as Lettuce made them, each write its own"));
			}
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
