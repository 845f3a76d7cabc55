package dev.redisbatch.springbatch;

import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;

/**
 * A step's {@link ExecutionContext} as the writer's and the reader's logic keep their
 * state in it, with {@link ItemStreamException} for state that cannot be read back.
 */
final class ExecutionContextState {

	private ExecutionContextState() {
	}

	static StepState of(ExecutionContext context) {
		return new StepState(context::get, context::putString, context::remove, ItemStreamException::new);
	}

}
