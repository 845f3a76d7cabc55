package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.redisbatch.docs.PortablePathExamples;
import dev.redisbatch.internals.Compatibility;
import dev.redisbatch.testsupport.CapturedOutput;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.OutputCaptureExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.wire.Wire;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which path a pool's batches take: the fast path where everything it relies on inside
 * Lettuce and Netty holds, the portable path where something does not (with one warning
 * that names the versions, what the portable path costs and how to choose it) or where it
 * is turned off (without one), and in every case the same keys in Redis, every command
 * counted, and no connection left open.
 */
@ExtendWith({ RedisServerExtension.class, OutputCaptureExtension.class })
@LeakDetection
@EveryLine
class FastPathTests {

	private static final int COMMANDS = 10_000;

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final List<BatchConnectionPool> pools = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void onThisBuildsLibrariesBatchesTakeTheFastPathWithTheBatchsThreadOnThePlaintextSocket(RedisProcess server,
			CapturedOutput output) {
		BatchConnectionPool pool = pool(BatchConnectionPool.builder(RedisURI.create(server.uri())));

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("caller");
		try (BatchConnectionLoan loan = new BatchConnectionLoan(pool)) {
			assertThat(loan.connection.wire()).isNotNull();
			// a reconnected connection would have a new channel that no lease knows
			assertThat(loan.connection.lettuce().getOptions().isAutoReconnect()).isFalse();
		}
		assertThat(output).doesNotContain("WARN");
	}

	@Test
	void aBrokenAssumptionIsSaidOnceWithTheVersionsAndBatchesCompleteOnThePortablePath(RedisProcess server,
			CapturedOutput output) {
		BatchConnectionPool pool = pool(BatchConnectionPool.builder(RedisURI.create(server.uri()))
			.fastPathChecks(() -> List.of("CommandHandler.getStack() is missing")));

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("portable");
		runOnEveryConnection(pool, server);

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("The fast path of batch connections to 127.0.0.1:" + server.port() + " is checked against "
					+ Compatibility.TESTED)
			.contains("this application has Lettuce " + Compatibility.lettuceVersion() + " and Netty "
					+ Compatibility.nettyVersion())
			.endsWith(Compatibility.describe("The fast path of batch connections to 127.0.0.1:" + server.port(),
					List.of("CommandHandler.getStack() is missing"),
					"batches to it take the portable path, Lettuce's own pipelining, at about three fifths to four fifths of "
							+ "the fast path's throughput, with 1.7 to 3.4 times its client CPU per command. Use a "
							+ "Lettuce and Netty of the tested range for the fast path; "
							+ "redis.batch.fast-path.enabled=false (without Spring Boot, the pool builder's "
							+ "fastPath(false)) chooses the portable path and silences this warning"));
		try (BatchConnectionLoan loan = new BatchConnectionLoan(pool)) {
			assertThat(loan.connection.wire()).isNull();
		}
	}

	@Test
	void lettucesCommandTimeoutsHideTheEndpointSoEachConnectionTakesThePortablePathWithOneWarning(RedisProcess server,
			CapturedOutput output) {
		BatchConnectionPool pool = pool(BatchConnectionPool.builder(RedisURI.create(server.uri()))
			.clientOptions((options) -> options
				.timeoutOptions(TimeoutOptions.builder().fixedTimeout(Duration.ofSeconds(30)).build())));

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("portable");

		assertThat(warnings(output)).singleElement()
			.asString()
			.contains("this application has Lettuce " + Compatibility.lettuceVersion())
			.contains("channel writer is not Lettuce's endpoint")
			.endsWith(
					": its connections take the portable path, Lettuce's own pipelining, at about three fifths to four "
							+ "fifths of the fast path's throughput, with 1.7 to 3.4 times its client CPU per command; "
							+ "redis.batch.fast-path.enabled=false (without Spring Boot, the pool builder's fastPath(false)) "
							+ "chooses the portable path and silences this warning");
	}

	@Test
	void turnedOffBatchesTakeThePortablePathWithoutAWarning(RedisProcess server, CapturedOutput output) {
		BatchConnectionPool pool = PortablePathExamples.portablePool(server.host(), server.port());
		this.closeables.add(0, pool);
		this.pools.add(pool);

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("portable");
		assertThat(output).doesNotContain("WARN");
	}

	@Test
	void theSystemPropertyTurnsTheFastPathOffForPoolsBuiltAfterIt(RedisProcess server) {
		System.setProperty(BatchConnectionPool.FAST_PATH_PROPERTY, "false");
		BatchConnectionPool.Builder builder;
		try {
			builder = BatchConnectionPool.builder(RedisURI.create(server.uri()));
		}
		finally {
			System.clearProperty(BatchConnectionPool.FAST_PATH_PROPERTY);
		}

		assertThat(runOnEveryConnection(pool(builder), server)).isEqualTo("portable");
		assertThat(runOnEveryConnection(pool(BatchConnectionPool.builder(RedisURI.create(server.uri()))), server))
			.isEqualTo("caller");
	}

	@Test
	void theApplicationsNettyCustomizerRunsFirstOnBatchConnections(RedisProcess server) {
		List<String> seen = new ArrayList<>();
		BatchConnectionPool pool = poolOnTheApplicationsResources(server,
				(channel) -> seen.add(String.valueOf(channel.pipeline().get(Wire.class))));

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("caller");
		assertThat(seen).as("the application's customizer ran on each connection, before the batch's handler")
			.isNotEmpty()
			.containsOnly("null");
	}

	@Test
	void anApplicationsHandlerInFrontOfTheBatchsKeepsTheEventLoopsPathSoThatItSeesEveryByte(RedisProcess server) {
		AtomicReference<Channel> opened = new AtomicReference<>();
		BatchConnectionPool pool = poolOnTheApplicationsResources(server, (channel) -> {
			channel.pipeline().addFirst("application", new ChannelDuplexHandler());
			opened.set(channel);
		});

		assertThat(runOnEveryConnection(pool, server)).isEqualTo("event-loop");
		assertThat(opened.get().pipeline().names()).startsWith("application");
	}

	/**
	 * A pool built on the application's client resources, whose Netty customizer runs the
	 * given code on each new channel.
	 */
	private BatchConnectionPool poolOnTheApplicationsResources(RedisProcess server, Consumer<Channel> customizer) {
		NettyCustomizer application = new NettyCustomizer() {
			@Override
			public void afterChannelInitialized(Channel channel) {
				customizer.accept(channel);
			}
		};
		ClientResources resources = DefaultClientResources.builder().nettyCustomizer(application).build();
		this.closeables.add(() -> resources.shutdown(0, 2, TimeUnit.SECONDS));
		return pool(BatchConnectionPool.builder(RedisURI.create(server.uri())).clientResources(resources));
	}

	private BatchConnectionPool pool(BatchConnectionPool.Builder builder) {
		BatchConnectionPool pool = builder.maxActive(4).build();
		this.closeables.add(0, pool);
		this.pools.add(pool);
		return pool;
	}

	/**
	 * Run a batch of SETs on four connections at once, and a transaction, and check what
	 * a user sees: the keys in Redis, every command counted, and every connection back in
	 * the pool, open.
	 * @return the path the batch took, as its metric tag says
	 */
	private String runOnEveryConnection(BatchConnectionPool pool, RedisProcess server) {
		this.meters.clear();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.meters));
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(500).maxInFlightCommands(2000).build());
		template.setObservationRegistry(registry);
		server.call("FLUSHALL");
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < COMMANDS; i++) {
			entries.put("key:" + i, "value:" + i);
		}

		BatchResults results = template.execute((batch) -> entries.forEach(batch::set));
		BatchResults transaction = template.execute(BatchOptions.builder().transactional(true).build(), (batch) -> {
			batch.incr("counter");
			batch.incr("counter");
		});

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(COMMANDS);
		assertThat(results.size()).isEqualTo(COMMANDS);
		assertThat(transaction.count(Outcome.SUCCESS)).isEqualTo(transaction.size());
		assertThat(server.call("DBSIZE")).isEqualTo((long) COMMANDS + 1);
		assertThat(server.call("GET", "key:" + (COMMANDS - 1))).isEqualTo("value:" + (COMMANDS - 1));
		assertThat(server.call("GET", "counter")).isEqualTo("2");
		assertThat(pool.getActive()).as("every connection given back").isZero();
		assertThat(pool.getDestroyedCount()).as("no connection broken").isZero();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(server.connectedClients()).as("no connection left open but the idle ones")
				.isEqualTo(this.pools.stream().mapToLong(BatchConnectionPool::getIdle).sum()));
		List<String> paths = this.meters.get("redis.batch")
			.timers()
			.stream()
			.map((timer) -> timer.getId().getTag("path"))
			.distinct()
			.toList();
		assertThat(paths).hasSize(1);
		return paths.get(0);
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.toString().lines().filter((line) -> line.contains("WARN")).toList();
	}

	/**
	 * A connection borrowed from a pool, given back when closed.
	 */
	private static final class BatchConnectionLoan implements AutoCloseable {

		private final NodePool node;

		private final BatchConnection connection;

		BatchConnectionLoan(BatchConnectionPool pool) {
			this.node = pool.server();
			this.connection = this.node.borrow();
		}

		@Override
		public void close() {
			this.node.release(this.connection);
		}

	}

}
