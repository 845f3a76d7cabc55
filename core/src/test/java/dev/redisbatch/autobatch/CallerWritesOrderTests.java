package dev.redisbatch.autobatch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order {@link CallerWrites} keeps between a thread's writes and its close, when
 * another thread's drain is still on its way to the event loop. The channel is Netty's
 * in-process one: the order is the handler's alone, whatever is at the other end.
 */
class CallerWritesOrderTests {

	/**
	 * Holds the thread that hands the event loop its first task until let go.
	 */
	private final CountDownLatch handOff = new CountDownLatch(1);

	private final CountDownLatch handingOff = new CountDownLatch(1);

	private volatile Thread slowThread;

	private final DefaultEventLoopGroup group = new DefaultEventLoopGroup(1) {

		@Override
		protected EventLoop newChild(Executor executor, Object... args) {
			return new DefaultEventLoop(this, executor) {

				@Override
				public void execute(Runnable task) {
					if (Thread.currentThread() == CallerWritesOrderTests.this.slowThread) {
						CallerWritesOrderTests.this.slowThread = null;
						CallerWritesOrderTests.this.handingOff.countDown();
						await(CallerWritesOrderTests.this.handOff);
					}
					super.execute(task);
				}

			};
		}

	};

	@AfterEach
	void shutDown() {
		this.handOff.countDown();
		this.group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void whatAThreadWroteBeforeItClosesTheConnectionLeavesBeforeTheClose() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		Channel channel = connect(seen);
		// another thread writes first: its drain is handed to the event loop late
		this.slowThread = new Thread(() -> channel.write("other"));
		this.slowThread.start();
		assertThat(this.handingOff.await(10, TimeUnit.SECONDS)).isTrue();

		ChannelFuture own = channel.write("own");
		ChannelFuture closed = channel.close();
		this.handOff.countDown();

		assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(own.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(own.isSuccess()).as("the write made before the close").isTrue();
		assertThat(seen).containsExactly("other", "own", "close");
	}

	/**
	 * A channel whose pipeline has, from its head: a handler that notes every write and
	 * the close, and auto-batching's handler of the callers' writes.
	 */
	private Channel connect(List<String> seen) throws InterruptedException {
		LocalAddress address = new LocalAddress("caller-writes-" + System.nanoTime());
		new ServerBootstrap().group(this.group)
			.channel(LocalServerChannel.class)
			.childHandler(new ChannelInboundHandlerAdapter())
			.bind(address)
			.sync();
		Channel channel = new Bootstrap().group(this.group)
			.channel(LocalChannel.class)
			.handler(new ChannelInitializer<Channel>() {

				@Override
				protected void initChannel(Channel ch) {
					ch.pipeline().addLast(new Noting(seen));
					ch.pipeline().addLast(ImmediateEventExecutor.INSTANCE, CallerWrites.NAME, new CallerWrites());
				}

			})
			.connect(address)
			.sync()
			.channel();
		return channel;
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Notes each write's message and the close, and completes the writes.
	 */
	private static final class Noting extends ChannelOutboundHandlerAdapter {

		private final List<String> seen;

		Noting(List<String> seen) {
			this.seen = seen;
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
			this.seen.add(String.valueOf(msg));
			promise.setSuccess();
		}

		@Override
		public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
			this.seen.add("close");
			super.close(ctx, promise);
		}

	}

}
