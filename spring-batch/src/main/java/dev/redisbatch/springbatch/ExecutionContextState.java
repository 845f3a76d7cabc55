package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * A step's {@link ExecutionContext} as the writer's and the reader's logic keep their
 * state in it.
 */
final class ExecutionContextState implements StepState {

	private final ExecutionContext context;

	ExecutionContextState(ExecutionContext context) {
		this.context = context;
	}

	@Override
	public @Nullable String getString(String key) {
		return this.context.containsKey(key) ? this.context.getString(key) : null;
	}

	@Override
	public void putString(String key, String value) {
		this.context.putString(key, value);
	}

	@Override
	public void remove(String key) {
		this.context.remove(key);
	}

}
