package dev.redisbatch;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisSentinels;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Batches through Redis Sentinel go to the current master, and after a failover the next
 * batches reach the new one.
 */
@BothPaths
@EveryLine
class SentinelTests {

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
	void batchesReachTheMasterAndAfterAFailoverTheNewOne() {
		StringBatchTemplate template = new StringBatchTemplate(this.pool);
		RedisProcess first = this.sentinels.master();

		template.setAll(entries("before"), Duration.ofHours(1));
		assertThat(first.call("GET", "before:0")).isEqualTo("value-0");
		assertThat(this.pool.topology()).isEqualTo(BatchConnectionPool.Topology.SENTINEL);
		// the replica has every write before the master dies
		assertThat(first.call("WAIT", "1", "5000")).isEqualTo(1L);

		RedisProcess second = this.sentinels.killMasterAndAwaitFailover();

		assertThat(second).isNotSameAs(first);
		template.setAll(entries("after"), Duration.ofHours(1));
		assertThat(second.call("GET", "after:999")).isEqualTo("value-999");
		assertThat(template.getAll(List.of("before:0", "after:0"))).containsExactly("value-0", "value-0");
		assertThat(this.pool.getActive()).isZero();
	}

	private static Map<String, String> entries(String prefix) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < 1000; i++) {
			entries.put(prefix + ":" + i, "value-" + i);
		}
		return entries;
	}

}
