package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * redis-batch's {@link StringBatchTemplate} with its defaults ({@code redis.batch.*}):
 * chunked pipelines on pooled connections of their own, one write per chunk, chunks
 * written while they fit in the in-flight window, a typed response per command.
 * <p>
 * Without a deadline, all commands are one batch. With one, the commands are sent as
 * successive batches of eight windows of commands (eight times
 * {@code max-in-flight-commands}, so that a batch never ends before the window is full),
 * and it stops between batches once the deadline has passed.
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

	private static final int WINDOWS_PER_SEGMENT = 8;

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
		this(NAME,
				"StringBatchTemplate with its defaults: chunks of " + template.getDefaultOptions().chunkSize()
						+ " commands, each written at once while the commands in flight fit in a window of "
						+ megabytes(template.getDefaultOptions().maxInFlightBytes()) + " and "
						+ String.format(Locale.ROOT, "%,d", template.getDefaultOptions().maxInFlightCommands())
						+ " commands (a smaller batch goes out in one flight), on pooled connections.",
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
	 * Warm up with chunks of one command, so that the warm-up takes the same path as the
	 * timed run: several chunks in flight on the batch's connection.
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
	 * Warm up with chunks of one command, so that the warm-up takes the same path as the
	 * timed run: several chunks in flight on the batch's connection.
	 */
	@Override
	public void warmUpGet(List<String> keys) {
		List<String> slice = keys.subList(0, warmUpSize(keys.size()));
		this.template.execute(warmUpOptions(), (batch) -> slice.forEach(batch::get));
	}

	private int warmUpSize(int size) {
		return Math.min(size, WARM_UP);
	}

	private BatchOptions warmUpOptions() {
		return this.options.mutate().chunkSize(1).build();
	}

	private int segmentSize(int size, Deadline deadline) {
		if (!deadline.isBounded()) {
			return Math.max(size, 1);
		}
		return segmentSize(this.options, this.template.getDefaultOptions());
	}

	/**
	 * The commands of one batch when a deadline applies: eight windows of commands.
	 * @param options the options of the batch
	 * @param defaults the template's default options
	 * @return the commands per batch
	 */
	static int segmentSize(BatchOptions options, BatchOptions defaults) {
		Integer commands = (options.maxInFlightCommands() != null) ? options.maxInFlightCommands()
				: defaults.maxInFlightCommands();
		return (int) Math.min(Integer.MAX_VALUE, (long) ((commands != null) ? commands : 1) * WINDOWS_PER_SEGMENT);
	}

	private static String megabytes(@Nullable Long bytes) {
		if (bytes == null) {
			return "the default size";
		}
		return (bytes % (1024 * 1024) == 0) ? (bytes / (1024 * 1024)) + " MB"
				: String.format(Locale.ROOT, "%,d bytes", bytes);
	}

}
