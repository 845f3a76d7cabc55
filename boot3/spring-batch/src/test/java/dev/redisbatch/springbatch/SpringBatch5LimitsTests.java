package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.JobExecution;
import org.springframework.batch.core.JobParametersBuilder;
import org.springframework.batch.core.SkipListener;
import org.springframework.batch.core.Step;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What does not hold on Spring Batch 5.2, as the compatibility table says, and how it
 * fails safe. Spring Batch 5.2 writes the items of a failed chunk again, one by one,
 * without updating the step's streams in between as Spring Batch 6.0.6 does: a writer
 * whose mapper is not idempotent cannot tell which items of a failed chunk ran, so it
 * refuses to write them, the step fails with its sentence, and no command runs twice;
 * each item written alone is a new batch, so the exactly-once mode changes nothing there.
 * A restart after a chunk whose outcomes were lost is refused the same way without the
 * exactly-once mode. (With an idempotent mapper, retries and restarts work as on Spring
 * Batch 6, and so does the restart of an exactly-once writer:
 * {@code RedisBatchItemWriterExactlyOnceTests}.)
 */
class SpringBatch5LimitsTests {

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@ParameterizedTest(name = "exactly-once: {0}")
	@ValueSource(booleans = { false, true })
	void anItemRedisRefusesFailsTheStepInsteadOfBeingSkippedAndNoCommandRunsTwice(boolean exactlyOnce) {
		RedisProcess server = track(RedisProcess.start());
		StringBatchTemplate template = template(server);
		Jobs jobs = track(Jobs.inMemory());
		server.call("SET", "tags:odd", "a string, so SADD answers WRONGTYPE");
		RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
			batch.incr("visits:" + id);
			batch.sadd((id % 10 == 3) ? "tags:odd" : "tags:even", "member-" + id);
		};
		List<Integer> skipped = new CopyOnWriteArrayList<>();
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter.builder(template, mapper)
			.name("visits")
			.exactlyOnce(exactlyOnce)
			.build();
		Step step = new StepBuilder("visits", jobs.repository()).<Integer, Integer>chunk(25)
			.reader(new IdReader(200))
			.writer(writer)
			.transactionManager(jobs.transactionManager())
			.faultTolerant()
			.skip(ItemFailedException.class)
			.skipLimit(100)
			.listener(new SkipListener<Integer, Integer>() {

				@Override
				public void onSkipInWrite(Integer item, Throwable failure) {
					skipped.add(item);
				}

			})
			.build();

		JobExecution execution = jobs.start(new JobBuilder("visits", jobs.repository()).start(step).build(),
				new JobParametersBuilder().toJobParameters());

		assertThat(execution.getStatus()).isEqualTo(BatchStatus.FAILED);
		assertThat(execution.getAllFailureExceptions()).anySatisfy((failure) -> assertThat(failure)
			.hasStackTraceContaining("is not the item the writer 'visits' wrote at that position"));
		assertThat(skipped).isEmpty();
		assertThat(template.getAll(IntStream.range(0, 200).mapToObj((id) -> "visits:" + id).toList()))
			.as("no INCR ran twice")
			.allSatisfy((counter) -> assertThat(counter).isIn(null, "1"));
	}

	@Test
	void withoutExactlyOnceARestartAfterAChunkWithUnknownOutcomesFailsInsteadOfRunningACommandTwice() {
		RedisProcess server = track(RedisProcess.start("--appendonly", "yes", "--appendfsync", "always"));
		StringBatchTemplate template = template(server);
		Jobs jobs = track(Jobs.inMemory());
		AtomicBoolean killed = new AtomicBoolean();
		RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
			if (id == 2_550 && killed.compareAndSet(false, true)) {
				server.kill();
			}
			batch.incr("visits:" + id);
		};
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter.builder(template, mapper)
			.name("visits")
			.options(BatchOptions.builder().chunkSize(50).build())
			.appliedCheck((batch, id) -> batch.exists("visits:" + id))
			.build();
		Step step = new StepBuilder("write", jobs.repository()).<Integer, Integer>chunk(1_000)
			.reader(new IdReader(5_000))
			.writer(writer)
			.transactionManager(jobs.transactionManager())
			.faultTolerant()
			.retry(ItemNotSentException.class)
			.retryLimit(2)
			.build();
		var job = new JobBuilder("write", jobs.repository()).start(step).build();
		JobExecution first = jobs.start(job, new JobParametersBuilder().toJobParameters());
		assertThat(first.getStatus()).isEqualTo(BatchStatus.FAILED);
		server.restart();

		JobExecution second = jobs.restart(job, first);

		assertThat(second.getStatus()).isEqualTo(BatchStatus.FAILED);
		assertThat(second.getAllFailureExceptions()).anySatisfy((failure) -> assertThat(failure)
			.hasStackTraceContaining("is not the item the writer 'visits' wrote at that position"));
		assertThat(template.getAll(IntStream.range(0, 5_000).mapToObj((id) -> "visits:" + id).toList()))
			.as("no INCR ran twice")
			.allSatisfy((counter) -> assertThat(counter).isIn(null, "1"));
	}

	private StringBatchTemplate template(RedisProcess server) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + server.port())).build());
		return new StringBatchTemplate(pool, BatchOptions.builder().timeout(Duration.ofSeconds(2)).build());
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
