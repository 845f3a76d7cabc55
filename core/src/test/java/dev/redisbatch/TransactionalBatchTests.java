package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Transactional mode: every chunk is wrapped in MULTI/EXEC.
 */
@BothPaths
@EveryLine
class TransactionalBatchTests {

	private RedisProcess server;

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	private RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private RedisCommands<String, String> redis;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start("--maxmemory", "0", "--maxmemory-policy", "noeviction");
		this.pool = BatchConnectionPool.builder(RedisURI.create(this.server.uri())).build();
		this.template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().transactional(true).chunkSize(10).build());
		this.client = RedisClient.create(this.server.uri());
		this.connection = this.client.connect();
		this.redis = this.connection.sync();
	}

	@AfterEach
	void tearDown() {
		this.connection.close();
		this.client.shutdown();
		this.pool.close();
		this.server.close();
	}

	@Test
	void eachChunkRunsAsATransactionWithTypedResults() {
		List<Response<Long>> increments = new ArrayList<>();

		BatchResults results = this.template.execute((batch) -> {
			for (int i = 0; i < 25; i++) {
				increments.add(batch.incr("counter"));
			}
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.chunks()).isEqualTo(3);
		assertThat(increments).extracting(Response::get)
			.containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 25).boxed().toList());
		assertThat(this.redis.get("counter")).isEqualTo("25");
	}

	@Test
	void aRuntimeErrorInsideExecFailsOnlyItsCommand() {
		this.redis.set("text", "not a number");

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			batch.incr("a");
			batch.incr("text");
			batch.incr("b");
		}));

		assertThat(failure.getResults().count(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(failure.getResults().failures()).singleElement().satisfies((f) -> {
			assertThat(f.index()).isEqualTo(1);
			assertThat(f.command()).isEqualTo("INCR");
			assertThat(f.outcome()).isEqualTo(Outcome.FAILED);
			assertThat(f.message()).startsWith("ERR value is not an integer");
		});
		assertThat(this.redis.get("a")).isEqualTo("1");
		assertThat(this.redis.get("b")).isEqualTo("1");
	}

	@Test
	void whenRedisRefusesCommandsWhileQueueingNothingInTheChunkRuns() {
		// Past maxmemory, Redis refuses every command queued in MULTI.
		this.redis.set("filler", "x".repeat(4096));
		this.redis.configSet("maxmemory", "1");
		List<Response<?>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			responses.add(batch.incr("counter"));
			responses.add(batch.set("k", "v"));
		}));

		this.redis.configSet("maxmemory", "0");
		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.FAILED)).isEqualTo(2);
		assertThat(results.failures()).extracting(BatchFailure::message)
			.allSatisfy((message) -> assertThat(message).startsWith("OOM"));
		assertThat(responses).allSatisfy((response) -> assertThat(response.outcome()).isEqualTo(Outcome.FAILED));
		assertThat(this.redis.exists("counter", "k")).isZero();
	}

	@Test
	void anExecAbortFailsTheWholeChunkNamingTheCommandThatCausedIt() {
		// ACL permissions are checked while queueing: one denied key aborts the chunk.
		this.redis.aclSetuser("limited",
				io.lettuce.core.AclSetuserArgs.Builder.on()
					.addPassword("secret")
					.keyPattern("allowed:*")
					.addCommand(io.lettuce.core.protocol.CommandType.INCR)
					.addCommand(io.lettuce.core.protocol.CommandType.MULTI)
					.addCommand(io.lettuce.core.protocol.CommandType.EXEC)
					.addCommand(io.lettuce.core.protocol.CommandType.HELLO)
					.addCommand(io.lettuce.core.protocol.CommandType.PING)
					.addCommand(io.lettuce.core.protocol.CommandType.CLIENT));
		RedisURI uri = RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(this.server.port())
			.withAuthentication("limited", "secret")
			.build();
		try (BatchConnectionPool limitedPool = BatchConnectionPool.builder(uri).build()) {
			StringBatchTemplate limited = new StringBatchTemplate(limitedPool,
					BatchOptions.builder().transactional(true).build());

			BatchException failure = catchThrowableOfType(BatchException.class, () -> limited.execute((batch) -> {
				batch.incr("allowed:1");
				batch.incr("denied:1");
				batch.incr("allowed:2");
			}));

			assertThat(failure.getResults().count(Outcome.FAILED)).isEqualTo(3);
			assertThat(failure.getResults().failures()).extracting(BatchFailure::message)
				.satisfiesExactly((m) -> assertThat(m).startsWith("EXECABORT"),
						(m) -> assertThat(m).startsWith("NOPERM"), (m) -> assertThat(m).startsWith("EXECABORT"));
		}
		assertThat(this.redis.exists("allowed:1", "allowed:2")).isZero();
	}

}
