package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * redis-batch's {@code BatchTemplate}: {@code setAll} for SET and {@code getAll} for GET,
 * with the default options.
 */
final class BatchTemplateStrategy implements Strategy {

	/**
	 * The system property that, set to {@code false} before a batch connection's first
	 * batch, leaves its reads and writes to the event loop.
	 */
	static final String CALLER_IO = "dev.redisbatch.caller-io";

	private final StringBatchTemplate template;

	private final AutoCloseable resources;

	/**
	 * The options of every batch, or {@code null} for the template's defaults (and its
	 * {@code setAll} / {@code getAll}).
	 */
	private final @Nullable BatchOptions batchOptions;

	private BatchTemplateStrategy(StringBatchTemplate template, AutoCloseable resources) {
		this(template, resources, null);
	}

	private BatchTemplateStrategy(StringBatchTemplate template, AutoCloseable resources,
			@Nullable BatchOptions batchOptions) {
		this.template = template;
		this.resources = resources;
		this.batchOptions = batchOptions;
	}

	/**
	 * The {@code stringBatchTemplate} bean of redis-batch's auto-configuration, as an
	 * application gets it.
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static BatchTemplateStrategy autoConfigured(Endpoint endpoint) {
		ConfigurableApplicationContext context = BootRedis.start(endpoint, List.of());
		return new BatchTemplateStrategy(context.getBean(StringBatchTemplate.class), context);
	}

	/**
	 * The auto-configured template with its batch connections read and written by the
	 * event loop: {@value #CALLER_IO} is {@code false} until the strategy is closed (a
	 * benchmark JVM measures one strategy at a time).
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static BatchTemplateStrategy eventLoop(Endpoint endpoint) {
		System.setProperty(CALLER_IO, "false");
		BatchTemplateStrategy strategy = autoConfigured(endpoint);
		return new BatchTemplateStrategy(strategy.template, () -> {
			strategy.close();
			System.clearProperty(CALLER_IO);
		});
	}

	/**
	 * The auto-configured template, every batch exactly-once:
	 * {@code BatchOptions.builder().exactlyOnce(true)}, every other option the template's
	 * (the same chunking as the plain batch).
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static BatchTemplateStrategy exactlyOnce(Endpoint endpoint) {
		BatchTemplateStrategy plain = autoConfigured(endpoint);
		return new BatchTemplateStrategy(plain.template, plain.resources,
				BatchOptions.builder().exactlyOnce(true).build());
	}

	/**
	 * The same template with its default options, sharing this strategy's connections:
	 * closing it closes nothing.
	 * @return the plain strategy
	 */
	BatchTemplateStrategy plain() {
		return new BatchTemplateStrategy(this.template, () -> {
		});
	}

	/**
	 * The auto-configured template on the portable path:
	 * {@code redis.batch.fast-path.enabled=false}.
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static BatchTemplateStrategy portable(Endpoint endpoint) {
		ConfigurableApplicationContext context = BootRedis.start(endpoint, List.of(),
				"redis.batch.fast-path.enabled=false");
		return new BatchTemplateStrategy(context.getBean(StringBatchTemplate.class), context);
	}

	/**
	 * A template with the default options on a pool of its own, built without Spring.
	 * @param endpoint where to connect
	 * @param pool what to set on the pool's builder
	 * @return the strategy
	 */
	static BatchTemplateStrategy pooled(Endpoint endpoint, UnaryOperator<BatchConnectionPool.Builder> pool) {
		BatchConnectionPool built = pool.apply(BatchConnectionPool.builder(RedisURI.create(endpoint.uri()))).build();
		return new BatchTemplateStrategy(new StringBatchTemplate(built), built);
	}

	/**
	 * The template, for a benchmark that runs batches of its own.
	 * @return the template
	 */
	StringBatchTemplate template() {
		return this.template;
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
		BatchOptions options = this.batchOptions;
		if (options == null) {
			// throws BatchException unless every SET succeeded
			this.template.setAll(workload.entries(), Workload.TTL);
		}
		else {
			// setAll's batch, with these options
			BatchResults results = this.template.execute(options,
					(batch) -> workload.entries().forEach((key, value) -> batch.set(key, value, Workload.TTL)));
			if (!results.isSuccess()) {
				throw new IllegalStateException(results.summary());
			}
		}
		return workload.size();
	}

	@Override
	public long get(Workload workload) {
		BatchOptions options = this.batchOptions;
		if (options == null) {
			List<@Nullable String> values = this.template.getAll(workload.keyList());
			return workload.matchingValues(values.size(), values::get);
		}
		List<Response<@Nullable String>> responses = new ArrayList<>(workload.size());
		this.template.execute(options, (batch) -> {
			for (String key : workload.keys()) {
				responses.add(batch.get(key));
			}
		});
		return workload.matchingValues(responses.size(), (i) -> responses.get(i).get());
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		BatchOptions options = (this.batchOptions != null) ? this.batchOptions : this.template.getDefaultOptions();
		this.template.execute(options, (batch) -> {
			for (int i = 0; i < count; i++) {
				batch.set(keys.apply(i), value, Workload.TTL);
			}
		});
	}

	@Override
	public void close() {
		try {
			this.resources.close();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not close " + this.resources, ex);
		}
	}

}
