package dev.redisbatch.springbatch.docs;

import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.KeyFetcher;
import dev.redisbatch.springbatch.RedisBatchItemReader;
import dev.redisbatch.springbatch.RedisKeyValue;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.file.FlatFileItemWriter;
import org.springframework.batch.infrastructure.item.file.builder.FlatFileItemWriterBuilder;
import org.springframework.core.io.WritableResource;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The example of docs/spring-batch.md: a job that exports the string keys matching
 * {@code order:*} and their values to a file, one {@code key<TAB>value} line each.
 * Restartable: a failed export resumes from the saved scan cursors.
 */
public final class ExportOrdersJob {

	private ExportOrdersJob() {
	}

	public static Job exportOrders(JobRepository jobRepository, PlatformTransactionManager transactionManager,
			StringBatchTemplate batchTemplate, WritableResource file) {
		RedisBatchItemReader<String, String, String> reader = RedisBatchItemReader
			.builder(batchTemplate, KeyFetcher.<String, String>get())
			.name("orders-redis")
			.scanOptions(ScanOptions.scanOptions().match("order:*").count(1000).type(DataType.STRING).build())
			.build();
		FlatFileItemWriter<RedisKeyValue<String, String>> writer = new FlatFileItemWriterBuilder<RedisKeyValue<String, String>>()
			.name("orders-file")
			.resource(file)
			.lineAggregator((entry) -> entry.key() + "\t" + entry.value())
			.build();
		// SCAN may return a key twice: keep the export idempotent downstream (or
		// deduplicate)
		Step step = new StepBuilder("export-orders", jobRepository)
			.<RedisKeyValue<String, String>, RedisKeyValue<String, String>>chunk(1000)
			.reader(reader)
			.writer(writer)
			.transactionManager(transactionManager)
			.build();
		return new JobBuilder("export-orders", jobRepository).start(step).build();
	}

}
