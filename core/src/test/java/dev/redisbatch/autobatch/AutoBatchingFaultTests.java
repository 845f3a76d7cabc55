package dev.redisbatch.autobatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.redisbatch.internals.CommandEncoding;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection killed while callers' commands wait to be written: every command ends, as
 * Lettuce ends it without auto-batching (failed, or sent again after the reconnect under
 * Lettuce's own rules), and none passes auto-batching twice on a connection.
 */
@LeakDetection
@EveryLine
class AutoBatchingFaultTests {

	private static final int CALLERS = 8;

	private static final int COMMANDS_PER_CALLER = 3000;

	private static final int TOTAL = CALLERS * COMMANDS_PER_CALLER;

	private RedisProcess server;

	private final List<ClientResources> resources = new ArrayList<>();

	/**
	 * Commands seen by the handler every connection gets just before auto-batching's
	 * coalescer, and those it saw twice on the same connection.
	 */
	private final AtomicLong passes = new AtomicLong();

	private final AtomicLong repeats = new AtomicLong();

	private final List<Channel> channels = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() {
		this.server = RedisProcess.start();
	}

	@AfterEach
	void stop() {
		this.resources.forEach((resources) -> resources.shutdown(0, 2, TimeUnit.SECONDS));
		this.server.close();
	}

	@Test
	void atMostOnceEveryQueuedCommandFailsAsWithoutAutoBatching() throws Exception {
		Outcomes with = killWhileQueued(true, false);

		assertThat(this.repeats).hasValue(0);
		assertThat(this.passes).hasValueLessThanOrEqualTo(TOTAL);
		assertEveryKey(null);
		Outcomes without = killWhileQueued(false, false);
		assertThat(with.succeeded).isZero();
		assertThat(with.failures).isEqualTo(without.failures).containsOnlyKeys(without.failures.keySet());
	}

	@Test
	void atLeastOnceEveryQueuedCommandIsSentAgainByLettuceAloneAsWithoutAutoBatching() throws Exception {
		Outcomes with = killWhileQueued(true, true);

		// once on the connection that was closed, once more on the new one: never twice
		// on
		// one connection, and each ran once
		assertThat(this.repeats).hasValue(0);
		assertThat(this.passes).hasValue(2 * TOTAL);
		assertEveryKey("1");
		this.server.call("FLUSHALL");
		Outcomes without = killWhileQueued(false, true);
		assertThat(with.succeeded).isEqualTo(without.succeeded).isEqualTo(TOTAL);
		assertThat(with.failures).isEqualTo(without.failures).isEmpty();
	}

	private void assertEveryKey(Object value) {
		for (int caller = 0; caller < CALLERS; caller++) {
			for (int i = 0; i < COMMANDS_PER_CALLER; i++) {
				assertThat(this.server.call("GET", key(caller, i))).as(key(caller, i)).isEqualTo(value);
			}
		}
	}

	/**
	 * Every caller fires its INCRs of keys of their own without waiting, while the
	 * connection's event loop is held, so that they all wait to be written; the event
	 * loop then closes the connection before it writes them. Every future must end.
	 */
	private Outcomes killWhileQueued(boolean autoBatching, boolean autoReconnect) throws Exception {
		ClientResources resources = DefaultClientResources.builder().nettyCustomizer(new PassCounting()).build();
		this.resources.add(resources);
		if (autoBatching) {
			resources = AutoBatching.defaults().clientResources(resources);
		}
		RedisClient client = RedisClient.create(resources, RedisURI.create(this.server.host(), this.server.port()));
		client.setOptions(ClientOptions.builder()
			.autoReconnect(autoReconnect)
			.timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(30)))
			.build());
		Outcomes outcomes = new Outcomes();
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			connection.sync().ping();
			Channel channel = this.channels.get(this.channels.size() - 1);
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch queued = new CountDownLatch(1);
			channel.eventLoop().execute(() -> {
				held.countDown();
				try {
					queued.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				channel.close();
			});
			assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
			List<Thread> callers = new ArrayList<>();
			List<List<RedisFuture<Long>>> futures = new ArrayList<>();
			for (int caller = 0; caller < CALLERS; caller++) {
				int me = caller;
				List<RedisFuture<Long>> mine = new ArrayList<>();
				futures.add(mine);
				Thread thread = new Thread(() -> {
					for (int i = 0; i < COMMANDS_PER_CALLER; i++) {
						mine.add(connection.async().incr(key(me, i)));
					}
				});
				thread.start();
				callers.add(thread);
			}
			for (Thread thread : callers) {
				thread.join();
			}
			queued.countDown();
			for (int caller = 0; caller < CALLERS; caller++) {
				List<RedisFuture<Long>> mine = futures.get(caller);
				CompletableFuture
					.allOf(mine.stream().map(RedisFuture::toCompletableFuture).toArray(CompletableFuture[]::new))
					.handle((done, failure) -> null)
					.get(60, TimeUnit.SECONDS);
				for (int i = 0; i < COMMANDS_PER_CALLER; i++) {
					CompletableFuture<Long> future = mine.get(i).toCompletableFuture();
					assertThat(future).isDone();
					if (!future.isCompletedExceptionally()) {
						outcomes.succeeded++;
					}
					else {
						Throwable failure = future.handle((reply, ex) -> ex).get();
						outcomes.failures.merge(failure.getClass().getName(), 1, Integer::sum);
					}
				}
			}
		}
		finally {
			client.shutdown(0, 2, TimeUnit.SECONDS);
		}
		System.out.println((autoBatching ? "with" : "without") + " auto-batching, "
				+ (autoReconnect ? "at least" : "at most") + " once: " + outcomes.succeeded + " succeeded, failures "
				+ outcomes.failures + ", passes " + this.passes + ", repeats " + this.repeats);
		return outcomes;
	}

	private static String key(int caller, int i) {
		return "counter:" + caller + ":" + i;
	}

	private static final class Outcomes {

		long succeeded;

		final Map<String, Integer> failures = new TreeMap<>();

	}

	/**
	 * Adds, on every channel, a handler that sees each command on its way to the
	 * coalescer and counts the commands it sees twice.
	 */
	private final class PassCounting implements NettyCustomizer {

		@Override
		public void afterChannelInitialized(Channel channel) {
			AutoBatchingFaultTests.this.channels.add(channel);
			String encoder = CommandEncoding.encoderOf(channel.pipeline()).name();
			channel.pipeline().addAfter(encoder, "pass-counter", new ChannelOutboundHandlerAdapter() {

				private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

				@Override
				public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
					if (msg instanceof RedisCommand<?, ?, ?> command && command.getType() == CommandType.INCR) {
						AutoBatchingFaultTests.this.passes.incrementAndGet();
						if (!this.seen.add(command)) {
							AutoBatchingFaultTests.this.repeats.incrementAndGet();
						}
					}
					ctx.write(msg, promise);
				}

			});
		}

	}

}
