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
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.step.builder.StepBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose Redis server is killed ({@code SIGKILL}) in the middle of a chunk, while
 * commands are in flight, fails; restarted once the server is back (with its append-only
 * file, so that what it acknowledged survives), it completes with an idempotent mapper:
 * no item lost, every value and its expiry on the server. (With a mapper that is not
 * idempotent the restart needs Spring Batch 6.0.6:
 * {@code RedisBatchItemWriterCounterRestartTests}.)
 */
@EveryLine
class RedisBatchItemWriterRestartTests {

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
	void valuesWithATtlAreAllWrittenAfterAKillAndARestart() {
		AtomicBoolean killed = new AtomicBoolean();
		RedisItemMapper<String, String, Integer> values = RedisItemMappers.value((Integer id) -> "order:" + id,
				(id) -> "order-" + id, Duration.ofHours(1));
		RedisItemMapper<String, String, Integer> mapper = RedisItemMapper.idempotent((batch, id) -> {
			killOnce(id, killed);
			values.map(batch, id);
		});
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter.builder(this.template, mapper)
			.name("orders")
			.options(BatchOptions.builder().chunkSize(50).build())
			.build();
		var step = new StepBuilder("write", this.jobs.repository()).<Integer, Integer>chunk(1_000)
			.reader(new IdReader(ITEMS))
			.writer(writer)
			.transactionManager(this.jobs.transactionManager())
			.faultTolerant()
			.retry(ItemNotSentException.class)
			.retryLimit(2)
			.build();
		var job = new JobBuilder("write", this.jobs.repository()).start(step).build();

		var first = this.jobs.start(job);
		assertThat(first.getStatus()).isEqualTo(BatchStatus.FAILED);
		this.server.restart();
		var second = this.jobs.restart(job, first);

		assertThat(second.getStatus()).isEqualTo(BatchStatus.COMPLETED);
		List<String> keys = IntStream.range(0, ITEMS).mapToObj((id) -> "order:" + id).toList();
		assertThat(this.template.getAll(keys))
			.containsExactlyElementsOf(IntStream.range(0, ITEMS).mapToObj((id) -> "order-" + id).toList());
		assertThat(this.server.info("keyspace").get("db0")).startsWith("keys=" + ITEMS + ",expires=" + ITEMS + ",");
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

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
