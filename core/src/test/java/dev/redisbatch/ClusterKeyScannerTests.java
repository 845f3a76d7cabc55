package dev.redisbatch;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BatchTemplate#scanKeys} on a Redis Cluster of 3 masters and 3 replicas: every
 * master is scanned (never a replica), the cursor holds one position per master keyed by
 * its lowest slot, and a scan resumed from its token misses no key.
 */
@ExtendWith(RedisClusterExtension.class)
@EveryLine
class ClusterKeyScannerTests {

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
	void everyKeyOfEveryMasterIsReturnedWithMatchCountAndType(RedisCluster cluster) {
		Set<String> strings = write("string:", 4_000);
		for (int i = 0; i < 200; i++) {
			String key = "set:" + i;
			cluster.call(key, "SADD", key, "member");
		}
		for (RedisProcess master : cluster.masters()) {
			assertThat((Long) master.call("DBSIZE")).as("keys on master %d", master.port()).isPositive();
		}

		Set<String> all = KeyScannerTests
			.scanAll(this.template.scanKeys(ScanOptions.scanOptions().count(200).build(), null));
		Set<String> matching = KeyScannerTests
			.scanAll(this.template.scanKeys(ScanOptions.scanOptions().match("string:1*").build(), null));
		Set<String> sets = KeyScannerTests
			.scanAll(this.template.scanKeys(ScanOptions.scanOptions().type(DataType.SET).build(), null));

		assertThat(all).hasSize(4_200).containsAll(strings);
		assertThat(matching).isNotEmpty().allMatch((key) -> key.startsWith("string:1"));
		assertThat(matching).hasSize((int) strings.stream().filter((key) -> key.startsWith("string:1")).count());
		assertThat(sets).hasSize(200).allMatch((key) -> key.startsWith("set:"));
	}

	@Test
	void theCursorHasAPositionPerMasterAndAResumedScanMissesNoKey(RedisCluster cluster) {
		Set<String> all = write("item:", 6_000);
		ScanOptions options = ScanOptions.scanOptions().count(100).build();
		KeyScanner<String> first = this.template.scanKeys(options, null);
		Set<String> seen = new HashSet<>();
		// past the first master (about 2,000 keys at about 100 a page) into the second
		while (first.cursor().isFinished(0) == false || seen.size() < 2_500) {
			seen.addAll(first.next());
		}
		String token = first.cursor().toToken();
		assertThat(token).startsWith("scan1:0=done,");

		BatchConnectionPool otherPool = BatchConnectionPool
			.clusterBuilder(cluster.uris().stream().map(RedisURI::create).toList())
			.build();
		try {
			Set<String> rest = KeyScannerTests
				.scanAll(new StringBatchTemplate(otherPool).scanKeys(options, ScanCursor.fromToken(token)));
			assertThat(rest).isNotEmpty().doesNotContainAnyElementsOf(seen);
			Set<String> union = new HashSet<>(seen);
			union.addAll(rest);
			assertThat(union).isEqualTo(all);
		}
		finally {
			otherPool.close();
		}
	}

	private Set<String> write(String prefix, int count) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < count; i++) {
			entries.put(prefix + i, "v");
		}
		this.template.setAll(entries, null);
		return entries.keySet();
	}

}
