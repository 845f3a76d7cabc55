package dev.redisbatch.springbatch;

import java.util.List;

import org.springframework.batch.item.Chunk;
import org.springframework.batch.item.ExecutionContext;
import org.springframework.batch.item.ItemStreamException;

/**
 * Spring Batch 5.2's item types that the shared tests (in
 * {@code spring-batch-common/src/shared-test}) make or expect: their package differs
 * between Spring Batch lines, so each line's tests provide them.
 */
final class ItemStreams {

	/**
	 * What a writer or a reader throws when it cannot open.
	 */
	static final Class<ItemStreamException> STREAM_EXCEPTION = ItemStreamException.class;

	private ItemStreams() {
	}

	/**
	 * An empty execution context, as a new step has.
	 */
	static ExecutionContext context() {
		return new ExecutionContext();
	}

	/**
	 * A copy of an execution context, as a restarted step has.
	 */
	static ExecutionContext copy(ExecutionContext context) {
		return new ExecutionContext(context);
	}

	/**
	 * A chunk of items.
	 */
	@SafeVarargs
	static <T> Chunk<T> chunk(T... items) {
		return new Chunk<>(List.of(items));
	}

}
