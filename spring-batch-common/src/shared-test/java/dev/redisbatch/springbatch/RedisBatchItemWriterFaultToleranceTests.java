package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisBatchItemWriter} in real Spring Batch jobs (chunk-oriented steps, JDBC job
 * repository on in-memory H2) against a real server: lost replies are settled on retry,
 * and no command that is not idempotent runs twice, counted on the server. (The skip of
 * refused items is tested where it is supported, on Spring Batch 6.0.6:
 * {@code RedisBatchItemWriterSkipTests}.)
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchItemWriterFaultToleranceTests {

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
	void commandsWhoseRepliesWereLostAreCheckedOnRetryAndRunOnce(RedisProcess server) {
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(), Duration.ofMillis(500));
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter
			.builder(template, losingRepliesAt(250, proxy))
			.name("visits")
			.options(BatchOptions.builder().chunkSize(50).build())
			.appliedCheck((batch, id) -> batch.exists("visits:" + id))
			.build();

		Run run = runRetrying(writer, 1_000);

		assertThat(run.status()).isEqualTo(BatchStatus.COMPLETED);
		assertThat(counters(template(server.port(), Duration.ofSeconds(10)), 1_000)).containsOnly("1");
	}

	@Test
	void withoutACheckANonIdempotentCommandWhoseReplyWasLostFailsTheChunkAndIsNotSentAgain(RedisProcess server) {
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate template = template(proxy.port(), Duration.ofMillis(500));
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter
			.builder(template, losingRepliesAt(250, proxy))
			.name("visits")
			.options(BatchOptions.builder().chunkSize(50).build())
			.build();

		Run run = runRetrying(writer, 1_000);

		assertThat(run.status()).isEqualTo(BatchStatus.FAILED);
		assertThat(run.failures())
			.anySatisfy((failure) -> assertThat(causeOfType(failure, ItemOutcomeUnknownException.class))
				.hasMessageContaining("may or may not have run")
				.hasMessageContaining("AppliedCheck"));
		List<String> counters = counters(template(server.port(), Duration.ofSeconds(10)), 1_000);
		assertThat(counters).as("no INCR ran twice").allMatch((value) -> value == null || value.equals("1"));
		assertThat(counters).as("some INCRs ran although their replies were lost").contains("1");
	}

	private static RedisItemMapper<String, String, Integer> losingRepliesAt(int id, TcpProxy proxy) {
		AtomicBoolean lost = new AtomicBoolean();
		return (batch, item) -> {
			if (item == id && lost.compareAndSet(false, true)) {
				// the server runs what it receives from now on; the connections open now
				// forward no reply, new ones do
				proxy.dropRepliesAfter(0);
			}
			batch.incr("visits:" + item);
		};
	}

	/**
	 * Run a job whose step retries {@link ItemNotSentException}.
	 */
	private Run runRetrying(RedisBatchItemWriter<String, String, Integer> writer, int items) {
		var step = new StepBuilder("visits", this.jobs.repository()).<Integer, Integer>chunk(500)
			.reader(new IdReader(items))
			.writer(writer)
			.transactionManager(this.jobs.transactionManager())
			.faultTolerant()
			.retry(ItemNotSentException.class)
			.retryLimit(3)
			.build();
		var execution = this.jobs.start(new JobBuilder("visits", this.jobs.repository()).start(step).build());
		return new Run(execution.getStatus(), execution.getAllFailureExceptions());
	}

	static List<String> counters(StringBatchTemplate template, int count) {
		return template.getAll(IntStream.range(0, count).mapToObj((id) -> "visits:" + id).toList());
	}

	private StringBatchTemplate template(int port, Duration timeout) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port)).build());
		return new StringBatchTemplate(pool, BatchOptions.builder().timeout(timeout).build());
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	/**
	 * What a job's run ended with.
	 */
	private record Run(BatchStatus status, List<Throwable> failures) {

	}

	static Throwable causeOfType(Throwable failure, Class<? extends Throwable> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return cause;
			}
		}
		throw new AssertionError("No " + type.getSimpleName() + " among the causes of " + failure);
	}

}
