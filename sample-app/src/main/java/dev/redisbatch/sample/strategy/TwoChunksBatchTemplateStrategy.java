package dev.redisbatch.sample.strategy;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * redis-batch's {@link StringBatchTemplate} held to a window of two chunks: at most two
 * chunks in flight ({@code maxInFlightCommands} of twice the chunk size). A batch of many
 * chunks then waits about one round trip per two chunks, where the defaults send a batch
 * smaller than the window in one flight; side by side with {@link BatchTemplateStrategy},
 * it shows what the window buys at a distance.
 *
 * @since 0.1.0
 */
@Component
@Order(40)
public class TwoChunksBatchTemplateStrategy extends BatchTemplateStrategy {

	/**
	 * The strategy's name.
	 */
	public static final String NAME = "batch-template-two-chunks";

	/**
	 * The chunks in flight at most.
	 */
	public static final int CHUNKS_IN_FLIGHT = 2;

	/**
	 * Create the strategy.
	 * @param template the template
	 */
	@Autowired
	public TwoChunksBatchTemplateStrategy(StringBatchTemplate template) {
		this(template, chunkSize(template));
	}

	private TwoChunksBatchTemplateStrategy(StringBatchTemplate template, int chunkSize) {
		super(NAME,
				"StringBatchTemplate held to a window of two chunks: chunks of " + chunkSize + " commands, at most "
						+ CHUNKS_IN_FLIGHT + " in flight (max-in-flight-commands " + CHUNKS_IN_FLIGHT * chunkSize
						+ "), so about one round trip per two chunks.",
				template,
				BatchOptions.builder()
					.maxInFlightCommands(CHUNKS_IN_FLIGHT * chunkSize)
					.name("sample." + NAME)
					.build());
	}

	private static int chunkSize(StringBatchTemplate template) {
		Integer chunkSize = template.getDefaultOptions().chunkSize();
		return (chunkSize != null) ? chunkSize : 1000;
	}

}
