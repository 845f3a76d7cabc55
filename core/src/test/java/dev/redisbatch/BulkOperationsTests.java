package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.redisbatch.docs.BulkExamples;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import dev.redisbatch.observation.BatchMetricsObservationHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Bulk operations by pattern ({@link BatchOperations#scan(ScanOptions)}) on a standalone
 * server: each operation changes exactly the matching keys, the counts add up, the dry
 * run changes nothing, bad input fails before any I/O, the observation shows the keys
 * matched, and an operation cut off by a lost connection resumes from the cursor of its
 * exception until every matching key is done.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class BulkOperationsTests {

	private static final ScanOptions ORDERS = ScanOptions.scanOptions().match("order:*").count(100).build();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		this.template = template(server.port(), BatchOptions.defaults());
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void unlinkRemovesExactlyTheMatchingKeys(RedisProcess server) {
		write("order:", 5_000);
		write("user:", 2_000);

		BulkResults results = this.template.scan(ORDERS).unlink();

		assertThat(server.call("DBSIZE")).isEqualTo(2_000L);
		assertThat(server.call("EXISTS", "user:0", "user:1999")).isEqualTo(2L);
		// SCAN may return a key twice: matched counts it twice, changed once
		assertThat(results.keysMatched()).isGreaterThanOrEqualTo(5_000);
		assertThat(results.keysChanged()).isEqualTo(5_000);
		assertThat(results.commands().size()).isEqualTo((int) results.keysMatched());
		assertThat(results.commands().isSuccess()).isTrue();
		assertThat(results.isComplete()).isTrue();
		assertThat(results.cursor().toToken()).isEqualTo("scan1:complete");
		assertThat(results.operation()).isEqualTo("unlink");
		assertThat(commandCalls(server, "unlink")).isEqualTo(results.keysMatched());
	}

	@Test
	void delExpireAndPersistChangeOnlyTheMatchingKeys(RedisProcess server) {
		write("order:", 1_000);
		write("user:", 500);
		server.call("EXPIRE", "user:1", "1000");

		BulkResults expired = this.template.scan(ORDERS).expire(Duration.ofHours(1));

		assertThat(expired.keysChanged()).isEqualTo(1_000);
		assertThat((Long) server.call("PTTL", "order:7")).isBetween(3_500_000L, 3_600_000L);
		assertThat(server.call("PTTL", "user:7")).isEqualTo(-1L);

		BulkResults persisted = this.template.scan(ORDERS).persist();

		assertThat(persisted.keysChanged()).isEqualTo(1_000);
		assertThat(server.call("PTTL", "order:7")).isEqualTo(-1L);
		assertThat((Long) server.call("TTL", "user:1")).isPositive();

		BulkResults deleted = this.template.scan(ORDERS).del();

		assertThat(deleted.keysChanged()).isEqualTo(1_000);
		assertThat(server.call("DBSIZE")).isEqualTo(500L);
		assertThat(commandCalls(server, "del")).isEqualTo(deleted.keysMatched());
	}

	@Test
	void countIsADryRunThatSendsNoCommandToTheKeys(RedisProcess server) {
		write("order:", 3_000);
		write("user:", 1_000);

		BulkResults results = this.template.scan(ORDERS).count();

		assertThat(results.keysMatched()).isGreaterThanOrEqualTo(3_000);
		assertThat(results.keysChanged()).isZero();
		assertThat(results.commands().size()).isZero();
		assertThat(results.isComplete()).isTrue();
		assertThat(server.call("DBSIZE")).isEqualTo(4_000L);
		assertThat(commandCalls(server, "scan")).isPositive();
	}

	@Test
	void anOperationWithNoMatchingKeyIsAnEmptyCompleteSuccess(RedisProcess server) {
		write("user:", 100);

		BulkResults results = this.template.scan(ORDERS).unlink();

		assertThat(results.keysMatched()).isZero();
		assertThat(results.commands().size()).isZero();
		assertThat(results.isComplete()).isTrue();
		assertThat(server.call("DBSIZE")).isEqualTo(100L);
	}

	@Test
	void aCompleteCursorRunsNothing(RedisProcess server) {
		write("order:", 100);

		BulkResults results = this.template.scan(ORDERS).from(ScanCursor.fromToken("scan1:complete")).unlink();

		assertThat(results.keysMatched()).isZero();
		assertThat(results.isComplete()).isTrue();
		assertThat(server.call("DBSIZE")).isEqualTo(100L);
	}

	@Test
	void badInputIsRejectedBeforeAnyIo(RedisProcess server) {
		long connections = server.totalConnectionsReceived();
		BulkOperations orders = this.template.scan(ORDERS);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.scan(ScanOptions.scanOptions().count(0).build()))
			.withMessage("the COUNT of a scan must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> orders.expire(Duration.ZERO))
			.withMessage("ttl must be at least 1 ms but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> orders.options(BatchOptions.builder().transactional(true).build()))
			.withMessageContaining("cannot be transactional");
		BatchTemplate<String, String> bound = this.template;
		try (BoundBatch batch = bound.bind(BatchOptions.defaults(), List.of())) {
			assertThatIllegalStateException().isThrownBy(orders::unlink)
				.withMessageContaining("cannot join the @RedisBatch batch bound to this thread");
			batch.complete();
		}

		assertThat(server.totalConnectionsReceived()).isEqualTo(connections + 1);
	}

	@Test
	void theObservationShowsTheKeysMatched(RedisProcess server) {
		write("order:", 2_000);
		TestObservationRegistry registry = TestObservationRegistry.create();
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		registry.observationConfig().observationHandler(new BatchMetricsObservationHandler(meters));
		this.template.setObservationRegistry(registry);

		BulkResults results = this.template.scan(ORDERS).options(BatchOptions.builder().name("purge").build()).unlink();
		BulkResults dryRun = this.template.scan(ORDERS).count();

		TestObservationRegistryAssert.assertThat(registry)
			.hasNumberOfObservationsWithNameEqualTo("redis.batch", 2)
			.hasAnObservation((observation) -> observation.hasLowCardinalityKeyValue("name", "purge")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasHighCardinalityKeyValue("redis.batch.keys.matched", String.valueOf(results.keysMatched()))
				.doesNotHaveHighCardinalityKeyValueWithKey("redis.batch.throttle.wait.ms"));
		assertThat(meters.get("redis.batch.keys.matched")
			.tag("name", "purge")
			.tag("operation", "unlink")
			.counter()
			.count()).isEqualTo(results.keysMatched());
		assertThat(meters.get("redis.batch.keys.matched").tag("operation", "count").counter().count())
			.isEqualTo(dryRun.keysMatched());
		assertThat(dryRun.keysMatched()).isZero();
	}

	@Test
	void anOperationCutOffByALostConnectionResumesFromTheCursorOfItsException(RedisProcess server) {
		write("order:", 20_000);
		write("user:", 5_000);
		StringBatchTemplate slowly = template(server.port(),
				BatchOptions.builder().chunkSize(100).maxCommandsPerSecond(20_000).build());
		// the server holds its writes, so that the connection dies with commands in
		// flight
		server.call("CLIENT", "PAUSE", "30000", "WRITE");
		CompletableFuture<BulkResults> running;
		try {
			running = CompletableFuture.supplyAsync(() -> slowly.scan(ORDERS).unlink());
			await().atMost(Duration.ofSeconds(20)).until(() -> ClusterBulkTests.hasCommandsWaiting(server));
			server.call("CLIENT", "KILL", "TYPE", "normal");
		}
		finally {
			server.call("CLIENT", "UNPAUSE");
		}

		Throwable failure = running.handle((results, ex) -> ex).join().getCause();
		assertThat(failure).isInstanceOf(BulkException.class);
		BulkResults cut = ((BulkException) failure).getBulkResults();
		BatchResults commands = ((BulkException) failure).getResults();
		assertThat(commands).isSameAs(cut.commands());
		assertThat(cut.isComplete()).isFalse();
		// the position before the first page whose commands were cut off ("scan1:" when
		// it is the first page)
		assertThat(cut.cursor().toToken()).startsWith("scan1:").isNotEqualTo("scan1:complete");
		assertThat(commands.count(Outcome.SUCCESS) + commands.count(Outcome.FAILED) + commands.count(Outcome.UNKNOWN)
				+ commands.count(Outcome.NOT_SENT))
			.isEqualTo(commands.size())
			.isEqualTo(cut.keysMatched());
		assertThat((Long) server.call("DBSIZE")).isGreaterThan(5_000L);
		assertThat(commands.count(Outcome.UNKNOWN)).isPositive();
		assertThat(failure).hasMessageContaining("Bulk unlink did not complete");

		BulkResults rest = this.template.scan(ORDERS).from(ScanCursor.fromToken(cut.cursor().toToken())).unlink();

		assertThat(rest.isComplete()).isTrue();
		assertThat(server.call("DBSIZE")).isEqualTo(5_000L);
		assertThat(cut.keysChanged() + rest.keysChanged()).isEqualTo(20_000);
	}

	@Test
	void theDocumentationExamplesRun(RedisProcess server) {
		write("order:", 3_000);
		write("session:", 2_000);
		write("user:", 100);
		BulkExamples examples = new BulkExamples(this.template);

		assertThat(examples.countOrders()).isGreaterThanOrEqualTo(3_000);
		assertThat(examples.purgeOrders().keysChanged()).isEqualTo(3_000);
		assertThat(examples.expireSessions(null)).isEqualTo("scan1:complete");
		assertThat((Long) server.call("TTL", "session:1")).isPositive();
		Map<String, String> orders = new LinkedHashMap<>();
		for (int i = 0; i < 1_000; i++) {
			orders.put("order:" + i, "{}");
		}
		assertThat(examples.backfill(orders).count(Outcome.SUCCESS)).isEqualTo(1_000);
		assertThat(examples.purgeOrdersPolitely().keysChanged()).isEqualTo(1_000);
		assertThat(server.call("DBSIZE")).isEqualTo(2_100L);
	}

	private long commandCalls(RedisProcess server, String command) {
		String stats = server.info("commandstats").get("cmdstat_" + command);
		if (stats == null) {
			return 0;
		}
		String calls = stats.substring(stats.indexOf("calls=") + 6, stats.indexOf(','));
		return Long.parseLong(calls);
	}

	private void write(String prefix, int count) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < count; i++) {
			entries.put(prefix + i, "v");
		}
		this.template.setAll(entries, null);
	}

	private StringBatchTemplate template(int port, BatchOptions defaults) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port)).build());
		return new StringBatchTemplate(pool, defaults);
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
