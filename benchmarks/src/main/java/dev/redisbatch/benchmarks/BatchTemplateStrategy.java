package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.function.IntFunction;

import dev.redisbatch.Batch;
import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * redis-batch's {@code BatchTemplate}: {@code setAll} for SET, {@code getAll} for GET and
 * one {@code execute} for the mixed batch.
 * <p>
 * The named strategies and the window variants use the {@code stringBatchTemplate} bean
 * of redis-batch's auto-configuration (with {@code redis.batch.max-in-flight-*} set for
 * the variants); the sweep builds templates directly with a chunk size and byte window.
 */
final class BatchTemplateStrategy implements Strategy {

	private final StringBatchTemplate template;

	private final @Nullable ConfigurableApplicationContext context;

	private final @Nullable BatchConnectionPool ownedPool;

	private BatchTemplateStrategy(StringBatchTemplate template, @Nullable ConfigurableApplicationContext context,
			@Nullable BatchConnectionPool ownedPool) {
		this.template = template;
		this.context = context;
		this.ownedPool = ownedPool;
	}

	/**
	 * The auto-configured {@code stringBatchTemplate} bean.
	 * @param endpoint where to connect
	 * @param properties extra {@code redis.batch.*} properties
	 * @return the strategy
	 */
	static BatchTemplateStrategy autoConfigured(Endpoint endpoint, String... properties) {
		ConfigurableApplicationContext context = BootRedis.start(endpoint, properties);
		return new BatchTemplateStrategy(context.getBean(StringBatchTemplate.class), context, null);
	}

	/**
	 * A template built without Spring, on a pool of its own.
	 * @param endpoint where to connect
	 * @param chunkSize the chunk size
	 * @param windowBytes the byte window; the command window is too large to bind
	 * @return the strategy
	 */
	static BatchTemplateStrategy built(Endpoint endpoint, int chunkSize, long windowBytes) {
		BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(endpoint.uri())).build();
		BatchOptions defaults = BatchOptions.builder()
			.chunkSize(chunkSize)
			.maxInFlightBytes(windowBytes)
			.maxInFlightCommands(Strategies.UNBOUNDED_COMMANDS)
			.build();
		return new BatchTemplateStrategy(new StringBatchTemplate(pool, defaults), null, pool);
	}

	/**
	 * The options batches run with.
	 * @return the resolved default options
	 */
	BatchOptions options() {
		return this.template.getDefaultOptions();
	}

	@Override
	public long set(Workload workload) {
		// throws BatchException unless every SET succeeded
		this.template.setAll(workload.entries(), Workload.TTL);
		return workload.size();
	}

	@Override
	public long get(Workload workload) {
		List<@Nullable String> values = this.template.getAll(workload.keyList());
		return workload.matchingValues(values.size(), (i) -> values.get(i));
	}

	@Override
	@SuppressWarnings("unchecked")
	public long mixed(Workload workload) {
		Response<@Nullable String>[] gets = new Response[workload.entities()];
		BatchResults results = this.template.execute((batch) -> {
			for (int i = 0; i < gets.length; i++) {
				recordMixed(batch, workload, i, gets);
			}
		});
		return answeredMixed(results, workload, gets);
	}

	/**
	 * The commands of one entity of the mixed batch: INCR, HSET, EXPIRE, GET.
	 */
	static void recordMixed(Batch<String, String> batch, Workload workload, int i, Response<@Nullable String>[] gets) {
		batch.incr(workload.counterKeys()[i]);
		batch.hset(workload.hashKeys()[i], Workload.FIELD, workload.values()[i]);
		batch.expire(workload.hashKeys()[i], Workload.TTL);
		gets[i] = batch.get(workload.keys()[i]);
	}

	/**
	 * How many commands of the mixed batch answered as expected: the batch throws unless
	 * every command succeeded, so check the values read.
	 */
	static long answeredMixed(BatchResults results, Workload workload, Response<@Nullable String>[] gets) {
		long answered = results.count(Outcome.SUCCESS) - gets.length;
		for (int i = 0; i < gets.length; i++) {
			if (workload.values()[i].equals(gets[i].get())) {
				answered++;
			}
		}
		return answered;
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		this.template.execute((batch) -> {
			for (int i = 0; i < count; i++) {
				batch.set(keys.apply(i), value, Workload.TTL);
			}
		});
	}

	@Override
	public void close() {
		if (this.context != null) {
			this.context.close();
		}
		if (this.ownedPool != null) {
			this.ownedPool.close();
		}
	}

}
