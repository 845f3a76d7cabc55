package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import dev.redisbatch.docs.ClusterExamples;
import dev.redisbatch.docs.CommandExamples;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Batches on a local Redis Cluster of 3 masters and 3 replicas: commands grouped per
 * master and pipelined there, results in the caller's order, redirects followed during
 * resharding without running anything twice, and the limits of one slot.
 */
@ExtendWith(RedisClusterExtension.class)
@BothPaths
@EveryLine
class ClusterTests {

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
	void aHundredThousandCommandsOverRandomKeysLandWithEveryValueCorrect(RedisCluster cluster) {
		Random random = new Random(42);
		Map<String, String> entries = new LinkedHashMap<>();
		while (entries.size() < 100_000) {
			entries.put("key:" + Long.toHexString(random.nextLong()), "value-" + entries.size());
		}

		this.template.setAll(entries, Duration.ofHours(1));

		long keys = 0;
		for (RedisProcess master : cluster.masters()) {
			long size = (Long) master.call("DBSIZE");
			assertThat(size).as("keys on master %d", master.port()).isPositive();
			keys += size;
		}
		assertThat(keys).isEqualTo(100_000);
		List<String> values = this.template.getAll(List.copyOf(entries.keySet()));
		assertThat(values).containsExactlyElementsOf(entries.values());
		String someKey = entries.keySet().iterator().next();
		assertThat(cluster.call(someKey, "GET", someKey)).isEqualTo(entries.get(someKey));
	}

	@Test
	void resultsComeBackInTheCallersOrderAcrossMasters(RedisCluster cluster) {
		cluster.call("not-a-number", "SET", "not-a-number", "x");
		List<Response<?>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class,
				() -> this.template.execute(BatchOptions.builder().chunkSize(7).build(), (batch) -> {
					for (int i = 0; i < 300; i++) {
						responses.add(batch.set("k" + i, "v" + i));
					}
					for (int i = 299; i >= 0; i--) {
						responses.add(batch.get("k" + i));
					}
					responses.add(batch.incr("not-a-number"));
					for (int i = 0; i < 300; i++) {
						responses.add(batch.incr("counter" + i));
					}
				}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(901);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(900);
		assertThat(results.failures()).singleElement().satisfies((failed) -> {
			assertThat(failed.index()).isEqualTo(600);
			assertThat(failed.command()).isEqualTo("INCR");
			assertThat(failed.message()).contains("not an integer");
		});
		for (int i = 0; i < 300; i++) {
			assertThat(responses.get(i).get()).isEqualTo(true);
			assertThat(responses.get(300 + i).get()).isEqualTo("v" + (299 - i));
			assertThat(responses.get(601 + i).get()).isEqualTo(1L);
		}
		Set<Integer> masters = new java.util.HashSet<>();
		for (int i = 0; i < 300; i++) {
			masters.add(cluster.masterOf("k" + i).port());
		}
		assertThat(masters).hasSize(3);
	}

	@Test
	void eachMasterGetsItsOwnChunks(RedisCluster cluster) {
		BatchResults results = this.template.execute(BatchOptions.builder().chunkSize(100).build(), (batch) -> {
			for (int i = 0; i < 3000; i++) {
				batch.set("key:" + i, "v");
			}
		});

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3000);
		// about 1,000 commands per master, in chunks of up to 100: never a chunk that
		// mixes masters, so at least 30 chunks, and at most 3 partial ones
		assertThat(results.chunks()).isBetween(30, 33);
		for (RedisProcess master : cluster.masters()) {
			assertThat(master.info("commandstats").get("cmdstat_set")).as("SETs on %d", master.port())
				.startsWith("calls=");
		}
	}

	@Test
	void aSlotMovedMidBatchLosesNothingAndRunsNothingTwice(RedisCluster cluster) {
		List<String> counters = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			counters.add("{moving}:counter:" + i);
		}
		int slot = cluster.slot("{moving}");
		RedisProcess source = cluster.masterOf(slot);
		RedisProcess target = cluster.masters().stream().filter((m) -> m != source).findFirst().orElseThrow();

		BatchResults results = this.template.execute(BatchOptions.builder().chunkSize(10).build(), (batch) -> {
			counters.forEach(batch::incr);
			// Half of the keys move first: the source answers ASK for them.
			cluster.startMigration(slot, target);
			cluster.migrateKeys(slot, target, counters.subList(0, 50).toArray(String[]::new));
			counters.forEach(batch::incr);
			// Then the slot moves: the source answers MOVED.
			cluster.finishMigration(slot, target);
			counters.forEach(batch::incr);
		});

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(300);
		assertThat(cluster.masterOf(slot)).isSameAs(target);
		for (String counter : counters) {
			assertThat(target.call("GET", counter)).as(counter).isEqualTo("3");
		}
		assertThat(target.info("commandstats").get("cmdstat_asking")).as("ASK was followed").startsWith("calls=");
		// the next batch routes by the new topology: no redirect at all
		long redirectedBefore = calls(target, "asking");
		this.template.execute((batch) -> counters.forEach(batch::incr));
		assertThat(calls(target, "asking")).isEqualTo(redirectedBefore);
		assertThat(target.call("GET", counters.get(0))).isEqualTo("4");
	}

	@Test
	void aScriptWhoseKeysSpanSlotsFailsBeforeSendingAndNamesTheSlotsNotTheKeys(RedisCluster cluster) {
		RedisScript<Long> script = RedisScript.of("return redis.call('DEL', KEYS[1], KEYS[2])", Long.class);
		long evalsBefore = evals(cluster);

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			batch.set("a", "1");
			batch.eval(script, List.of("secret-key-a", "secret-key-b"));
			batch.eval(script, List.of("{tag}:a", "{tag}:b"));
		}));

		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(results.failures()).singleElement().satisfies((failed) -> {
			assertThat(failed.index()).isEqualTo(1);
			assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
			assertThat(failed.message()).contains("different slots", "hash tag").doesNotContain("secret-key");
		});
		assertThat(evals(cluster) - evalsBefore).as("only the script whose keys share a slot ran").isEqualTo(1);
	}

	@Test
	void aTransactionalBatchRunsMultiExecWhenItsKeysShareASlot(RedisCluster cluster) {
		BatchOptions transactional = BatchOptions.builder().transactional(true).build();
		RedisProcess master = cluster.masterOf("{user:42}");
		long execs = calls(master, "exec");

		BatchResults results = this.template.execute(transactional, (batch) -> {
			batch.set("{user:42}:name", "Ada");
			batch.incr("{user:42}:visits");
			batch.expire("{user:42}:visits", Duration.ofMinutes(5));
		});

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3);
		assertThat(master.call("GET", "{user:42}:name")).isEqualTo("Ada");
		assertThat(calls(master, "exec")).isEqualTo(execs + 1);
	}

	@Test
	void aTransactionalBatchWhoseKeysSpanSlotsFailsBeforeSending(RedisCluster cluster) {
		BatchOptions transactional = BatchOptions.builder().transactional(true).build();

		assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
			.isThrownBy(() -> this.template.execute(transactional, (batch) -> {
				batch.set("{user:1}:name", "Ada");
				batch.set("{user:2}:name", "Grace");
			}))
			.withMessageContaining("one slot")
			.withMessageContaining("hash tag");
		for (RedisProcess master : cluster.masters()) {
			assertThat(master.call("DBSIZE")).isEqualTo(0L);
		}
	}

	@Test
	void anUnreachableClusterStopsTheBatchAtItsFirstCommandWithNothingSent() {
		try (BatchConnectionPool unreachable = BatchConnectionPool
			.clusterBuilder(List.of(RedisURI.create("redis://127.0.0.1:" + FreePorts.next())))
			.connectTimeout(Duration.ofSeconds(1))
			.build()) {
			StringBatchTemplate template = new StringBatchTemplate(unreachable);
			List<Integer> recorded = new ArrayList<>();

			BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
				for (int i = 0; i < 1000; i++) {
					batch.set("key:" + i, "v");
					recorded.add(i);
				}
			}));

			// recording never throws: every command was recorded, and none was sent
			assertThat(recorded).hasSize(1000);
			assertThat(failure.getResults().size()).isEqualTo(1000);
			assertThat(failure.getResults().count(Outcome.NOT_SENT)).isEqualTo(1000);
			assertThat(failure.getResults().abortReason()).contains("no route in the cluster");
			assertThat(unreachable.getCreatedCount()).isZero();
		}
	}

	@Test
	void theExamplesOfTheClusterGuideRun(RedisCluster cluster) {
		ClusterExamples examples = new ClusterExamples(this.template);

		BatchResults saved = examples.saveUserAtomically(42, Map.of("name", "Ada", "city", "London"));
		long notSent = examples.updatePrices(Map.of("price:1", "9.50", "price:2", "3.20", "price:3", "1.00"));

		assertThat(saved.count(Outcome.SUCCESS)).isEqualTo(4);
		assertThat(cluster.call("{user:42}", "HGET", "{user:42}:profile", "city")).isEqualTo("London");
		assertThat(notSent).isZero();
		assertThat(cluster.call("price:3", "GET", "price:3")).isEqualTo("1.00");
	}

	@Test
	void commandsByNameGoToTheMasterOfTheirKey(RedisCluster cluster) {
		List<String> streams = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			streams.add("events:" + i);
		}
		Map<String, List<String>> visits = new LinkedHashMap<>();
		for (int i = 0; i < 30; i++) {
			visits.put("page" + i, List.of("alice", "bob", "page" + i));
		}

		List<Long> lengths = new ArrayList<>();
		CommandExamples examples = new CommandExamples(this.template);
		for (String stream : streams) {
			lengths.add(examples.appendEvents(stream, List.of(Map.of("n", "1"), Map.of("n", "2"))).length());
		}
		Map<String, Long> unique = examples.uniqueVisitors(visits);

		assertThat(lengths).hasSize(30).containsOnly(2L);
		assertThat(unique.values()).hasSize(30).containsOnly(3L);
		assertThat(streams.stream().map((stream) -> cluster.masterOf(stream).port()).distinct().count())
			.as("the streams span every master")
			.isEqualTo(3);
		for (String stream : streams) {
			assertThat(cluster.call(stream, "XLEN", stream)).isEqualTo(2L);
		}
		assertThat(cluster.call("visitors:page7", "PFCOUNT", "visitors:page7")).isEqualTo(3L);
	}

	@Test
	void aCommandByNameMayOnlySpanOneSlot(RedisCluster cluster) {
		cluster.call("{t}a", "PFADD", "{t}a", "x", "y");
		cluster.call("{t}b", "PFADD", "{t}b", "y", "z");
		Response<?>[] responses = new Response[2];

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			responses[0] = batch.command("PFCOUNT", CommandReply.integer(), (args) -> args.key("{t}a").key("{t}b"));
			responses[1] = batch.command("PFCOUNT", CommandReply.integer(),
					(args) -> args.key("{t}a").key("elsewhere"));
		}));

		assertThat(responses[0].get()).isEqualTo(3L);
		assertThat(responses[1].outcome()).isEqualTo(Outcome.FAILED);
		assertThat(failure.getResults().failures().get(0).message()).contains("hash to different slots");
	}

	@Test
	void aCommandByNameWithoutKeysIsRefusedOnACluster() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command("PING", CommandReply.status(), (args) -> {
			})))
			.withMessageContaining("PING has no key")
			.withMessageContaining("key(...)");
	}

	@Test
	void aReactiveBatchReachesEveryMasterAndGetAllKeepsTheKeysOrder(RedisCluster cluster) {
		ReactiveBatchTemplate<String, String> reactive = new ReactiveBatchTemplate<>(this.template);
		Flux<Map.Entry<String, String>> entries = Flux.range(0, 30_000).map((i) -> Map.entry("rx:" + i, "v" + i));

		StepVerifier.create(reactive.setAll(entries, null))
			.assertNext((results) -> assertThat(results.count(Outcome.SUCCESS)).isEqualTo(30_000))
			.verifyComplete();
		StepVerifier.create(reactive.getAll(Flux.just("rx:29999", "rx:none", "rx:0", "rx:15000")))
			.assertNext((values) -> assertThat(values).containsExactly("v29999", null, "v0", "v15000"))
			.verifyComplete();

		Set<Integer> masters = new java.util.HashSet<>();
		for (int i = 0; i < 30_000; i += 997) {
			String key = "rx:" + i;
			assertThat(cluster.call(key, "GET", key)).isEqualTo("v" + i);
			masters.add(cluster.masterOf(key).port());
		}
		assertThat(masters).as("masters that hold the keys").hasSize(3);
		assertThat(this.pool.getActive()).isZero();
	}

	static long calls(RedisProcess server, String command) {
		String stats = server.info("commandstats").get("cmdstat_" + command);
		if (stats == null) {
			return 0;
		}
		return Long.parseLong(stats.substring("calls=".length(), stats.indexOf(',')));
	}

	/**
	 * How many scripts the cluster's masters ran so far.
	 */
	static long evals(RedisCluster cluster) {
		long evals = 0;
		for (RedisProcess master : cluster.masters()) {
			evals += calls(master, "eval");
		}
		return evals;
	}

}
