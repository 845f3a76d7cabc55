package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bulk operations on a Redis Cluster of 3 masters and 3 replicas: every master is scanned
 * with its own cursor; an unlink of 300,000 of 1,000,000 keys removes exactly those in a
 * JVM with a small heap; and when a master's connections are killed in the middle, the
 * others finish, the exception's cursor names where that master stopped, and continuing
 * from it removes every matching key.
 */
@ExtendWith(RedisClusterExtension.class)
@BothPaths
class ClusterBulkTests {

	private static final ScanOptions ORDERS = ScanOptions.scanOptions().match("order:*").count(200).build();

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisCluster cluster) {
		this.pool = BatchConnectionPool.clusterBuilder(cluster.uris().stream().map(RedisURI::create).toList()).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void everyMasterIsScannedAndOnlyTheMatchingKeysGo(RedisCluster cluster) {
		write("order:", 6_000);
		write("user:", 3_000);

		BulkResults results = this.template.scan(ORDERS).unlink();

		assertThat(results.keysChanged()).isEqualTo(6_000);
		assertThat(results.isComplete()).isTrue();
		for (RedisProcess master : cluster.masters()) {
			assertThat(master.call("DBSIZE")).as("master %d keeps only users", master.port())
				.isEqualTo((long) keysOf(master, "user:*"));
			assertThat(keysOf(master, "order:*")).isZero();
		}
		assertThat(totalKeys(cluster)).isEqualTo(3_000);
	}

	@Test
	void aMasterWhoseConnectionsAreKilledMidScanResumesFromTheCursorOfTheException(RedisCluster cluster) {
		write("order:", 30_000);
		write("user:", 6_000);
		RedisProcess victim = cluster.masters().get(1);
		BulkOperations slowly = this.template.scan(ORDERS)
			.options(BatchOptions.builder().chunkSize(100).maxCommandsPerSecond(20_000).build());
		// the victim holds its writes, so that its connection dies with commands in
		// flight
		victim.call("CLIENT", "PAUSE", "30000", "WRITE");
		CompletableFuture<BulkResults> running;
		try {
			running = CompletableFuture.supplyAsync(slowly::unlink);
			await().atMost(Duration.ofSeconds(20)).until(() -> hasCommandsWaiting(victim));
			victim.call("CLIENT", "KILL", "TYPE", "normal");
		}
		finally {
			victim.call("CLIENT", "UNPAUSE");
		}

		Throwable failure = running.handle((results, ex) -> ex).join().getCause();
		assertThat(failure).isInstanceOf(BulkException.class);
		BulkResults cut = ((BulkException) failure).getBulkResults();
		assertThat(cut.isComplete()).isFalse();
		String token = cut.cursor().toToken();
		// the other masters finished; the victim has a position to resume from
		for (RedisProcess master : cluster.masters()) {
			int lowestSlot = cluster.slotsOf(master).stream().mapToInt(Integer::intValue).min().getAsInt();
			if (master == victim) {
				assertThat(token).doesNotContain(lowestSlot + "=done");
				assertThat(keysOf(master, "order:*")).isPositive();
			}
			else {
				assertThat(token).contains(lowestSlot + "=done");
				assertThat(keysOf(master, "order:*")).isZero();
			}
		}
		BatchResults commands = cut.commands();
		assertThat(commands.count(Outcome.SUCCESS) + commands.count(Outcome.FAILED) + commands.count(Outcome.UNKNOWN)
				+ commands.count(Outcome.NOT_SENT))
			.isEqualTo(commands.size())
			.isEqualTo(cut.keysMatched());
		assertThat(failure.getMessage()).contains("Bulk unlink did not complete").contains(victim.port() + "");

		BulkResults rest = this.template.scan(ORDERS).from(ScanCursor.fromToken(token)).unlink();

		assertThat(rest.isComplete()).isTrue();
		assertThat(this.template.scan(ORDERS).count().keysMatched()).isZero();
		assertThat(totalKeys(cluster)).isEqualTo(6_000);
		assertThat(cut.keysChanged() + rest.keysChanged()).isEqualTo(30_000);
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void unlinkingThreeHundredThousandOfAMillionKeysRemovesExactlyThoseInASmallHeap(RedisCluster cluster)
			throws Exception {
		write("match:", 300_000);
		List<String> kept = write("keep:", 700_000);

		String output = BoundedMemoryTests.finish(BoundedMemoryTests.startInSmallHeap(ClusterBulkUnlinkMain.class,
				"40m", cluster.uris().toArray(String[]::new)));

		assertThat(output).contains(" changed=300000 ").contains(" complete=true ");
		assertThat(BoundedMemoryTests.number(output, "matched")).isEqualTo(BoundedMemoryTests.number(output, "size"))
			.isEqualTo(BoundedMemoryTests.number(output, "success"))
			.isGreaterThanOrEqualTo(300_000);
		assertThat(totalKeys(cluster)).isEqualTo(700_000);
		List<Response<Boolean>> exists = new ArrayList<>(kept.size());
		this.template.execute((batch) -> kept.forEach((key) -> exists.add(batch.exists(key))));
		assertThat(exists).allSatisfy((response) -> assertThat(response.get()).isTrue());
		assertThat(this.template.scan(ScanOptions.scanOptions().match("match:*").count(1000).build())
			.count()
			.keysMatched()).isZero();
	}

	private List<String> write(String prefix, int count) {
		List<String> keys = new ArrayList<>(count);
		this.template.execute((batch) -> {
			for (int i = 0; i < count; i++) {
				String key = prefix + i;
				keys.add(key);
				batch.set(key, "v");
			}
		});
		return keys;
	}

	/**
	 * Whether a client of the server has commands in its query buffer, not yet run.
	 */
	static boolean hasCommandsWaiting(RedisProcess server) {
		for (String client : String.valueOf(server.call("CLIENT", "LIST")).split("\n")) {
			String queryBuffer = client.replaceAll(".* qbuf=(\\d+) .*", "$1").trim();
			if (!client.contains("cmd=client") && queryBuffer.matches("\\d+") && Long.parseLong(queryBuffer) > 0) {
				return true;
			}
		}
		return false;
	}

	private static long totalKeys(RedisCluster cluster) {
		long total = 0;
		for (RedisProcess master : cluster.masters()) {
			total += (Long) master.call("DBSIZE");
		}
		return total;
	}

	private static int keysOf(RedisProcess master, String pattern) {
		int count = 0;
		String cursor = "0";
		do {
			List<?> reply = (List<?>) master.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
			cursor = String.valueOf(reply.get(0));
			count += ((List<?>) reply.get(1)).size();
		}
		while (!cursor.equals("0"));
		return count;
	}

}
