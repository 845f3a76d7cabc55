package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.KeyFetcher;
import dev.redisbatch.springbatch.RedisBatchItemReader;
import dev.redisbatch.springbatch.RedisBatchItemWriter;
import dev.redisbatch.springbatch.RedisItemMappers;
import dev.redisbatch.springbatch.RedisKeyValue;
import io.lettuce.core.RedisURI;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.data.redis.core.ScanOptions;

/**
 * redis-batch's {@code RedisBatchItemWriter} and {@code RedisBatchItemReader} on a
 * {@code StringBatchTemplate} with the default options: SET writes the workload in chunks
 * of {@link SpringBatchItemStrategy#CHUNK} items, one batch per chunk, with the
 * {@code value} mapper (no TTL, as Spring Batch's writer); GET reads every key of the
 * server ({@code SCAN COUNT} {@value SpringBatchItemStrategy#CHUNK}, one batch of
 * {@code GET}s per page). The writer runs as a step would run it: opened as a stream,
 * with what it remembers of each chunk updated and dropped at each "commit".
 */
final class RedisBatchItemStrategy implements Strategy {

	private final BatchConnectionPool pool;

	private final StringBatchTemplate template;

	RedisBatchItemStrategy(Endpoint endpoint) {
		this.pool = BatchConnectionPool.builder(RedisURI.create(endpoint.uri())).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		RedisBatchItemWriter<String, String, Integer> writer = RedisBatchItemWriter
			.builder(this.template,
					RedisItemMappers.<String, String, Integer>value((i) -> keys[i], (i) -> values[i], null))
			.name("benchmark")
			.build();
		ExecutionContext context = new ExecutionContext();
		writer.open(context);
		List<Integer> items = new ArrayList<>(keys.length);
		for (int i = 0; i < keys.length; i++) {
			items.add(i);
		}
		for (int from = 0; from < items.size(); from += SpringBatchItemStrategy.CHUNK) {
			writer
				.write(new Chunk<>(items.subList(from, Math.min(items.size(), from + SpringBatchItemStrategy.CHUNK))));
			writer.update(context);
		}
		writer.close();
		// write(...) throws unless every command succeeded
		return keys.length;
	}

	@Override
	public long get(Workload workload) {
		Map<String, String> expected = workload.entries();
		RedisBatchItemReader<String, String, String> reader = RedisBatchItemReader
			.builder(this.template, KeyFetcher.<String, String>get())
			.name("benchmark")
			.scanOptions(ScanOptions.scanOptions().count(SpringBatchItemStrategy.CHUNK).build())
			.build();
		reader.open(new ExecutionContext());
		long matching = 0;
		try {
			for (RedisKeyValue<String, String> item = reader.read(); item != null; item = reader.read()) {
				matching += item.value().equals(expected.get(item.key())) ? 1 : 0;
			}
		}
		finally {
			reader.close();
		}
		return matching;
	}

	@Override
	public long mixed(Workload workload) {
		throw new UnsupportedOperationException("The Spring Batch strategies write and read items only");
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		throw new UnsupportedOperationException("The Spring Batch strategies write and read items only");
	}

	@Override
	public void close() {
		this.pool.close();
	}

}
