package dev.redisbatch.springbatch;

import java.time.Duration;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisBatchItemWriter} in a job on a Redis Cluster of 3 masters: each chunk's
 * commands go to the masters of their slots, and every key lands with its TTL.
 */
@ExtendWith(RedisClusterExtension.class)
@EveryLine
class RedisBatchItemWriterClusterTests {

	@Test
	void aJobWritesEveryItemToTheMasterOfItsSlot(RedisCluster cluster) {
		try (Jobs jobs = Jobs.inMemory();
				BatchConnectionPool pool = BatchConnectionPool
					.clusterBuilder(cluster.uris().stream().map(RedisURI::create).toList())
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool);
			RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter
				.builder(template,
						RedisItemMappers.value((Integer id) -> "order:" + id, (id) -> "v" + id, Duration.ofHours(1)))
				.name("orders")
				.build();
			var step = new StepBuilder("orders", jobs.repository()).<Integer, Integer>chunk(1_000)
				.reader(new IdReader(20_000))
				.writer(writer)
				.transactionManager(jobs.transactionManager())
				.build();

			var execution = jobs.start(new JobBuilder("orders", jobs.repository()).start(step).build());

			assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
			long keys = 0;
			long expires = 0;
			for (RedisProcess master : cluster.masters()) {
				String db0 = master.info("keyspace").get("db0");
				assertThat(db0).as("keys on master %d", master.port()).isNotNull();
				keys += Long.parseLong(db0.replaceAll("keys=(\\d+),.*", "$1"));
				expires += Long.parseLong(db0.replaceAll(".*expires=(\\d+),.*", "$1"));
			}
			assertThat(keys).isEqualTo(20_000);
			assertThat(expires).isEqualTo(20_000);
			assertThat(cluster.call("order:19999", "GET", "order:19999")).isEqualTo("v19999");
		}
	}

}
