package dev.redisbatch.springbatch.docs;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.Jobs;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.infrastructure.item.support.ListItemReader;
import org.springframework.core.io.FileSystemResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jobs of docs/spring-batch.md, run for real with Spring Batch's resourceless job
 * repository: a million rows loaded into Redis, and keys matching a pattern exported to a
 * file.
 */
@ExtendWith(RedisServerExtension.class)
class ExampleJobsTests {

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	private final Jobs jobs = Jobs.resourceless();

	@BeforeEach
	void setUp(RedisProcess server) throws Exception {
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + server.port())).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	@Timeout(300)
	void aMillionRowLoadWritesExactlyAMillionKeysWithTheirTtls(RedisProcess server, @TempDir Path directory)
			throws Exception {
		Path csv = directory.resolve("orders.csv");
		try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
			for (int id = 0; id < 1_000_000; id++) {
				out.write(id + ",{\"id\":" + id + "}\n");
			}
		}

		JobExecution execution = this.jobs.start(LoadOrdersJob.loadOrders(this.jobs.repository(),
				this.jobs.transactionManager(), this.template, new FileSystemResource(csv)),
				new JobParametersBuilder().toJobParameters());

		assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		assertThat(execution.getStepExecutions().iterator().next().getWriteCount()).isEqualTo(1_000_000);
		assertThat(server.info("keyspace").get("db0")).startsWith("keys=1000000,expires=1000000,");
		assertThat(server.call("GET", "order:999999")).isEqualTo("{\"id\":999999}");
		assertThat((Long) server.call("PTTL", "order:0")).isBetween(1L, 3_600_000L);
	}

	@Test
	void theExactlyOnceJobCountsEachVisitOnce(RedisProcess server) {
		List<CountVisitsJob.Visit> visits = IntStream.range(0, 2_500)
			.mapToObj((visit) -> new CountVisitsJob.Visit("page-" + (visit % 10), "visitor-" + visit))
			.toList();

		JobExecution execution = this.jobs.start(CountVisitsJob.countVisits(this.jobs.repository(),
				this.jobs.transactionManager(), this.template, new ListItemReader<>(visits)),
				new JobParametersBuilder().toJobParameters());

		assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		for (int page = 0; page < 10; page++) {
			assertThat(server.call("GET", "visits:page-" + page)).isEqualTo("250");
			assertThat(server.call("LLEN", "visitors:page-" + page)).isEqualTo(250L);
		}
	}

	@Test
	void anExportWritesEveryMatchingStringKeyToAFile(RedisProcess server, @TempDir Path directory) throws Exception {
		for (int id = 0; id < 5_000; id++) {
			this.template.setAll(Map.of("order:" + id, "{\"id\":" + id + "}"), null);
		}
		server.call("SET", "customer:1", "not exported");
		server.call("HSET", "order:hash", "field", "not a string, not exported");
		Path file = directory.resolve("orders.tsv");

		JobExecution execution = this.jobs.start(ExportOrdersJob.exportOrders(this.jobs.repository(),
				this.jobs.transactionManager(), this.template, new FileSystemResource(file)),
				new JobParametersBuilder().toJobParameters());

		assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		Set<String> unique = new HashSet<>(lines);
		assertThat(unique).hasSize(5_000).contains("order:42\t{\"id\":42}");
		assertThat(unique).allMatch((line) -> line.startsWith("order:") && !line.startsWith("order:hash"));
	}

}
