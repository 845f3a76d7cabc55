package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.Closeables;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Every way a batch can leave a connection, from its borrow to its release: each one
 * gives the connection back or closes it, so the pool never counts a connection as active
 * once the batch has returned.
 */
@LeakDetection
@BothPaths
@EveryLine
class BorrowToReleaseTests {

	@AutoClose
	private final Closeables resources = new Closeables();

	private final ChannelsOpened channelsOpened = new ChannelsOpened();

	@Test
	void aConnectionWhoseChannelClosedJustBeforeItsBorrowIsReplacedAndNotLost() throws Exception {
		closedJustBeforeItsBorrow(resources(null), true);
	}

	@Test
	void anEventLoopConnectionWhoseChannelClosedJustBeforeItsBorrowIsReplacedAndNotLost() throws Exception {
		// a handler of the application's in front of the batch's: the event loop reads
		// and
		// writes the socket
		closedJustBeforeItsBorrow(resources(new HandlerInFront()), true);
	}

	@Test
	void aPortableConnectionWhoseChannelClosedJustBeforeItsBorrowIsReplacedAndNotLost() throws Exception {
		closedJustBeforeItsBorrow(resources(null), false);
	}

	private void closedJustBeforeItsBorrow(ClientResources clientResources, boolean fastPath) throws Exception {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(server.port()))
			.clientResources(clientResources)
			.fastPath(fastPath)
			.maxActive(1)
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.setAll(Map.of("key", "value"), null);
		Channel channel = channelOfTheIdleConnection(pool);
		CountDownLatch closed = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		try {
			// the channel closes, but the event loop has not yet told Lettuce and the
			// batch's handler: the connection still reads as open
			channel.eventLoop().execute(() -> {
				channel.close();
				closed.countDown();
				awaitQuietly(release);
			});
			assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();

			assertThat(template.getAll(List.of("key"))).containsExactly("value");
			assertThat(pool.getActive()).isZero();
		}
		finally {
			release.countDown();
		}
		assertThat(pool.getCreatedCount()).as("the batch ran on a new connection").isEqualTo(2);
		// and the pool of one still serves batches
		assertThat(template.getAll(List.of("key"))).containsExactly("value");
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void aConnectionClosedMidBatchLeavesThePool() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(200)));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.getAll(List.of("warm"));

		CompletableFuture<BatchException> failure = CompletableFuture.supplyAsync(
				() -> catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> batch.incr("n"))));
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActive() == 1);
		proxy.closeConnections();

		BatchResults results = failure.join().getResults();
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void aChunkPastItsDeadlineLeavesThePool() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().timeout(Duration.ofMillis(300)).build());
		template.getAll(List.of("warm"));
		proxy.dropRepliesAfter(0);

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> template.execute((batch) -> batch.incr("n")));

		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void aChunkWhoseWriteIsRefusedLeavesThePool() throws Exception {
		RedisProcess server = track(RedisProcess.start());
		// a handler of the application's in front of the batch's: the event loop reads
		// and
		// writes the socket, and only the write finds the channel closed
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(server.port()))
			.clientResources(resources(new HandlerInFront()))
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(1).build());
		template.getAll(List.of("warm"));
		Channel channel = channelOfTheIdleConnection(pool);
		CountDownLatch closed = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);

		List<Response<Long>> responses = new ArrayList<>();
		try {
			catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
				responses.add(batch.incr("first"));
				channel.eventLoop().execute(() -> {
					channel.close();
					closed.countDown();
					awaitQuietly(release);
				});
				awaitQuietly(closed);
				// the write of this chunk finds the channel closed
				responses.add(batch.incr("second"));
				release.countDown();
			}));
		}
		finally {
			release.countDown();
		}

		// Nothing of the refused chunk went out: it goes on a new connection, unless the
		// first chunk lost its reply to the close and the batch stopped. Either way it
		// ran
		// at most once, and its outcome says which.
		Response<Long> second = responses.get(1);
		if (second.outcome() == Outcome.SUCCESS) {
			assertThat(second.get()).isOne();
			assertThat(server.call("GET", "second")).isEqualTo("1");
			assertThat(pool.getCreatedCount()).as("it went on a new connection").isEqualTo(2);
		}
		else {
			assertThat(second.outcome()).isEqualTo(Outcome.NOT_SENT);
			assertThat(responses.get(0).outcome()).isEqualTo(Outcome.UNKNOWN);
			assertThat(server.call("GET", "second")).as("the refused chunk never ran").isNull();
		}
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void aCallbackThatThrowsGivesItsConnectionBack() {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(server.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(1).build());

		IllegalStateException thrown = catchThrowableOfType(IllegalStateException.class,
				() -> template.execute((batch) -> {
					batch.incr("n");
					throw new IllegalStateException("the application's own failure");
				}));

		assertThat(thrown).hasMessage("the application's own failure");
		assertThat(pool.getActive()).isZero();
		assertThat(pool.getIdle()).isOne();
		assertThat(server.call("GET", "n")).isEqualTo("1");
	}

	@Test
	void aBatchOnAnEventLoopIsRefusedBeforeItBorrowsAConnection() throws Exception {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(uri(server.port())).clientResources(resources(null)).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.getAll(List.of("warm"));
		Channel channel = channelOfTheIdleConnection(pool);

		Throwable refused = channel.eventLoop()
			.submit(() -> catchThrowableOfType(IllegalStateException.class,
					() -> template.execute((batch) -> batch.incr("n"))))
			.get(10, TimeUnit.SECONDS);

		assertThat(refused).hasMessageStartingWith("A batch cannot run on a Netty event loop (thread '")
			.hasMessageContaining("executeAsync");
		assertThat(pool.getActive()).isZero();
		assertThat(server.call("GET", "n")).isNull();
		assertThat(template.executeAsync((batch) -> batch.incr("n")).get(10, TimeUnit.SECONDS).isSuccess()).isTrue();
	}

	/**
	 * The channel of the pool's one idle connection.
	 */
	private Channel channelOfTheIdleConnection(BatchConnectionPool pool) {
		BatchConnection connection = pool.server().borrow();
		try {
			// the pool knows the channels of the fast path; on the portable path, the
			// pool's one connection is the last channel its resources opened
			Channel fast = pool.channelOf(connection);
			Channel channel = (fast != null) ? fast : this.channelsOpened.last();
			assertThat(channel).isNotNull();
			return channel;
		}
		finally {
			pool.server().release(connection);
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Client resources with four event loops (one of them may be held by a test), and the
	 * given customizer.
	 */
	private ClientResources resources(NettyCustomizer customizer) {
		DefaultClientResources.Builder builder = DefaultClientResources.builder().ioThreadPoolSize(4);
		this.channelsOpened.before(customizer);
		builder.nettyCustomizer(this.channelsOpened);
		ClientResources resources = builder.build();
		track(() -> resources.shutdown(0, 2, TimeUnit.SECONDS));
		return resources;
	}

	private static RedisURI uri(int port) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).build();
	}

	private <T extends AutoCloseable> T track(T resource) {
		return this.resources.track(resource);
	}

	/**
	 * Puts a handler that passes everything on in front of every channel's others.
	 */
	private static final class HandlerInFront implements NettyCustomizer {

		@Override
		public void afterChannelInitialized(Channel channel) {
			channel.pipeline().addFirst(new ChannelDuplexHandler());
		}

	}

	/**
	 * Keeps the channels the resources' clients opened, after the test's own customizer.
	 */
	private static final class ChannelsOpened implements NettyCustomizer {

		private final List<Channel> channels = new CopyOnWriteArrayList<>();

		private @Nullable NettyCustomizer first;

		void before(@Nullable NettyCustomizer customizer) {
			this.first = customizer;
		}

		@Override
		public void afterChannelInitialized(Channel channel) {
			if (this.first != null) {
				this.first.afterChannelInitialized(channel);
			}
			this.channels.add(channel);
		}

		Channel last() {
			assertThat(this.channels).isNotEmpty();
			return this.channels.get(this.channels.size() - 1);
		}

	}

}
