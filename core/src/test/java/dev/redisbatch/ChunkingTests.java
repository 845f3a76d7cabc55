package dev.redisbatch;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.redisbatch.testsupport.CapturedOutput;
import dev.redisbatch.testsupport.OutputCaptureExtension;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How chunks go out: one flush (one write) per chunk, as many in flight as the window
 * holds, on connections of their own, and long-lived connections.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class ChunkingTests {

	@Test
	void aChunkGoesOutWithOneFlushWhereExecutePipelinedFlushesEachCommand(RedisProcess server) {
		AtomicLong flushes = new AtomicLong();
		// The application's handler in front of the batch's sees every byte: the event
		// loop writes each chunk, as under TLS
		ClientResources countingFlushes = countingFlushes(flushes);
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri()))
			.clientResources(countingFlushes)
			.build()) {
			long[] chunksAndFlushes = chunksAndFlushesOf3000Sets(pool, flushes);

			long pipelinedFlushes = executePipelinedFlushes(server, countingFlushes, flushes);
			// one flush per chunk: three of 1,000, after the first ones of 8 and 16 KB
			assertThat(chunksAndFlushes).containsExactly(5, 5);
			assertThat(pipelinedFlushes).isGreaterThanOrEqualTo(3000);
		}
		finally {
			countingFlushes.shutdown();
		}
	}

	/**
	 * Client resources whose channels count the flushes Netty sees.
	 */
	private static ClientResources countingFlushes(AtomicLong flushes) {
		return DefaultClientResources.builder().nettyCustomizer(new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {

					@Override
					public void flush(ChannelHandlerContext context) {
						flushes.incrementAndGet();
						context.flush();
					}

				});
			}

		}).build();
	}

	/**
	 * The chunks of a batch of 3,000 SETs, and the flushes Netty saw while it ran.
	 */
	private static long[] chunksAndFlushesOf3000Sets(BatchConnectionPool pool, AtomicLong flushes) {
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.execute((batch) -> batch.set("warm", "up"));
		long before = flushes.get();
		// one chunk in flight (the window holds one full chunk), so no extra connection
		// (and its handshake) is opened
		BatchResults results = template
			.execute(BatchOptions.builder().chunkSize(1000).maxInFlightCommands(1000).build(), (batch) -> {
				for (int i = 0; i < 3000; i++) {
					batch.set("key:" + i, "value-" + i);
				}
			});
		return new long[] { results.chunks(), flushes.get() - before };
	}

	private long executePipelinedFlushes(RedisProcess server, ClientResources resources, AtomicLong flushes) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", server.port()),
				LettuceClientConfiguration.builder().clientResources(resources).build());
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate redisTemplate = new StringRedisTemplate(factory);
			redisTemplate.opsForValue().get("warm");
			long before = flushes.get();
			redisTemplate.executePipelined((RedisCallback<Object>) (connection) -> {
				for (int i = 0; i < 3000; i++) {
					connection.stringCommands().set(("key:" + i).getBytes(), ("value-" + i).getBytes());
				}
				return null;
			});
			return flushes.get() - before;
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void theChunksInFlightShareTheBatchsOneConnectionAndRunInOrder(RedisProcess server) {
		// At 5 ms round trip a chunk is still in flight when the next one fills.
		try (TcpProxy proxy = TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(5));
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + proxy.port()))
					.maxActive(1)
					.maxIdle(1)
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			Map<Integer, Response<List<String>>> lastSeen = new HashMap<>();

			BatchResults results = template
				.execute(BatchOptions.builder().chunkSize(100).maxInFlightCommands(400).build(), (batch) -> {
					for (int i = 0; i < 5_000; i++) {
						batch.rpush("log", Integer.toString(i));
						if (i % 7 == 0) {
							// a read sees every write recorded before it, in any
							// chunk
							lastSeen.put(i, batch.lrange("log", -1, -1));
						}
					}
				});

			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(results.size());
			lastSeen.forEach((i, last) -> assertThat(last.get()).containsExactly(Integer.toString(i)));
			assertThat(results.chunks()).isEqualTo((results.size() + 99) / 100);
			assertThat(proxy.connectionsAccepted()).isEqualTo(1);
			assertThat(pool.getIdle()).isEqualTo(1);
			assertThat(server.call("LRANGE", "log", "0", "-1")).asList()
				.containsExactlyElementsOf(IntStream.range(0, 5_000).mapToObj(Integer::toString).toList());
		}
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void closingThePoolClosesEachConnectionOnceAndQuietly(RedisProcess server, CapturedOutput output) {
		long before = server.connectedClients();
		BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build();
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.execute(BatchOptions.builder().chunkSize(1).maxInFlightCommands(4).build(), (batch) -> {
			for (int i = 0; i < 100; i++) {
				batch.set("key:" + i, "value");
			}
		});
		assertThat(server.connectedClients()).isEqualTo(before + 1);

		pool.close();

		await().atMost(Duration.ofSeconds(10)).until(() -> server.connectedClients() == before);
		assertThat(output).doesNotContain("already closed").doesNotContain("WARN");
	}

	@Test
	void onceWarmAThousandBatchesOpenNoNewConnection(RedisProcess server) {
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			template.execute((batch) -> batch.set("warm", "up"));
			long before = server.totalConnectionsReceived();

			for (int i = 0; i < 1000; i++) {
				int n = i;
				template.execute((batch) -> {
					batch.set("key:" + n, "value");
					batch.expire("key:" + n, Duration.ofMinutes(1));
				});
			}

			// The probe that asks INFO is itself one new connection.
			assertThat(server.totalConnectionsReceived() - before).isEqualTo(1);
			assertThat(pool.getCreatedCount()).isEqualTo(1);
		}
	}

	@Test
	void thePoolLeavesTheCallersRedisUriAsItWas(RedisProcess server) {
		RedisURI uri = RedisURI.create(server.uri());
		Duration timeout = uri.getTimeout();
		String text = uri.toString();

		try (BatchConnectionPool pool = BatchConnectionPool.builder(uri)
			.connectTimeout(Duration.ofMillis(1234))
			.build()) {
			new StringBatchTemplate(pool).execute((batch) -> batch.set("key", "value"));
		}

		assertThat(uri.getTimeout()).isEqualTo(timeout).isNotEqualTo(Duration.ofMillis(1234));
		assertThat(uri).hasToString(text);
	}

}
