package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

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
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose writer's mapper is not idempotent ({@code INCR}) and whose Redis server is
 * killed ({@code SIGKILL}) in the middle of a chunk, while commands are in flight, fails;
 * restarted once the server is back (with its append-only file, so that what it
 * acknowledged survives), it completes: no item lost, and no command applied twice,
 * counted on the server. The restart relies on Spring Batch 6.0.6 updating the step's
 * streams between the failed chunk and the restart (Spring Batch 5.2 refuses it:
 * {@code SpringBatch5LimitsTests} in {@code redis-batch-spring-batch5}); the restart of
 * an idempotent mapper holds on every line ({@code RedisBatchItemWriterRestartTests}).
 */
@EveryLine
class RedisBatchItemWriterCounterRestartTests {

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
	void countersIncrementedOncePerItemAreAllOneAfterAKillAndARestart() {
		AtomicBoolean killed = new AtomicBoolean();
		RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
			killOnce(id, killed);
			batch.incr("visits:" + id);
		};
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter.builder(this.template, mapper)
			.name("visits")
			.options(BatchOptions.builder().chunkSize(50).build())
			.appliedCheck((batch, id) -> batch.exists("visits:" + id))
			.build();
		Job job = job(writer);

		JobExecution first = this.jobs.start(job);

		assertThat(first.getStatus()).isEqualTo(BatchStatus.FAILED);
		StepExecution failedStep = first.getStepExecutions().iterator().next();
		assertThat(failedStep.getWriteCount()).isEqualTo(2_000);
		assertThat(failedStep.getExecutionContext().getString("visits.ledger"))
			.as("the outcomes of the failed chunk's items are saved for the restart")
			.startsWith("l1:");
		this.server.restart();
		assertThat(this.server.call("GET", "visits:1999")).as("the append-only file kept the committed chunks")
			.isEqualTo("1");

		JobExecution second = this.jobs.restart(job, first);

		assertThat(second.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		assertThat(second.getStepExecutions().iterator().next().getReadCount()).as("resumed at the last commit")
			.isEqualTo(ITEMS - 2_000);
		assertThat(RedisBatchItemWriterFaultToleranceTests.counters(this.template, ITEMS)).containsOnly("1");
		assertThat(this.server.call("DBSIZE")).isEqualTo((long) ITEMS);
	}

	/**
	 * Kill the server while the writer records the middle of the third chunk: earlier
	 * commands of the chunk are in flight or answered, later ones cannot be sent.
	 */
	private void killOnce(int id, AtomicBoolean killed) {
		if (id == 2_550 && killed.compareAndSet(false, true)) {
			this.server.kill();
		}
	}

	private Job job(RedisBatchItemWriter<String, String, Integer> writer) {
		Step step = new StepBuilder("write", this.jobs.repository()).<Integer, Integer>chunk(1_000)
			.reader(new IdReader(ITEMS))
			.writer(writer)
			.transactionManager(this.jobs.transactionManager())
			.faultTolerant()
			.retry(ItemNotSentException.class)
			.retryLimit(2)
			.build();
		return new JobBuilder("write", this.jobs.repository()).start(step).build();
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
