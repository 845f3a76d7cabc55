package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * redis-batch's {@code ReactiveBatchTemplate}, the auto-configured
 * {@code reactiveStringBatchTemplate} bean: {@code setAll} of a {@code Flux} of entries
 * for SET, {@code getAll} of a {@code Flux} of keys for GET, and {@code execute} of a
 * {@code Flux} of entity indexes for the mixed batch, each awaited with {@code block()},
 * as a test or a blocking caller would. The batch runs on the template's async thread,
 * fed through the reactive backpressure path.
 */
final class ReactiveBatchTemplateStrategy implements Strategy {

	private static final Duration WAIT = Duration.ofMinutes(5);

	private final ConfigurableApplicationContext context;

	private final ReactiveBatchTemplate<String, String> reactive;

	@SuppressWarnings("unchecked")
	ReactiveBatchTemplateStrategy(Endpoint endpoint) {
		this.context = BootRedis.start(endpoint);
		this.reactive = this.context.getBean("reactiveStringBatchTemplate", ReactiveBatchTemplate.class);
	}

	@Override
	public long set(Workload workload) {
		// fails with the BatchException unless every SET succeeded
		BatchResults results = this.reactive.setAll(Flux.fromIterable(workload.entries().entrySet()), Workload.TTL)
			.block(WAIT);
		return (results != null) ? results.count(Outcome.SUCCESS) : 0;
	}

	@Override
	public long get(Workload workload) {
		List<@Nullable String> values = this.reactive.getAll(Flux.fromIterable(workload.keyList())).block(WAIT);
		if (values == null) {
			return 0;
		}
		return workload.matchingValues(values.size(), (i) -> values.get(i));
	}

	@Override
	@SuppressWarnings("unchecked")
	public long mixed(Workload workload) {
		Response<@Nullable String>[] gets = new Response[workload.entities()];
		BatchResults results = this.reactive
			.execute(Flux.range(0, gets.length),
					(batch, i) -> BatchTemplateStrategy.recordMixed(batch, workload, i, gets))
			.block(WAIT);
		return (results != null) ? BatchTemplateStrategy.answeredMixed(results, workload, gets) : 0;
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		this.reactive.setAll(Flux.range(0, count).map((i) -> Map.entry(keys.apply(i), value)), Workload.TTL)
			.block(WAIT);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
