package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exactly-once batches on a local Redis Cluster: each chunk holds the commands of one
 * hash slot and runs as one script there; a chunk refused while its slot migrates waits
 * for the migration and goes to the new master; nothing runs twice.
 */
@ExtendWith(RedisClusterExtension.class)
@BothPaths
class ExactlyOnceClusterTests {

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
	void incrementsOverKeysOfManySlotsEachRunOnceWithTheirOwnNumbers(RedisCluster cluster) {
		Random random = new Random(7);
		List<String> counters = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			counters.add("counter:" + Long.toHexString(random.nextLong()));
		}
		Map<String, List<Response<Long>>> replies = new LinkedHashMap<>();
		long evalsBefore = ClusterTests.evals(cluster);

		BatchResults results = this.template.execute(BatchOptions.builder().exactlyOnce(true).build(), (batch) -> {
			for (int round = 0; round < 10; round++) {
				for (String counter : counters) {
					replies.computeIfAbsent(counter, (key) -> new ArrayList<>()).add(batch.incr(counter));
				}
			}
		});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3_000);
		replies.forEach((counter, own) -> {
			assertThat(own).extracting(Response::get)
				.as(counter)
				.containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
			assertThat(cluster.call(counter, "GET", counter)).as(counter).isEqualTo("10");
		});
		// every chunk ran as one script on the master of its one slot: one chunk per
		// slot, with the ten commands of each of its counters
		long slots = counters.stream().mapToInt(cluster::slot).distinct().count();
		assertThat(results.chunks()).as("chunks").isEqualTo((int) slots);
		assertThat(ClusterTests.evals(cluster) - evalsBefore).as("scripts").isEqualTo(slots);
		// and its marker is removed once answered

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(markers(cluster)).isZero());
	}

	@Test
	void aChunkRefusedWhileItsSlotMigratesWaitsAndRunsOnceOnTheNewMaster(RedisCluster cluster) throws Exception {
		List<String> counters = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			counters.add("{moving}:counter:" + i);
		}
		int slot = cluster.slot("{moving}");
		RedisProcess source = cluster.masterOf(slot);
		RedisProcess target = cluster.masters().stream().filter((m) -> m != source).findFirst().orElseThrow();
		long refusedBefore = refusals(source);
		List<Response<Long>> replies = new ArrayList<>();
		CompletableFuture<Void> migration = new CompletableFuture<>();

		BatchOptions options = BatchOptions.builder()
			.exactlyOnce(true)
			.chunkSize(10)
			.retry(10, Duration.ofMillis(300))
			.build();
		BatchResults results = this.template.execute(options, (batch) -> {
			counters.forEach((counter) -> {
				replies.add(batch.incr(counter));
				batch.lpush("{moving}:list", "x");
				batch.command("XADD", CommandReply.string(), "{moving}:stream", "*", "f", "v");
			});
			batch.flush();
			// The slot starts to migrate, half of its keys move: the source refuses
			// every chunk of the slot (ASK or TRYAGAIN) until the migration ends, which
			// another thread does once the first chunk was refused.
			cluster.startMigration(slot, target);
			cluster.migrateKeys(slot, target, counters.subList(0, 50).toArray(String[]::new));
			CompletableFuture.runAsync(() -> {
				await().atMost(Duration.ofSeconds(20)).until(() -> refusals(source) > refusedBefore);
				cluster.finishMigration(slot, target);
			}).whenComplete((done, failure) -> {
				if (failure != null) {
					migration.completeExceptionally(failure);
				}
				else {
					migration.complete(null);
				}
			});
			counters.forEach((counter) -> {
				replies.add(batch.incr(counter));
				batch.lpush("{moving}:list", "x");
				batch.command("XADD", CommandReply.string(), "{moving}:stream", "*", "f", "v");
			});
		});
		migration.get(30, TimeUnit.SECONDS);

		assertThat(results.count(Outcome.UNKNOWN)).isZero();
		assertThat(results.isSuccess()).isTrue();
		assertThat(refusals(source)).as("chunks were refused during the migration").isGreaterThan(refusedBefore);
		assertThat(cluster.masterOf(slot)).isSameAs(target);
		for (int i = 0; i < counters.size(); i++) {
			String counter = counters.get(i);
			assertThat(target.call("GET", counter)).as(counter).isEqualTo("2");
			assertThat(replies.get(i).get()).isEqualTo(1L);
			assertThat(replies.get(counters.size() + i).get()).isEqualTo(2L);
		}
		assertThat(target.call("LLEN", "{moving}:list")).isEqualTo(200L);
		assertThat(target.call("XLEN", "{moving}:stream")).isEqualTo(200L);
	}

	@Test
	void aBatchOfOneHashTagRunsInFullChunks(RedisCluster cluster) {
		BatchResults results = this.template.execute(BatchOptions.builder().exactlyOnce(true).chunkSize(100).build(),
				(batch) -> {
					for (int i = 0; i < 1_000; i++) {
						batch.incr("{cart:42}:item:" + (i % 10));
					}
				});

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.chunks()).isEqualTo(10);
		assertThat(cluster.call("{cart:42}", "GET", "{cart:42}:item:3")).isEqualTo("100");
	}

	private static long markers(RedisCluster cluster) {
		long found = 0;
		for (RedisProcess master : cluster.masters()) {
			found += ((List<?>) master.call("KEYS", ExactlyOnce.MARKER_PREFIX + "*")).size();
		}
		return found;
	}

	/**
	 * How many commands a master refused with ASK or TRYAGAIN.
	 */
	private static long refusals(RedisProcess master) {
		Map<String, String> errors = master.info("errorstats");
		return count(errors.get("errorstat_ASK")) + count(errors.get("errorstat_TRYAGAIN"));
	}

	private static long count(String stat) {
		if (stat == null) {
			return 0;
		}
		return Long.parseLong(stat.substring("count=".length()));
	}

}
