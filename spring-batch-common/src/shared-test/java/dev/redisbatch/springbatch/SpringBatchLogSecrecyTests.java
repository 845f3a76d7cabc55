package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.CapturedOutput;
import dev.redisbatch.testsupport.OutputCaptureExtension;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import dev.redisbatch.testsupport.TestSecrets;
import io.lettuce.core.RedisURI;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.annotation.OnSkipInWrite;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Keys and values never reach the logs of a job: items refused by Redis and skipped, and
 * a chunk that fails because replies were lost, with marked secrets as keys and values
 * and Spring Batch logging its failures as it does. The build also scans the whole test
 * run's output for the marker.
 */
@ExtendWith({ RedisServerExtension.class, OutputCaptureExtension.class })
class SpringBatchLogSecrecyTests {

	private static final Log logger = LogFactory.getLog(SpringBatchLogSecrecyTests.class);

	@Test
	void skippedAndFailedChunksLogNoKeyAndNoValue(RedisProcess server, CapturedOutput output) {
		assumeTrue(Jobs.SKIPS_REFUSED_ITEMS_OF_ANY_MAPPER,
				"Spring Batch 5.2 skips no item of this job: its mapper is not idempotent, so the writer refuses the "
						+ "item-by-item scan of the first chunk with a refused item, and the step fails there, before "
						+ "any item is skipped and before the replies of a later chunk are lost (SpringBatch5LimitsTests "
						+ "tests that failure); this test needs both in the log");
		server.call("SET", TestSecrets.key("odd"), TestSecrets.value("a string"));
		AtomicBoolean lost = new AtomicBoolean();
		try (Jobs jobs = Jobs.inMemory();
				TcpProxy proxy = TcpProxy.start(server.port());
				BatchConnectionPool pool = BatchConnectionPool
					.builder(RedisURI.create("redis://127.0.0.1:" + proxy.port()))
					.build()) {
			StringBatchTemplate template = new StringBatchTemplate(pool,
					BatchOptions.builder().timeout(Duration.ofMillis(500)).build());
			RedisItemMapper<String, String, Integer> mapper = (batch, id) -> {
				if (id == 150 && lost.compareAndSet(false, true)) {
					proxy.dropRepliesAfter(0);
				}
				batch.set(TestSecrets.key("value-" + id), TestSecrets.value("v" + id));
				batch.sadd((id % 10 == 3) ? TestSecrets.key("odd") : TestSecrets.key("even"), TestSecrets.value("m"));
			};
			RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter.builder(template, mapper)
				.name("secrets")
				.options(BatchOptions.builder().chunkSize(20).build())
				.build();
			var step = new StepBuilder("secrets", jobs.repository()).<Integer, Integer>chunk(50)
				.reader(new IdReader(200))
				.writer(writer)
				.transactionManager(jobs.transactionManager())
				.faultTolerant()
				.skip(ItemFailedException.class)
				.skipLimit(100)
				// annotated, as Spring Batch 5 and 6 both register it (their SkipListener
				// interfaces live in different packages)
				.listener(new SkippedItemLogger())
				.build();

			var execution = jobs.start(new JobBuilder("secrets", jobs.repository()).start(step).build());

			// as an application would log a failed job
			execution.getAllFailureExceptions().forEach((failure) -> logger.error("Job failed", failure));
			assertThat(execution.getStatus()).isEqualTo(BatchStatus.FAILED);
			assertThat(execution.getStepExecutions().iterator().next().getWriteSkipCount()).isPositive();
		}
		assertThat(output.getAll()).contains("WRONGTYPE")
			.contains("may or may not have run")
			.doesNotContain(TestSecrets.MARKER);
	}

	/**
	 * Logs a skipped item with its failure, as an application would.
	 */
	public static final class SkippedItemLogger {

		@OnSkipInWrite
		public void onSkipInWrite(Integer item, Throwable failure) {
			logger.warn("Skipped item " + item, failure);
		}

	}

}
