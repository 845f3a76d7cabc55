package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.listener.SkipListener;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The item-by-item skip of items Redis refused, which relies on the chunk scan as Spring
 * Batch 6.0.6 runs it (Spring Batch 5.2 refuses it: {@code SpringBatch5LimitsTests} in
 * {@code redis-batch-spring-batch5}): in a real job, refused items reach skip listeners
 * with the Redis error, and no command that is not idempotent runs twice, counted on the
 * server.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchItemWriterSkipTests {

	@ParameterizedTest(name = "exactly-once: {0}")
	@ValueSource(booleans = { false, true })
	void skipListenersReceiveRefusedItemsWithTheRedisErrorAndNoCommandRunsTwice(boolean exactlyOnce,
			RedisProcess server) {
		try (Jobs jobs = Jobs.inMemory();
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + server.port()))
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool,
					BatchOptions.builder().timeout(Duration.ofSeconds(10)).build());
			server.call("SET", "tags:odd", "a string, so SADD answers WRONGTYPE");
			RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
				batch.incr("visits:" + id);
				batch.sadd((id % 10 == 3) ? "tags:odd" : "tags:even", "member-" + id);
			};
			List<Integer> skipped = new CopyOnWriteArrayList<>();
			List<Throwable> errors = new CopyOnWriteArrayList<>();
			SkipListener<Integer, Integer> listener = new SkipListener<>() {

				@Override
				public void onSkipInWrite(Integer item, Throwable failure) {
					skipped.add(item);
					errors.add(failure);
				}

			};
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
				.skipListener(listener)
				.build();

			JobExecution execution = jobs.start(new JobBuilder("visits", jobs.repository()).start(step).build());

			assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
			List<Integer> refused = IntStream.range(0, 200).filter((id) -> id % 10 == 3).boxed().toList();
			assertThat(skipped).containsExactlyElementsOf(refused);
			assertThat(errors).allSatisfy((error) -> assertThat(error).isInstanceOf(ItemFailedException.class)
				.hasMessageContaining("SADD: WRONGTYPE")
				.hasMessageNotContaining("tags:")
				.hasMessageNotContaining("member-"));
			StepExecution stepExecution = execution.getStepExecutions().iterator().next();
			assertThat(stepExecution.getWriteSkipCount()).isEqualTo(20);
			assertThat(stepExecution.getWriteCount()).isEqualTo(180);
			assertThat(stepExecution.getRollbackCount()).as("the failed chunks were scanned item by item").isPositive();
			// each INCR ran exactly once: the scan wrote every item of the failed chunks
			// again
			assertThat(RedisBatchItemWriterFaultToleranceTests.counters(template, 200)).containsOnly("1");
			assertThat(server.call("SCARD", "tags:even")).isEqualTo(180L);
			assertThat(stepExecution.getExecutionContext().containsKey("visits.ledger")).isFalse();
		}
	}

}
