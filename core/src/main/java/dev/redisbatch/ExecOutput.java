package dev.redisbatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Hands each element of {@code EXEC}'s array to the output of its command, in order, and
 * completes the command when its element is whole. Depth 0 is {@code EXEC}'s own array,
 * depth 1 an element of it, deeper a part of an element. {@code EXEC}'s own error
 * ({@code EXECABORT}) or null (discarded) is its own.
 */
final class ExecOutput extends ReplyForwarding {

	private final CommandResponse<?>[] responses;

	private final int size;

	private int next;

	private boolean started;

	private boolean discarded;

	private @Nullable String execError;

	/**
	 * The output of a transaction's {@code EXEC}.
	 * @param responses the transaction's commands
	 * @param size how many commands it holds
	 * @param abandoned whether its chunk was abandoned
	 */
	ExecOutput(CommandResponse<?>[] responses, int size, BooleanSupplier abandoned) {
		super(abandoned);
		this.responses = responses;
		this.size = size;
	}

	/**
	 * Whether the transaction was discarded (a watched key changed).
	 */
	boolean isDiscarded() {
		return this.discarded;
	}

	@Override
	@Nullable CommandResponse<?> current() {
		return (this.started && this.next < this.size) ? this.responses[this.next] : null;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (!this.started && bytes == null) {
			this.discarded = true;
			return;
		}
		super.set(bytes);
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		if (!this.started) {
			this.execError = (error != null) ? StandardCharsets.UTF_8.decode(error).toString() : "";
			return;
		}
		super.setError(error);
	}

	@Override
	public void multi(int count) {
		if (!this.started) {
			this.started = true;
			this.discarded = count == -1;
			return;
		}
		super.multi(count);
	}

	@Override
	public void multiArray(int count) {
		if (!this.started) {
			multi(count);
			return;
		}
		super.multiArray(count);
	}

	@Override
	public void complete(int depth) {
		if (depth < 1 || this.next >= this.size) {
			return;
		}
		if (depth > 1) {
			super.complete(depth - 1);
			return;
		}
		// the element is whole: its command has its reply
		super.complete(0);
		CommandResponse<?> response = this.responses[this.next++];
		nextCommand();
		if (!isAbandoned()) {
			response.complete();
		}
	}

	@Override
	public @Nullable String getError() {
		return this.execError;
	}

}
