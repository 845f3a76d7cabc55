package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A command that was sent is never sent again: lost replies make it
 * {@link Outcome#UNKNOWN}, the connection leaves the pool, and INCR counters prove that
 * nothing ran twice.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class AtMostOnceTests {

	private TcpProxy proxy;

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		this.proxy = TcpProxy.start(server.port());
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.proxy.port())).build();
		this.template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(100).timeout(Duration.ofMillis(500)).build());
		// Open the pooled connection first, so its handshake is not among the counted
		// replies.
		this.template.execute((batch) -> batch.get("warm-up"));
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.proxy.close();
	}

	@Test
	void repliesLostAfterExecutionLeaveCommandsUnknownAndNothingRunsTwice(RedisProcess server) {
		// Each INCR reply is ":1\r\n" (4 bytes): let 30 replies through, then swallow.
		this.proxy.dropRepliesAfter(30 * 4);
		List<Response<Long>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			for (int i = 0; i < 250; i++) {
				responses.add(batch.incr("counter:" + i));
			}
		}));

		// The second chunk filled while the first waited for its replies: the batch
		// stopped there; the callback went on, and what it recorded afterwards was not
		// sent.
		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(250);
		assertThat(responses).hasSize(250);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(30);
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(70);
		assertThat(results.count(Outcome.NOT_SENT)).isEqualTo(150);
		assertThat(results.abortReason()).contains("no reply within its timeout");
		assertThat(responses.get(29).get()).isEqualTo(1L);
		assertThat(responses.get(30).outcome()).isEqualTo(Outcome.UNKNOWN);
		assertThat(responses.get(198).outcome()).isEqualTo(Outcome.NOT_SENT);
		assertThat(responses.get(249).outcome()).isEqualTo(Outcome.NOT_SENT);
		// every command that did not succeed is listed, in order, with its command
		assertThat(results.failures()).extracting(BatchFailure::index)
			.containsExactlyElementsOf(java.util.stream.IntStream.range(30, 250).boxed().toList());
		assertThat(results.failures()).extracting(BatchFailure::command).containsOnly("INCR");
		// The first chunk ran entirely on the server, exactly once; nothing after it was
		// sent.
		for (int i = 0; i < 100; i++) {
			assertThat(server.call("GET", "counter:" + i)).isEqualTo("1");
		}
		assertThat(server.call("EXISTS", "counter:100")).isEqualTo(0L);
		// The connection with unanswered commands left the pool.
		assertThat(this.pool.getActive()).isZero();
		assertThat(this.pool.getIdle()).isZero();
		assertThat(this.pool.getDestroyedCount()).isEqualTo(1);
	}

	@Test
	void aConnectionThatBreaksMidBatchIsNeverReplayed(RedisProcess server) {
		this.proxy.roundTrip(Duration.ofMillis(100));

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			for (int i = 0; i < 100; i++) {
				batch.incr("counter:" + i);
			}
			// the chunk is in flight for 100 ms: break the connection under it
			this.proxy.closeConnections();
			batch.incr("after");
		}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(101);
		assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN)).isEqualTo(100);
		assertThat(results.count(Outcome.UNKNOWN)).isPositive();
		assertThat(results.failures()).anySatisfy((f) -> assertThat(f.message()).contains("no reply came"));
		this.proxy.roundTrip(Duration.ZERO);
		long executed = 0;
		for (int i = 0; i < 100; i++) {
			Object value = server.call("GET", "counter:" + i);
			assertThat(value).isIn(null, "1");
			executed += (value != null) ? 1 : 0;
		}
		assertThat(executed).isGreaterThanOrEqualTo(results.count(Outcome.SUCCESS));
		assertThat(this.pool.getActive()).isZero();

		// the next batch gets a fresh connection and succeeds
		assertThat(this.template.execute((batch) -> batch.incr("later")).isSuccess()).isTrue();
		assertThat(server.call("GET", "later")).isEqualTo("1");
	}

}
