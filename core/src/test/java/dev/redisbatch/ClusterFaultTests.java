package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A master of a cluster dies in the middle of a batch: its commands in flight are
 * {@link Outcome#UNKNOWN} and its unsent ones {@link Outcome#NOT_SENT}, the other masters
 * are unaffected, the counts add up, and once a replica has taken over the next batch
 * succeeds. The cluster is the test's own, since it loses a node.
 */
@LeakDetection
@BothPaths
class ClusterFaultTests {

	private RedisCluster cluster;

	private BatchConnectionPool pool;

	@BeforeEach
	void setUp() {
		this.cluster = RedisCluster.start(3, 1);
		this.pool = BatchConnectionPool.clusterBuilder(this.cluster.uris().stream().map(RedisURI::create).toList())
			.build();
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.cluster.close();
	}

	@Test
	void aMasterKilledMidBatchAffectsOnlyItsOwnCommandsAndTheNextBatchReachesItsReplica() {
		StringBatchTemplate template = new StringBatchTemplate(this.pool, BatchOptions.builder().chunkSize(50).build());
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 3000; i++) {
			keys.add("counter:" + i);
		}
		RedisProcess victim = this.cluster.masterOf(keys.get(0));
		Set<Integer> victimSlots = this.cluster.slotsOf(victim);
		List<Response<Long>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			for (String key : keys.subList(0, 1500)) {
				responses.add(batch.incr(key));
			}
			victim.kill();
			for (String key : keys.subList(1500, 3000)) {
				responses.add(batch.incr(key));
			}
		}));

		BatchResults results = failure.getResults();
		assertThat(results.size()).isEqualTo(3000);
		assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN) + results.count(Outcome.NOT_SENT))
			.isEqualTo(3000);
		assertThat(results.count(Outcome.FAILED)).isZero();
		// The victim's commands recorded after the kill end UNKNOWN when their chunk was
		// written before the client saw the connection close, NOT_SENT after: how many of
		// each depends on when the event loop sees it, so only their sum is certain.
		assertThat(results.count(Outcome.NOT_SENT) + results.count(Outcome.UNKNOWN)).isPositive();
		assertThat(results.abortReason()).contains(":" + victim.port());
		for (int i = 0; i < keys.size(); i++) {
			boolean onVictim = victimSlots.contains(this.cluster.slot(keys.get(i)));
			if (!onVictim) {
				assertThat(responses.get(i).outcome()).as("%s on a surviving master", keys.get(i))
					.isEqualTo(Outcome.SUCCESS);
				assertThat(responses.get(i).get()).isEqualTo(1L);
			}
			else if (i >= 1500) {
				assertThat(responses.get(i).outcome()).as("%s recorded after the kill", keys.get(i))
					.isIn(Outcome.UNKNOWN, Outcome.NOT_SENT);
			}
		}

		RedisProcess replica = this.cluster.awaitFailover(victim, victimSlots);

		BatchResults after = template.execute((batch) -> keys.forEach(batch::incr));
		assertThat(after.count(Outcome.SUCCESS)).isEqualTo(3000);
		assertThat(this.cluster.masterOf(keys.get(0))).isSameAs(replica);
		assertThat(replica.call("GET", keys.get(0))).isIn("1", "2");
		assertThat(this.pool.getActive()).isZero();
	}

}
