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
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;
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
		var step = new StepBuilder("export", this.jobs.repository())
			.<RedisKeyValue<String, String>, RedisKeyValue<String, String>>chunk(500)
			.reader(reader)
			.writer((chunk) -> {
				if (chunks.incrementAndGet() == 9) {
					throw new IllegalStateException("the first run fails at its 9th chunk");
				}
				for (RedisKeyValue<String, String> item : chunk) {
					assertThat(item.value()).isEqualTo("value-" + item.key().substring("item:".length()));
					written.add(item.key());
				}
			})
			.transactionManager(this.jobs.transactionManager())
			.build();
		var job = new JobBuilder("export", this.jobs.repository()).start(step).build();

		var first = this.jobs.start(job);
		var firstStep = first.getStepExecutions().iterator().next();
		var second = this.jobs.restart(job, first);

		return new Runs(first.getStatus(), firstStep.getWriteCount(),
				firstStep.getExecutionContext().getString("items.cursor"), second.getStatus(),
				second.getStepExecutions().iterator().next().getReadCount(), written, entries.keySet());
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	/**
	 * What the two runs did.
	 */
	private record Runs(BatchStatus firstStatus, long firstWrites, String savedCursor, BatchStatus secondStatus,
			long secondReads, Set<String> written, Set<String> expected) {

		void assertResumedAndComplete() {
			assertThat(this.firstStatus).isEqualTo(BatchStatus.FAILED);
			assertThat(this.firstWrites).isEqualTo(4_000);
			assertThat(this.secondStatus).isEqualTo(BatchStatus.COMPLETED);
			long reread = this.secondReads - (KEYS - 4_000);
			// the restart reads again at most the pages that were not fully handed out
			// at the last commit (SCAN pages hold about COUNT keys), never everything
			assertThat(reread).isBetween(0L, 1_000L);
			assertThat(this.written).isEqualTo(this.expected);
		}

	}

}
