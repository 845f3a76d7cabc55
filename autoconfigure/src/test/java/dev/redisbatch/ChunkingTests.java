package dev.redisbatch;

import java.time.Duration;

import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How chunks go out: one write per chunk, up to {@code parallelism} at once on
 * connections of their own, and long-lived connections.
 */
@ExtendWith(RedisServerExtension.class)
class ChunkingTests {

	@Test
	void aChunkGoesOutInOneWriteWhereExecutePipelinedFlushesEachCommand(RedisProcess server) {
		try (TcpProxy proxy = TcpProxy.start(server.port());
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + proxy.port()))
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			template.execute((batch) -> batch.set("warm", "up"));
			long before = proxy.clientReads();

			template.execute(BatchOptions.builder().chunkSize(1000).build(), (batch) -> {
				for (int i = 0; i < 1000; i++) {
					batch.set("key:" + i, "value-" + i);
				}
			});
			long batchReads = proxy.clientReads() - before;

			long pipelinedReads = executePipelinedReads(proxy);
			// One flush of ~40 KB arrives in a handful of reads; a flush per command in
			// hundreds.
			assertThat(batchReads).isLessThanOrEqualTo(10);
			assertThat(pipelinedReads).isGreaterThan(batchReads * 10);
		}
	}

	private long executePipelinedReads(TcpProxy proxy) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", proxy.port()));
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate redisTemplate = new StringRedisTemplate(factory);
			redisTemplate.opsForValue().get("warm");
			long before = proxy.clientReads();
			redisTemplate.executePipelined((org.springframework.data.redis.core.RedisCallback<Object>) (connection) -> {
				for (int i = 0; i < 1000; i++) {
					connection.stringCommands().set(("key:" + i).getBytes(), ("value-" + i).getBytes());
				}
				return null;
			});
			return proxy.clientReads() - before;
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void upToParallelismChunksRunAtOnceEachOnItsOwnConnection(RedisProcess server) {
		// At 5 ms round trip a chunk is still in flight when the next one fills.
		try (TcpProxy proxy = TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(5));
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + proxy.port()))
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);

			BatchResults results = template.execute(BatchOptions.builder().chunkSize(100).parallelism(4).build(),
					(batch) -> {
						for (int i = 0; i < 20_000; i++) {
							batch.incr("counter:" + (i % 10));
						}
					});

			assertThat(results.chunks()).isEqualTo(200);
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(20_000);
			assertThat(pool.getCreatedCount()).isEqualTo(4);
			assertThat(proxy.connectionsAccepted()).isEqualTo(4);
			assertThat(pool.getActive()).isZero();
			assertThat(pool.getIdle()).isEqualTo(4);
			for (int i = 0; i < 10; i++) {
				assertThat(server.call("GET", "counter:" + i)).isEqualTo("2000");
			}
		}
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

}
