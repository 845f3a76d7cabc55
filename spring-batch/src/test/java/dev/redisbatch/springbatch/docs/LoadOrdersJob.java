package dev.redisbatch.springbatch.docs;

import java.time.Duration;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.ItemNotSentException;
import dev.redisbatch.springbatch.RedisBatchItemWriter;
import dev.redisbatch.springbatch.RedisItemMappers;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.file.FlatFileItemReader;
import org.springframework.batch.infrastructure.item.file.builder.FlatFileItemReaderBuilder;
import org.springframework.core.io.Resource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The example of docs/spring-batch.md: a job that loads the rows of a CSV file
 * ({@code id,json}) into Redis, one key with a one-hour TTL per row, a thousand rows per
 * chunk and per batch.
 */
public final class LoadOrdersJob {

	private LoadOrdersJob() {
	}

	public static Job loadOrders(JobRepository jobRepository, PlatformTransactionManager transactionManager,
			StringBatchTemplate batchTemplate, Resource csv) {
		FlatFileItemReader<Order> reader = new FlatFileItemReaderBuilder<Order>().name("orders-file")
			.resource(csv)
			.lineMapper((line, lineNumber) -> {
				int comma = line.indexOf(',');
				return new Order(Long.parseLong(line.substring(0, comma)), line.substring(comma + 1));
			})
			.build();
		RedisBatchItemWriter<String, String, Order> writer = RedisBatchItemWriter
			.builder(batchTemplate,
					RedisItemMappers.value((Order order) -> "order:" + order.id(), Order::json, Duration.ofHours(1)))
			.name("orders-redis")
			.options(BatchOptions.builder().name("load-orders").build())
			.build();
		Step step = new StepBuilder("load-orders", jobRepository).<Order, Order>chunk(1000)
			.reader(reader)
			.writer(writer)
			.transactionManager(transactionManager)
			.faultTolerant()
			// NOT_SENT (and UNKNOWN, since the mapper is idempotent) are sent again
			.retry(ItemNotSentException.class)
			.retryLimit(3)
			.build();
		return new JobBuilder("load-orders", jobRepository).start(step).build();
	}

}
