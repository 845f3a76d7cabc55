package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import dev.redisbatch.docs.LoyaltyPoints;
import dev.redisbatch.docs.StockImport;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.Closeables;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Exactly-once batches: a chunk whose connection is lost before its reply came is sent
 * again with its marker, so that it runs once, and every command that ran has its own
 * reply.
 */
@BothPaths
class ExactlyOnceTests {

	@AutoClose
	private final Closeables resources = new Closeables();

	@Test
	void aChunkThatRanButWhoseReplyWasLostGivesEachCommandItsOwnReplyWithoutRunningAgain() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(),
				BatchOptions.builder().exactlyOnce(true).timeout(Duration.ofMillis(500)).build());
		template.getAll(List.of("warm"));
		// the server runs the chunk; its reply never reaches the batch
		proxy.dropRepliesAfter(0);
		List<Response<Long>> counts = new ArrayList<>();

		BatchResults results = template.execute((batch) -> {
			for (int i = 0; i < 10; i++) {
				counts.add(batch.incr("n"));
			}
			batch.lpush("list", "a");
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(11);
		assertThat(counts).extracting(Response::get).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
		assertThat(server.call("GET", "n")).isEqualTo("10");
		assertThat(server.call("LLEN", "list")).isEqualTo(1L);
	}

	@Test
	void everyTypeOfReplyComesBackFromTheMarkerAsTheCommandWouldHaveAnsweredIt() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(),
				BatchOptions.builder().exactlyOnce(true).timeout(Duration.ofMillis(500)).build());
		template.getAll(List.of("warm"));
		server.call("HSET", "hash", "a", "1", "b", "2");
		server.call("ZADD", "zset", "1.5", "x", "2.5", "y");
		server.call("SADD", "set", "m", "n");
		server.call("SET", "text", "hello");
		proxy.dropRepliesAfter(0);
		List<Response<?>> responses = new ArrayList<>();

		BatchResults results = template.execute((batch) -> {
			responses.add(batch.hgetAll("hash"));
			responses.add(batch.zscore("zset", "y"));
			responses.add(batch.zincrBy("zset", 0.25, "x"));
			responses.add(batch.zrange("zset", 0, -1));
			responses.add(batch.smembers("set"));
			responses.add(batch.get("missing"));
			responses.add(batch.get("text"));
			responses.add(batch.exists("text"));
			responses.add(batch.set("fresh", "v", Duration.ofMinutes(5)));
			responses.add(batch.setIfAbsent("text", "other"));
			responses.add(batch.ttl("fresh"));
			responses.add(batch.lrange("nothing", 0, -1));
			responses.add(batch.hincrBy("hash", "a", 10));
		});

		assertThat(results.isSuccess()).isTrue();
		List<Object> values = new ArrayList<>();
		responses.forEach((response) -> values.add(response.get()));
		assertThat(values).containsExactly(Map.of("a", "1", "b", "2"), 2.5, 1.75, List.of("x", "y"),
				java.util.Set.of("m", "n"), null, "hello", true, true, false, 300L, List.of(), 11L);
		assertThat(server.call("HGET", "hash", "a")).isEqualTo("11");
	}

	@Test
	void aBatchWithoutTheModeSendsItsCommandsAsTheyAre() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(), BatchOptions.defaults());
		template.getAll(List.of("warm"));
		long before = proxy.clientBytes();

		template.execute((batch) -> {
			batch.set("k", "v");
			batch.incr("n");
		});

		// exactly the two commands' RESP: no script, no marker
		assertThat(proxy.clientBytes() - before)
			.isEqualTo(("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n").length());
		assertThat(String.valueOf(server.call("INFO", "commandstats"))).doesNotContain("cmdstat_eval");
	}

	@Test
	void theDocumentedLoyaltyPointsGetEachTotalOnceThoughTheRepliesWereLost() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(),
				BatchOptions.builder().timeout(Duration.ofMillis(500)).build());
		template.getAll(List.of("warm"));
		server.call("SET", "points:ann", "100");
		proxy.dropRepliesAfter(0);

		List<Long> totals = new LoyaltyPoints(template).award(Map.of("ann", 5L));

		assertThat(totals).containsExactly(105L);
		assertThat(server.call("GET", "points:ann")).isEqualTo("105");
	}

	@Test
	void aBulkUnlinkLeavesTheMarkersAlone() {
		RedisProcess server = track(RedisProcess.start());
		StringBatchTemplate template = template(server.port(), BatchOptions.defaults());
		server.call("SET", "user:1", "x");
		server.call("SET", ExactlyOnce.MARKER_PREFIX + "kept", "*0\r\n", "EX", "300");

		BulkResults results = template.scan(ScanOptions.scanOptions().match("*").build()).unlink();

		assertThat(results.keysMatched()).isOne();
		assertThat(server.call("EXISTS", "user:1")).isEqualTo(0L);
		assertThat(server.call("EXISTS", ExactlyOnce.MARKER_PREFIX + "kept")).isEqualTo(1L);
	}

	@Test
	void aChunkThatNeverReachedTheServerRunsOnTheNewConnection() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(), BatchOptions.builder().exactlyOnce(true).build());
		template.getAll(List.of("warm"));
		// the connection closes as the chunk arrives, before the server reads it
		proxy.closeOnRequest("never-reached", 1);

		BatchResults results = template.execute((batch) -> {
			batch.incr("never-reached");
			batch.incrBy("by", 5);
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(server.call("GET", "never-reached")).isEqualTo("1");
		assertThat(server.call("GET", "by")).isEqualTo("5");
	}

	@Test
	void countersListsAndStreamsEndExactlyAtTheirNumberOfCommandsWhileConnectionsAreKilled() {
		RedisProcess server = track(RedisProcess.start());
		// a round trip of a millisecond keeps chunks in flight when the kills come
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(1)));
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.builder().withHost("127.0.0.1").withPort(proxy.port()).build())
					.build());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().exactlyOnce(true).chunkSize(30).build());
		int batches = 6;
		int perBatch = 300;
		List<Response<Long>> increments = new ArrayList<>();
		for (int b = 0; b < batches; b++) {
			BatchResults results = template.execute((batch) -> {
				for (int i = 0; i < perBatch; i++) {
					if (i % 100 == 50) {
						// every batch connection is killed while the batch's chunks are
						// in
						// flight
						server.call("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
					}
					increments.add(batch.incr("counter"));
					batch.lpush("list", "x");
					batch.command("XADD", CommandReply.string(), "stream", "*", "f", "v");
				}
			});
			assertThat(results.count(Outcome.UNKNOWN)).isZero();
			assertThat(results.isSuccess()).isTrue();
		}
		assertThat(pool.getCreatedCount()).as("killed connections were replaced").isGreaterThan(batches);
		int each = batches * perBatch;
		assertThat(server.call("GET", "counter")).isEqualTo(String.valueOf(each));
		assertThat(server.call("LLEN", "list")).isEqualTo((long) each);
		assertThat(server.call("XLEN", "stream")).isEqualTo((long) each);
		// every INCR has its own reply: 1 to the last, each once
		assertThat(increments).extracting(Response::get).doesNotHaveDuplicates().hasSize(each);
	}

	@Test
	void aCommandAScriptCannotRunIsRefusedBeforeAnythingIsSent() {
		RedisProcess server = track(RedisProcess.start());
		StringBatchTemplate template = template(server.port(), BatchOptions.builder().exactlyOnce(true).build());

		assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
			.isThrownBy(() -> template.execute((batch) -> batch.command("CONFIG", CommandReply.string(),
					(arguments) -> arguments.arg("GET").arg("maxmemory"))))
			.withMessageStartingWith("CONFIG cannot run in an exactly-once batch");
		assertThat(server.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void exactlyOnceAndTransactionalAreRefusedTogether() {
		RedisProcess server = track(RedisProcess.start());
		StringBatchTemplate template = template(server.port(), BatchOptions.defaults());

		assertThatIllegalArgumentException()
			.isThrownBy(() -> template.execute(BatchOptions.builder().exactlyOnce(true).transactional(true).build(),
					(batch) -> batch.incr("n")))
			.withMessageContaining("cannot be combined with transactional");
		assertThat(server.call("GET", "n")).isNull();
	}

	@Test
	void markersOfAnsweredChunksAreRemoved() {
		RedisProcess server = track(RedisProcess.start());
		StringBatchTemplate template = template(server.port(),
				BatchOptions.builder().exactlyOnce(true).chunkSize(10).build());

		template.execute((batch) -> {
			for (int i = 0; i < 5_000; i++) {
				batch.incr("n");
			}
		});

		// each chunk removes the markers of the chunks answered before it was written,
		// and the last ones go as the batch gives its connection back
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat((List<?>) server.call("KEYS", ExactlyOnce.MARKER_PREFIX + "*")).isEmpty());
		assertThat(server.call("GET", "n")).isEqualTo("5000");
		assertThat(server.call("DBSIZE")).isEqualTo(1L);
	}

	@Test
	void aBatchRunAgainWithItsIdTakesTheRepliesOfTheRunWhoseOutcomesWereLost() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		BatchOptions options = BatchOptions.builder()
			.exactlyOnce("import-42", Duration.ofHours(1))
			.chunkSize(10)
			.timeout(Duration.ofMillis(300))
			.retry(1, Duration.ofMillis(10))
			.build();
		StringBatchTemplate first = template(proxy.port(), BatchOptions.defaults());
		first.getAll(List.of("warm"));
		// the server runs every chunk, no reply comes back, and then the server cannot be
		// reached: the batch ends with its outcomes unknown, as one whose application
		// stopped would
		proxy.dropRepliesAfter(0);
		BatchException lost = catchThrowableOfType(BatchException.class, () -> first.execute(options, (batch) -> {
			incrementTimes(batch, 25, new ArrayList<>());
			batch.flush();
			await().atMost(Duration.ofSeconds(10)).until(() -> "25".equals(server.call("GET", "n")));
			proxy.close();
		}));
		assertThat(lost.getResults().count(Outcome.UNKNOWN)).isEqualTo(25);
		assertThat(server.call("GET", "n")).isEqualTo("25");

		// the same batch, run again with its id on a new pool
		StringBatchTemplate again = template(server.port(), BatchOptions.defaults());
		List<Response<Long>> counts = new ArrayList<>();
		BatchResults results = again.execute(options, (batch) -> incrementTimes(batch, 25, counts));

		assertThat(results.isSuccess()).isTrue();
		assertThat(counts).extracting(Response::get)
			.containsExactlyElementsOf(LongStream.rangeClosed(1, 25).boxed().toList());
		assertThat(server.call("GET", "n")).as("nothing ran twice").isEqualTo("25");
		// its three chunks' markers stay for the window
		List<?> markers = (List<?>) server.call("KEYS", ExactlyOnce.MARKER_PREFIX + "import-42:*");
		assertThat(markers).hasSize(3);
		assertThat((Long) server.call("TTL", String.valueOf(markers.get(0)))).isBetween(3_500L, 3_600L);
		// and a batch with another id is another batch
		again.execute(options.mutate().exactlyOnce("import-43", Duration.ofHours(1)).build(),
				(batch) -> incrementTimes(batch, 25, new ArrayList<>()));
		assertThat(server.call("GET", "n")).isEqualTo("50");
	}

	@Test
	void theDocumentedStockImportRunAgainAddsNothingTwice() {
		RedisProcess server = track(RedisProcess.start());
		StockImport stock = new StockImport(template(server.port(), BatchOptions.defaults()));
		List<StockImport.DeliveryLine> lines = new ArrayList<>();
		for (int i = 0; i < 3_000; i++) {
			lines.add(new StockImport.DeliveryLine("sku-" + (i % 100), 1 + i % 3));
		}

		BatchResults first = stock.importDelivery("2026-11-28.csv", lines);
		BatchResults again = stock.importDelivery("2026-11-28.csv", lines);
		BatchResults next = stock.importDelivery("2026-11-29.csv", lines.subList(0, 100));

		assertThat(first.isSuccess()).isTrue();
		assertThat(again.isSuccess()).isTrue();
		assertThat(next.isSuccess()).isTrue();
		// sku-0 is on lines 0, 100, ..., 2,900: 30 lines, of 1 to 3 each
		long expected = 0;
		for (int i = 0; i < 3_000; i += 100) {
			expected += 1 + i % 3;
		}
		assertThat(server.call("GET", "stock:sku-0")).isEqualTo(String.valueOf(expected + 1));
	}

	@Test
	void anIdThatCannotNameABatchIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BatchOptions.builder().exactlyOnce("orders-{2026}", Duration.ofHours(1)))
			.withMessageContaining("'{' or '}'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BatchOptions.builder().exactlyOnce("orders", Duration.ofDays(31)))
			.withMessageContaining("30 days");
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.builder().withHost("127.0.0.1").withPort(server.port()).build())
					.build());
		BatchOptions named = BatchOptions.builder().exactlyOnce("orders", Duration.ofHours(1)).build();
		assertThatIllegalArgumentException().isThrownBy(() -> new StringBatchTemplate(pool, named))
			.withMessageContaining("cannot be a template's default");
	}

	private static void incrementTimes(Batch<String, String> batch, int times, List<Response<Long>> counts) {
		for (int i = 0; i < times; i++) {
			counts.add(batch.incr("n"));
		}
	}

	private static long counter(RedisProcess server) {
		Object value = server.call("GET", "counter");
		return (value != null) ? Long.parseLong(String.valueOf(value)) : 0;
	}

	private StringBatchTemplate template(int port, BatchOptions options) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.builder().withHost("127.0.0.1").withPort(port).build()).build());
		return new StringBatchTemplate(pool, options);
	}

	private <T extends AutoCloseable> T track(T resource) {
		return this.resources.track(resource);
	}

}
