package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * redis-batch's {@link StringBatchTemplate} with its defaults ({@code redis.batch.*}):
 * chunked pipelines on pooled connections of their own, one write per chunk, a typed
 * response per command.
 * <p>
 * Without a deadline, all commands are one batch. With one, the commands are sent as
 * successive batches of eight rounds of chunks, and it stops between batches once the
 * deadline has passed.
 *
 * @since 0.1.0
 */
@Component
@Order(30)
public class BatchTemplateStrategy implements DemoStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "batch-template";

	private static final int ROUNDS_PER_SEGMENT = 8;

	private final String name;

	private final String description;

	private final StringBatchTemplate template;

	private final BatchOptions options;

	/**
	 * Create the strategy with the template's default options.
	 * @param template the template
	 */
	@Autowired
	public BatchTemplateStrategy(StringBatchTemplate template) {
		this(NAME, "StringBatchTemplate with its defaults: chunks of " + template.getDefaultOptions().chunkSize()
				+ " commands, " + inFlight(template.getDefaultOptions()) + ", pooled connections, one write per chunk.",
				template, BatchOptions.builder().name("sample." + NAME).build());
	}

	/**
	 * Create a strategy with other options.
	 * @param name the strategy's name
	 * @param description the strategy's description
	 * @param template the template
	 * @param options the batch options; unset values come from the template's defaults
	 */
	protected BatchTemplateStrategy(String name, String description, StringBatchTemplate template,
			BatchOptions options) {
		this.name = name;
		this.description = description;
		this.template = template;
		this.options = options;
	}

	/**
	 * The same template with other options, such as another chunk size.
	 * @param name the strategy's name
	 * @param description the strategy's description
	 * @param options the batch options; unset values come from the template's defaults
	 * @return a strategy (not a bean)
	 */
	public BatchTemplateStrategy withOptions(String name, String description, BatchOptions options) {
		return new BatchTemplateStrategy(name, description, this.template, options);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String description() {
		return this.description;
	}

	/**
	 * The options batches run with.
	 * @return the options; unset values come from the template's defaults
	 */
	public BatchOptions options() {
		return this.options;
	}

	@Override
	public int set(DemoData data, Duration ttl, Deadline deadline) {
		int segment = segmentSize(data.size(), deadline);
		int done = 0;
		while (done < data.size() && (done == 0 || !deadline.hasPassed())) {
			DemoData slice = data.slice(done, Math.min(data.size(), done + segment));
			this.template.execute(this.options, (batch) -> {
				for (int i = 0; i < slice.size(); i++) {
					batch.set(slice.keys().get(i), slice.values().get(i), ttl);
				}
			});
			done += slice.size();
		}
		return done;
	}

	@Override
	public List<@Nullable String> get(List<String> keys, Deadline deadline) {
		int segment = segmentSize(keys.size(), deadline);
		List<@Nullable String> results = new ArrayList<>(keys.size());
		while (results.size() < keys.size() && (results.isEmpty() || !deadline.hasPassed())) {
			List<String> slice = keys.subList(results.size(), Math.min(keys.size(), results.size() + segment));
			List<Response<@Nullable String>> responses = new ArrayList<>(slice.size());
			this.template.execute(this.options, (batch) -> {
				for (String key : slice) {
					responses.add(batch.get(key));
				}
			});
			for (Response<@Nullable String> response : responses) {
				results.add(response.get());
			}
		}
		return results;
	}

	/**
	 * Warm up with chunks of one command, so that the pool opens as many connections as
	 * the timed run keeps chunks in flight.
	 */
	@Override
	public void warmUpSet(DemoData data, Duration ttl) {
		DemoData slice = data.slice(0, warmUpSize(data.size()));
		this.template.execute(warmUpOptions(), (batch) -> {
			for (int i = 0; i < slice.size(); i++) {
				batch.set(slice.keys().get(i), slice.values().get(i), ttl);
			}
		});
	}

	/**
	 * Warm up with chunks of one command, so that the pool opens as many connections as
	 * the timed run keeps chunks in flight.
	 */
	@Override
	public void warmUpGet(List<String> keys) {
		List<String> slice = keys.subList(0, warmUpSize(keys.size()));
		this.template.execute(warmUpOptions(), (batch) -> slice.forEach(batch::get));
	}

	private int warmUpSize(int size) {
		return Math.min(size, Math.max(WARM_UP, 2 * parallelism()));
	}

	private BatchOptions warmUpOptions() {
		return this.options.mutate().chunkSize(1).build();
	}

	private int parallelism() {
		Integer parallelism = this.options.parallelism();
		if (parallelism == null) {
			parallelism = this.template.getDefaultOptions().parallelism();
		}
		// without a parallelism the in-flight window bounds the chunks: count on two
		return (parallelism != null) ? parallelism : 2;
	}

	@SuppressWarnings("deprecation")
	private static String inFlight(BatchOptions defaults) {
		Integer parallelism = defaults.parallelism();
		return (parallelism != null) ? parallelism + " chunks in flight at once"
				: "chunks in flight up to a window of " + defaults.maxInFlightCommands() + " commands per server";
	}

	private int segmentSize(int size, Deadline deadline) {
		if (!deadline.isBounded()) {
			return Math.max(size, 1);
		}
		BatchOptions defaults = this.template.getDefaultOptions();
		int chunkSize = (this.options.chunkSize() != null) ? this.options.chunkSize() : defaults.chunkSize();
		return (int) Math.min(Integer.MAX_VALUE, (long) chunkSize * parallelism() * ROUNDS_PER_SEGMENT);
	}

}
