package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisSentinels;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exactly-once batches through Redis Sentinel, with a failover in the middle of a batch.
 * <p>
 * What replication gives: a chunk runs as one script, and a script's effects reach the
 * replicas as one {@code MULTI}/{@code EXEC}, so a replica, and the master it becomes,
 * has a chunk's writes and its marker, or neither. A chunk sent again to the new master
 * therefore never runs a second time: no command runs twice, whatever the failover. What
 * replication does not give is durability of what the old master acknowledged:
 * replication is asynchronous, and a chunk the old master ran and answered but had not
 * yet sent to its replica is lost with it, writes and marker alike. Its commands reported
 * {@link Outcome#SUCCESS}, and the new master does not have them; nothing can send them
 * again, as nothing knows they are missing. So after a master is killed, the counts on
 * the new master may fall short of the commands (never above them). They are exact only
 * when the failover is coordinated: writes paused on the old master, its replica caught
 * up, then the switch ({@code CLIENT PAUSE WRITE} and {@code SENTINEL FAILOVER} here, or
 * Redis's own {@code FAILOVER}). An application that needs acknowledged writes to survive
 * a master's crash calls {@code WAIT} after its batch.
 */
@BothPaths
class ExactlyOnceSentinelTests {

	private static final int PER_KIND = 1500;

	private RedisSentinels sentinels;

	private BatchConnectionPool pool;

	@BeforeEach
	void setUp() {
		this.sentinels = RedisSentinels.start(1);
		RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(RedisSentinels.MASTER_NAME);
		for (RedisProcess sentinel : this.sentinels.sentinels()) {
			uri.withSentinel(sentinel.host(), sentinel.port());
		}
		this.pool = BatchConnectionPool.builder(uri.build()).build();
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.sentinels.close();
	}

	@Test
	void aCoordinatedFailoverMidBatchLeavesEveryCommandRunOnceOnTheNewMaster() {
		RedisProcess first = this.sentinels.master();
		Run run = run((i) -> {
			if (i == 500) {
				// writes pause on the old master, its replica catches up, and the
				// sentinels promote it: the old master never runs another write
				first.call("CLIENT", "PAUSE", "60000", "WRITE");
				awaitCaughtUp(first, replicaOf(first));
				this.sentinels.sentinels().get(0).call("SENTINEL", "FAILOVER", RedisSentinels.MASTER_NAME);
			}
		});

		RedisProcess second = awaitNewMaster(first);
		assertThat(run.results.count(Outcome.UNKNOWN)).as(run.results.summary()).isZero();
		assertThat(run.results.failures()).as("failures").isEmpty();
		assertThat(second.call("GET", "counter")).isEqualTo(String.valueOf(PER_KIND));
		assertThat(second.call("LLEN", "list")).isEqualTo((long) PER_KIND);
		assertThat(second.call("XLEN", "stream")).isEqualTo((long) PER_KIND);
		assertThat((List<?>) second.call("LRANGE", "list", "0", "-1")).doesNotHaveDuplicates();
		// every INCR has its own reply: 1 to the last, each once
		assertThat(run.increments).extracting(Response::get).doesNotHaveDuplicates().hasSize(PER_KIND);
	}

	@Test
	void aMasterKilledMidBatchLosesWhatItHadNotReplicatedAndRunsNothingTwice() {
		RedisProcess first = this.sentinels.master();
		RedisProcess replica = replicaOf(first);
		// while the replica is frozen, values large enough that what the master
		// acknowledges cannot all wait in socket buffers: some is only in its memory
		String padding = "x".repeat(32 * 1024);
		Run run = run((i) -> (i >= 500 && i < 1000) ? i + padding : Integer.toString(i), (i) -> {
			if (i == 500) {
				// once the replica has every write so far, replication stops; the master
				// goes on acknowledging writes
				awaitCaughtUp(first, replica);
				replica.freeze();
			}
			if (i == 1000) {
				first.kill();
				replica.resume();
			}
		});

		RedisProcess second = awaitNewMaster(first);
		BatchResults results = run.results;
		assertThat(results.count(Outcome.UNKNOWN)).as(results.summary()).isZero();
		assertThat(results.failures()).as("failures").isEmpty();
		long counter = Long.parseLong(String.valueOf(second.call("GET", "counter")));
		long list = (Long) second.call("LLEN", "list");
		long stream = (Long) second.call("XLEN", "stream");
		// every command reported SUCCESS, yet what the old master ran while its replica
		// was frozen is lost, writes and markers alike: the counts fall short, by at
		// most what was recorded from a chunk before the freeze to the kill
		assertThat(counter).isLessThan(PER_KIND).isGreaterThanOrEqualTo(PER_KIND - 500 - 50);
		assertThat(list).isLessThan(PER_KIND).isGreaterThanOrEqualTo(PER_KIND - 500 - 50);
		assertThat(stream).isLessThan(PER_KIND).isGreaterThanOrEqualTo(PER_KIND - 500 - 50);
		// and nothing ran twice: each LPUSH pushed its own value, and what ran after the
		// failover ran once on the new master, the last INCR's reply being the counter
		assertThat((List<?>) second.call("LRANGE", "list", "0", "-1")).doesNotHaveDuplicates();
		assertThat(run.increments.get(PER_KIND - 1).get()).isEqualTo(counter);
		// the lost INCRs' replies came from the old master: the new master's counter went
		// back, and the INCRs after the failover answered some of the same values again
		assertThat(run.increments.stream().map(Response::get).distinct().count()).isLessThan(PER_KIND);
		System.out.printf("killed master: %d of %d commands of each kind on the new master; %s%n", counter, PER_KIND,
				results.summary());
	}

	@Test
	void chunksTheDemotedMasterRefusesAsReadOnlyGoToTheNewMasterOnceTheSentinelsNameIt() {
		RedisProcess first = this.sentinels.master();
		CompletableFuture<Void> sentinelsCatchUp = new CompletableFuture<>();
		Run run = run((i) -> {
			if (i == 500) {
				// Redis's own coordinated failover: writes pause, the replica catches up,
				// the roles swap, and the batch's connections to the old master stay open
				first.call("FAILOVER");
				await("the old master to become a replica").atMost(Duration.ofSeconds(10))
					.until(() -> "slave".equals(first.info("replication").get("role")));
				// the sentinels still name the old master until they are told
				sentinelsCatchUp.completeAsync(() -> {
					await("the sentinels to start a failover").atMost(Duration.ofSeconds(30))
						.ignoreExceptions()
						.until(() -> "OK".equals(this.sentinels.sentinels()
							.get(0)
							.call("SENTINEL", "FAILOVER", RedisSentinels.MASTER_NAME)));
					return null;
				});
			}
		});

		sentinelsCatchUp.join();
		RedisProcess second = awaitNewMaster(first);
		assertThat(run.results.count(Outcome.UNKNOWN)).as(run.results.summary()).isZero();
		assertThat(run.results.failures()).as("failures").isEmpty();
		assertThat(second.call("GET", "counter")).isEqualTo(String.valueOf(PER_KIND));
		assertThat(second.call("LLEN", "list")).isEqualTo((long) PER_KIND);
		assertThat(second.call("XLEN", "stream")).isEqualTo((long) PER_KIND);
		assertThat(run.increments).extracting(Response::get).doesNotHaveDuplicates().hasSize(PER_KIND);
	}

	private Run run(Consumer<Integer> before) {
		return run(Integer::toString, before);
	}

	private Run run(IntFunction<String> listValue, Consumer<Integer> before) {
		StringBatchTemplate template = new StringBatchTemplate(this.pool,
				BatchOptions.builder()
					.exactlyOnce(true)
					.chunkSize(50)
					.timeout(Duration.ofSeconds(1))
					.retry(10, Duration.ofSeconds(1))
					.build());
		List<Response<Long>> increments = new ArrayList<>();
		BatchResults results;
		try {
			results = template.execute((batch) -> {
				for (int i = 0; i < PER_KIND; i++) {
					before.accept(i);
					increments.add(batch.incr("counter"));
					batch.lpush("list", listValue.apply(i));
					batch.command("XADD", CommandReply.string(), "stream", "*", "i", Integer.toString(i));
				}
			});
		}
		catch (BatchException ex) {
			results = ex.getResults();
		}
		return new Run(results, increments);
	}

	private RedisProcess awaitNewMaster(RedisProcess old) {
		await("the sentinels to name the new master").atMost(Duration.ofSeconds(60))
			.until(() -> this.sentinels.master() != old
					&& "master".equals(this.sentinels.master().info("replication").get("role")));
		return this.sentinels.master();
	}

	private RedisProcess replicaOf(RedisProcess master) {
		Map<String, String> replication = master.info("replication");
		int port = Integer.parseInt(replication.get("slave0").replaceAll(".*port=(\\d+).*", "$1"));
		return this.sentinels.servers().stream().filter((server) -> server.port() == port).findFirst().orElseThrow();
	}

	private static void awaitCaughtUp(RedisProcess master, RedisProcess replica) {
		await("the replica to catch up").atMost(Duration.ofSeconds(10))
			.until(() -> offset(master.info("replication").get("master_repl_offset")) == offset(
					replica.info("replication").get("slave_repl_offset")));
	}

	private static long offset(String value) {
		return (value != null) ? Long.parseLong(value) : -1;
	}

	private record Run(BatchResults results, List<Response<Long>> increments) {
	}

}
