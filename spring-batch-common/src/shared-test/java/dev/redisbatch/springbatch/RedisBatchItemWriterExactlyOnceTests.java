package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exactly-once {@link RedisBatchItemWriter} whose mapper is not idempotent
 * ({@code INCR} and {@code LPUSH} per item) and has no {@link AppliedCheck}, in real jobs
 * whose Redis server is killed ({@code SIGKILL}) in the middle of a chunk, while commands
 * are in flight, so that the chunk's outcomes are lost: written again, on a retry or on a
 * restart of the failed step, the chunk is the same batch, its markers answer for the
 * commands that ran, and no command runs twice, counted on the server. The server keeps
 * an append-only file, so what it ran survives the kill, markers included.
 */
@EveryLine
class RedisBatchItemWriterExactlyOnceTests {

	private static final int ITEMS = 5_000;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private RedisProcess server;

	private StringBatchTemplate template;

	private Jobs jobs;

	@BeforeEach
	void setUp() {
		this.server = track(RedisProcess.start("--appendonly", "yes", "--appendfsync", "always"));
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + this.server.port())).build());
		this.template = new StringBatchTemplate(pool, BatchOptions.builder().timeout(Duration.ofSeconds(2)).build());
		this.jobs = track(Jobs.inMemory());
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void aRestartAfterAChunkWhoseOutcomesWereLostRunsEveryCommandOnce() {
		AtomicBoolean killed = new AtomicBoolean();
		RedisBatchItemWriter<String, String, Integer> writer = writer((id) -> {
			if (id == 2_550 && killed.compareAndSet(false, true)) {
				this.server.kill();
			}
		});
		var job = new JobBuilder("write", this.jobs.repository()).start(
				new StepBuilder("write", this.jobs.repository()).<Integer, Integer>chunk(1_000)
					.reader(new IdReader(ITEMS))
					.writer(writer)
					.transactionManager(this.jobs.transactionManager())
					.faultTolerant()
					.retry(ItemNotSentException.class)
					.retryLimit(2)
					.build())
			.build();

		var first = this.jobs.start(job);

		assertThat(first.getStatus()).isEqualTo(BatchStatus.FAILED);
		assertThat(first.getAllFailureExceptions())
			.noneSatisfy((failure) -> assertThat(failure).hasStackTraceContaining("ItemOutcomeUnknownException"));
		this.server.restart();

		var second = this.jobs.restart(job, first);

		assertThat(second.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		assertThat(second.getStepExecutions().iterator().next().getReadCount()).as("resumed at the last commit")
			.isEqualTo(ITEMS - 2_000);
		assertEveryCommandRanOnce();
	}

	@Test
	void aRetryAfterAChunkWhoseOutcomesWereLostRunsEveryCommandOnce() {
		AtomicBoolean killed = new AtomicBoolean();
		AtomicBoolean restarted = new AtomicBoolean();
		RedisBatchItemWriter<String, String, Integer> writer = writer((id) -> {
			if (id == 2_550 && killed.compareAndSet(false, true)) {
				this.server.kill();
			}
			else if (id == 2_000 && killed.get() && restarted.compareAndSet(false, true)) {
				// the chunk is written again: the server is back for it
				this.server.restart();
			}
		});

		var job = new JobBuilder("write", this.jobs.repository()).start(
				new StepBuilder("write", this.jobs.repository()).<Integer, Integer>chunk(1_000)
					.reader(new IdReader(ITEMS))
					.writer(writer)
					.transactionManager(this.jobs.transactionManager())
					.faultTolerant()
					.retry(ItemNotSentException.class)
					.retryLimit(2)
					.build())
			.build();

		var execution = this.jobs.start(job);

		assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		assertThat(restarted).as("the chunk was written again").isTrue();
		assertEveryCommandRanOnce();
	}

	private void assertEveryCommandRanOnce() {
		assertThat(RedisBatchItemWriterFaultToleranceTests.counters(this.template, ITEMS)).containsOnly("1");
		assertThat(IntStream.range(0, ITEMS / 100).mapToObj((list) -> this.server.call("LLEN", "log:" + list)))
			.containsOnly(100L);
	}

	/**
	 * An exactly-once writer whose mapper first calls the given hook with the item.
	 */
	private RedisBatchItemWriter<String, String, Integer> writer(IntConsumer hook) {
		RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
			hook.accept(id);
			batch.incr("visits:" + id);
			batch.lpush("log:" + (id / 100), "visit-" + id);
		};
		return RedisBatchItemWriter.builder(this.template, mapper)
			.name("visits")
			.options(BatchOptions.builder().chunkSize(50).exactlyOnce(true).build())
			.build();
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
