package dev.redisbatch.springbatch.docs;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.ItemNotSentException;
import dev.redisbatch.springbatch.RedisBatchItemWriter;
import dev.redisbatch.springbatch.RedisItemMapper;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ItemReader;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The exactly-once example of docs/spring-batch.md: a job whose mapper is not idempotent
 * (an {@code INCR} and an {@code LPUSH} per visit), written by an exactly-once writer, so
 * that a retried or restarted chunk runs each command once without an
 * {@code AppliedCheck}.
 */
public final class CountVisitsJob {

	private CountVisitsJob() {
	}

	public static Job countVisits(JobRepository jobRepository, PlatformTransactionManager transactionManager,
			StringBatchTemplate batchTemplate, ItemReader<Visit> visits) {
		RedisItemMapper<String, String, Visit> mapper = (batch, visit) -> {
			batch.incr("visits:" + visit.page());
			batch.lpush("visitors:" + visit.page(), visit.visitor());
		};
		RedisBatchItemWriter<String, String, Visit> writer = RedisBatchItemWriter.builder(batchTemplate, mapper)
			.name("visits-redis")
			.options(BatchOptions.builder().name("count-visits").exactlyOnce(true).build())
			.build();
		Step step = new StepBuilder("count-visits", jobRepository).<Visit, Visit>chunk(1000)
			.reader(visits)
			.writer(writer)
			.transactionManager(transactionManager)
			.faultTolerant()
			// a chunk whose outcomes were lost is written again as the same batch
			.retry(ItemNotSentException.class)
			.retryLimit(3)
			.build();
		return new JobBuilder("count-visits", jobRepository).start(step).build();
	}

	/**
	 * A visit of a page.
	 *
	 * @param page the page
	 * @param visitor who visited it
	 */
	public record Visit(String page, String visitor) {

	}

}
