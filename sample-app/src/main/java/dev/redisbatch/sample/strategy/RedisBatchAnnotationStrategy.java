package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * An {@code @RedisBatch} method around ordinary {@code StringRedisTemplate} calls (see
 * {@link AnnotatedDemoWriter}): the same chunked pipeline as the batch template, reached
 * without changing the loop.
 * <p>
 * The method is called through its Spring proxy (never from inside the same bean, where
 * the annotation would not apply). Without a deadline all keys are one call; with one,
 * successive calls of eight windows of commands each (as {@link BatchTemplateStrategy}),
 * stopping between calls once it has passed.
 *
 * @since 0.1.0
 */
@Component
@Order(50)
public class RedisBatchAnnotationStrategy implements DemoStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "redis-batch-annotation";

	private final AnnotatedDemoWriter writer;

	private final int chunkSize;

	private final int commandsPerCall;

	/**
	 * Create the strategy.
	 * @param writer the bean with the annotated methods
	 * @param batchTemplate the template whose defaults the annotated methods use
	 */
	public RedisBatchAnnotationStrategy(AnnotatedDemoWriter writer, StringBatchTemplate batchTemplate) {
		this.writer = writer;
		Integer defaultChunkSize = batchTemplate.getDefaultOptions().chunkSize();
		this.chunkSize = (defaultChunkSize != null) ? defaultChunkSize : 1000;
		this.commandsPerCall = BatchTemplateStrategy.segmentSize(BatchOptions.builder().build(),
				batchTemplate.getDefaultOptions());
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String description() {
		return "A @RedisBatch method around a plain StringRedisTemplate loop: the template calls are queued into "
				+ "chunks of " + this.chunkSize + " and sent through the same window as the batch template's.";
	}

	@Override
	public int set(DemoData data, Duration ttl, Deadline deadline) {
		int call = callSize(data.size(), deadline);
		int done = 0;
		while (done < data.size() && (done == 0 || !deadline.hasPassed())) {
			DemoData slice = data.slice(done, Math.min(data.size(), done + call));
			this.writer.setAll(slice, ttl);
			done += slice.size();
		}
		return done;
	}

	@Override
	public List<@Nullable String> get(List<String> keys, Deadline deadline) {
		int call = callSize(keys.size(), deadline);
		List<@Nullable String> results = new ArrayList<>(keys.size());
		while (results.size() < keys.size() && (results.isEmpty() || !deadline.hasPassed())) {
			results
				.addAll(this.writer.getAll(keys.subList(results.size(), Math.min(keys.size(), results.size() + call))));
		}
		return results;
	}

	@Override
	public void warmUpSet(DemoData data, Duration ttl) {
		this.writer.setAll(data.slice(0, Math.min(data.size(), WARM_UP)), ttl);
	}

	@Override
	public void warmUpGet(List<String> keys) {
		this.writer.getAll(keys.subList(0, Math.min(keys.size(), WARM_UP)));
	}

	private int callSize(int size, Deadline deadline) {
		return deadline.isBounded() ? this.commandsPerCall : Math.max(size, 1);
	}

}
