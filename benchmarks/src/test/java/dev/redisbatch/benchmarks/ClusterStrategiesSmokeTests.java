package dev.redisbatch.benchmarks;

import dev.redisbatch.testsupport.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every cluster strategy once at a tiny size against a local Redis Cluster, so that
 * the cluster benchmark cannot rot. Nothing is timed.
 */
class ClusterStrategiesSmokeTests {

	private static RedisCluster cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start(3, 0);
		System.setProperty(BenchmarkEnvironment.CLUSTER,
				String.join(",", cluster.nodes().stream().map((node) -> Integer.toString(node.port())).toList()));
	}

	@AfterAll
	static void stopCluster() {
		System.clearProperty(BenchmarkEnvironment.CLUSTER);
		cluster.close();
	}

	static java.util.List<String> strategies() {
		return Strategies.clusterIds();
	}

	@ParameterizedTest
	@MethodSource("strategies")
	void everyClusterStrategyReachesEveryMasterAndChecksItsReplies(String id) {
		Workload workload = Workload.create(300, 7);
		cluster.flushAll();
		try (Strategy strategy = Strategies.create(id,
				BenchmarkEnvironment.endpoint(BenchmarkEnvironment.CLUSTER_NETWORK))) {
			assertThat(strategy.set(workload)).isEqualTo(300);
			assertThat(cluster.masters()).allSatisfy((master) -> assertThat((Long) master.call("DBSIZE")).isPositive());
			String key = workload.keys()[0];
			assertThat(cluster.call(key, "GET", key)).isEqualTo(workload.values()[0]);
			assertThat(strategy.get(workload)).isEqualTo(300);
			assertThat(strategy.mixed(workload)).isEqualTo(workload.mixedCommands());
		}
	}

}
