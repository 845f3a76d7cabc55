package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Oversized values and tight server buffers give errors that name the limit, and smaller
 * or byte-aware chunks keep a batch under them.
 */
@BothPaths
@EveryLine
class ServerLimitsTests {

	private RedisProcess server;

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start();
		this.pool = BatchConnectionPool.builder(RedisURI.create(this.server.uri())).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.server.close();
	}

	@Test
	void aValueOverProtoMaxBulkLenIsRejectedBeforeSendingWithTheLimitNamed() {
		this.server.call("CONFIG", "SET", "proto-max-bulk-len", "1mb");
		// the pool learns the server's limit when it opens a connection
		this.template.execute((batch) -> batch.get("warm-up"));
		List<Response<Boolean>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			responses.add(batch.set("small:1", "x"));
			responses.add(batch.set("huge", "x".repeat(2 * 1024 * 1024)));
			responses.add(batch.set("small:2", "x"));
		}));

		assertThat(failure.getResults().failures()).singleElement().satisfies((f) -> {
			assertThat(f.index()).isEqualTo(1);
			assertThat(f.outcome()).isEqualTo(Outcome.FAILED);
			assertThat(f.message()).isEqualTo("not sent: an argument of 2097152 bytes is larger than the server's "
					+ "proto-max-bulk-len of 1048576 bytes");
		});
		assertThat(responses.get(0).outcome()).isEqualTo(Outcome.SUCCESS);
		assertThat(responses.get(2).outcome()).isEqualTo(Outcome.SUCCESS);
		assertThat(this.server.call("EXISTS", "huge")).isEqualTo(0L);
		assertThat(this.pool.getIdle()).isEqualTo(1);
	}

	@Test
	void aServerThatRefusesConfigGetStillServesBatchesUnderRedissDefaultLimit() {
		// as on managed services that forbid or rename CONFIG: a user without it
		this.server.call("ACL", "SETUSER", "app", "on", ">app-secret", "~*", "+@all", "-config");
		RedisURI uri = RedisURI.builder()
			.withHost(this.server.host())
			.withPort(this.server.port())
			.withAuthentication("app", "app-secret")
			.build();
		try (BatchConnectionPool restricted = BatchConnectionPool.builder(uri).build()) {
			BatchResults results = new StringBatchTemplate(restricted).execute((batch) -> {
				batch.set("small", "1");
				batch.set("large", "x".repeat(2 * 1024 * 1024));
			});

			assertThat(results.isSuccess()).isTrue();
		}
		assertThat(this.server.call("STRLEN", "large")).isEqualTo(2L * 1024 * 1024);
		assertThat(String.valueOf(this.server.call("ACL", "LOG"))).contains("config");
	}

	@Test
	void aServerThatRefusesABulkLengthMidStreamIsReportedWithTheLimitNamed() {
		// the pool has not learned the new limit: the server refuses the value itself
		this.template.execute((batch) -> batch.get("warm-up"));
		this.server.call("CONFIG", "SET", "proto-max-bulk-len", "1mb");

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> this.template.execute((batch) -> batch.set("huge", "x".repeat(2 * 1024 * 1024))));

		// The server answers "Protocol error" and closes; if it closes while the value is
		// still arriving, the reply itself can be lost.
		BatchFailure huge = failure.getResults().failures().get(0);
		if (huge.outcome() == Outcome.FAILED) {
			assertThat(huge.message()).contains("Protocol error").contains("proto-max-bulk-len");
		}
		else {
			assertThat(huge.outcome()).isEqualTo(Outcome.UNKNOWN);
			assertThat(failure.getMessage()).contains("client-query-buffer-limit");
		}
		assertThat(this.server.call("EXISTS", "huge")).isEqualTo(0L);
	}

	@Test
	void aCommandOverTheQueryBufferLimitIsReportedWithTheLimitNamed() {
		this.server.call("CONFIG", "SET", "client-query-buffer-limit", "1mb");

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> this.template.execute((batch) -> batch.set("huge", "x".repeat(1536 * 1024))));

		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(failure.getMessage()).contains("client-query-buffer-limit");
		assertThat(this.pool.getIdle()).isZero();
	}

	@Test
	void repliesOverTheOutputBufferLimitAreReportedAndSmallerChunksStayUnderIt() {
		this.server.call("SET", "page", "p".repeat(10 * 1024));
		this.server.call("CONFIG", "SET", "client-output-buffer-limit", "normal 256kb 256kb 0");

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> this.template.execute(BatchOptions.builder().chunkSize(500).build(), (batch) -> {
					for (int i = 0; i < 500; i++) {
						batch.get("page");
					}
				}));
		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isPositive();
		assertThat(failure.getMessage()).contains("client-output-buffer-limit");

		// 10 replies of 10 KB per chunk, at most 20 commands in flight: the replies of
		// the
		// window always fit in 256 KB
		BatchResults results = this.template
			.execute(BatchOptions.builder().chunkSize(10).maxInFlightCommands(20).build(), (batch) -> {
				for (int i = 0; i < 500; i++) {
					batch.get("page");
				}
			});
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(500);
		assertThat(results.chunks()).isEqualTo(50);
	}

	@Test
	void aByteBudgetSendsAChunkBeforeItHoldsChunkSizeCommands() {
		String value = "v".repeat(100 * 1024);

		BatchResults results = this.template
			.execute(BatchOptions.builder().chunkSize(1000).maxChunkBytes(512 * 1024).build(), (batch) -> {
				for (int i = 0; i < 40; i++) {
					batch.set("big:" + i, value);
				}
			});

		// The first chunks' budgets grow from 8 KB (8, 16, 32, 64 and 128 KB: one value
		// each, 256 KB: two), then five 100 KB values fit in 512 KB and a sixth would
		// not:
		// 7 values in 6 chunks, 33 in 7
		assertThat(results.chunks()).isEqualTo(13);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(40);
		assertThat(this.server.call("STRLEN", "big:39")).isEqualTo(100L * 1024);
	}

}
