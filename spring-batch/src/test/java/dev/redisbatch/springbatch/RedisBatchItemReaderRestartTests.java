package dev.redisbatch.springbatch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisCluster;
import dev.redisbatch.testsupport.RedisClusterExtension;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ItemWriter;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisBatchItemReader} in a real job that fails half-way and is restarted: the
 * restart resumes from the scan cursors saved at the last commit (it does not read
 * everything again), and every key is read, on a standalone server and on a Redis Cluster
 * of 3 masters.
 */
@EveryLine
class RedisBatchItemReaderRestartTests {

	private static final int KEYS = 10_000;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private Jobs jobs;

	@BeforeEach
	void setUp() {
		this.jobs = track(Jobs.inMemory());
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void aRestartOnAStandaloneServerResumesFromTheSavedCursor() {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + server.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);

		Runs runs = failAndRestart(template);

		assertThat(runs.savedCursor()).startsWith("scan1:server=");
		runs.assertResumedAndComplete();
	}

	@Test
	void aRestartOnAClusterResumesFromTheSavedCursorOfEveryMaster() {
		RedisCluster cluster = track(RedisCluster.start(3, 0));
		BatchConnectionPool pool = track(
				BatchConnectionPool.clusterBuilder(cluster.uris().stream().map(RedisURI::create).toList()).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);

		Runs runs = failAndRestart(template);

		assertThat(runs.savedCursor()).matches("scan1:0=[0-9]+|scan1:0=done,.*");
		runs.assertResumedAndComplete();
	}

	private Runs failAndRestart(StringBatchTemplate template) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < KEYS; i++) {
			entries.put("item:" + i, "value-" + i);
		}
		template.setAll(entries, null);
		template.setAll(Map.of("other:1", "x", "other:2", "y"), null);
		RedisBatchItemReader<String, String, String> reader = RedisBatchItemReader
			.builder(template, KeyFetcher.<String, String>get())
			.name("items")
			.scanOptions(ScanOptions.scanOptions().match("item:*").count(100).build())
			.build();
		Set<String> written = new HashSet<>();
		AtomicInteger chunks = new AtomicInteger();
		ItemWriter<RedisKeyValue<String, String>> writer = (chunk) -> {
			if (chunks.incrementAndGet() == 9) {
				throw new IllegalStateException("the first run fails at its 9th chunk");
			}
			for (RedisKeyValue<String, String> item : chunk) {
				assertThat(item.value()).isEqualTo("value-" + item.key().substring("item:".length()));
				written.add(item.key());
			}
		};
		Step step = new StepBuilder("export", this.jobs.repository())
			.<RedisKeyValue<String, String>, RedisKeyValue<String, String>>chunk(500)
			.reader(reader)
			.writer(writer)
			.transactionManager(this.jobs.transactionManager())
			.build();
		Job job = new JobBuilder("export", this.jobs.repository()).start(step).build();

		JobExecution first = this.jobs.start(job, new JobParametersBuilder().toJobParameters());
		JobExecution second = this.jobs.restart(job, first);

		return new Runs(first, second, written, entries.keySet());
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	private record Runs(JobExecution first, JobExecution second, Set<String> written, Set<String> expected) {

		String savedCursor() {
			return step(this.first).getExecutionContext().getString("items.cursor");
		}

		void assertResumedAndComplete() {
			assertThat(this.first.getStatus()).isEqualTo(BatchStatus.FAILED);
			assertThat(step(this.first).getWriteCount()).isEqualTo(4_000);
			assertThat(this.second.getStatus()).isEqualTo(BatchStatus.COMPLETED);
			long reread = step(this.second).getReadCount() - (KEYS - 4_000);
			// the restart reads again at most the pages that were not fully handed out
			// at the last commit (SCAN pages hold about COUNT keys), never everything
			assertThat(reread).isBetween(0L, 1_000L);
			assertThat(this.written).isEqualTo(this.expected);
		}

		private static StepExecution step(JobExecution execution) {
			return execution.getStepExecutions().iterator().next();
		}

	}

}
