package dev.redisbatch.sample.strategy;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * redis-batch's {@link StringBatchTemplate} with its default chunk size and
 * {@code parallelism} {@value #PARALLELISM}: up to four chunks in flight at once,
 * pipelined on the batch's connection. A batch of many chunks then waits about one round
 * trip per four chunks; a batch of one chunk gains nothing.
 *
 * @since 0.1.0
 */
@Component
@Order(40)
public class ParallelBatchTemplateStrategy extends BatchTemplateStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "batch-template-parallel";

	/**
	 * The parallelism used.
	 */
	public static final int PARALLELISM = 4;

	/**
	 * Create the strategy.
	 * @param template the template
	 */
	@Autowired
	public ParallelBatchTemplateStrategy(StringBatchTemplate template) {
		super(NAME,
				"StringBatchTemplate with parallelism " + PARALLELISM + ": chunks of "
						+ template.getDefaultOptions().chunkSize() + " commands, up to " + PARALLELISM
						+ " in flight at once, pipelined on the batch's connection.",
				template, BatchOptions.builder().parallelism(PARALLELISM).name("sample." + NAME).build());
	}

}
