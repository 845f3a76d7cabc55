package dev.redisbatch;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * Hands the parts of a reply, as Lettuce decodes them on the event loop, to the output of
 * the command they belong to: the portable path's outputs ({@link ReplySlots}). Nothing
 * is handed on once the chunk was abandoned: the batch's thread may be settling the
 * commands. An output that cannot take a part (a command sent by name with a
 * {@link CommandReply} of another shape) fails its command alone, as on the fast path:
 * the rest of that reply is read past, the command ends {@link Outcome#FAILED} once its
 * reply is whole, and the commands after it keep theirs. Lettuce never sees the output's
 * exception, so it neither completes the slot early nor mistakes it for a lost
 * connection.
 */
abstract class ReplyForwarding extends CommandOutput<byte[], byte[], Object> {

	/**
	 * Whether the chunk was abandoned: read before each part is handed on.
	 */
	private final BooleanSupplier abandoned;

	/**
	 * Whether the current command's output could not take a part of its reply.
	 */
	private boolean unreadable;

	/**
	 * Forwarding for a chunk.
	 * @param abandoned whether the chunk was abandoned: nothing more is taken into its
	 * commands
	 */
	ReplyForwarding(BooleanSupplier abandoned) {
		super(ByteArrayCodec.INSTANCE, null);
		this.abandoned = abandoned;
	}

	/**
	 * The command whose reply is being decoded, or {@code null} when none is.
	 */
	abstract @Nullable CommandResponse<?> current();

	/**
	 * The current command's reply is whole: the next part is the next command's.
	 */
	final void nextCommand() {
		this.unreadable = false;
	}

	final boolean isAbandoned() {
		return this.abandoned.getAsBoolean();
	}

	private void forward(Part part) {
		CommandResponse<?> response = current();
		if (response == null || this.unreadable || isAbandoned()) {
			return;
		}
		CommandOutput<byte[], byte[], Object> output = response.getOutput();
		if (output == null) {
			return;
		}
		try {
			part.into(output);
		}
		catch (RuntimeException ex) {
			this.unreadable = true;
			response.completeExceptionally(ex);
		}
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		forward((output) -> output.set(bytes));
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		forward((output) -> output.setSingle(bytes));
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		forward((output) -> output.setBigNumber(bytes));
	}

	@Override
	public void set(long integer) {
		forward((output) -> output.set(integer));
	}

	@Override
	public void set(double number) {
		forward((output) -> output.set(number));
	}

	@Override
	public void set(boolean value) {
		forward((output) -> output.set(value));
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		forward((output) -> output.setError(error));
	}

	@Override
	public void setError(@Nullable String error) {
		forward((output) -> output.setError(error));
	}

	@Override
	public void multi(int count) {
		forward((output) -> output.multi(count));
	}

	@Override
	public void multiArray(int count) {
		forward((output) -> output.multiArray(count));
	}

	@Override
	public void multiMap(int count) {
		forward((output) -> output.multiMap(count));
	}

	@Override
	public void multiSet(int count) {
		forward((output) -> output.multiSet(count));
	}

	@Override
	public void multiPush(int count) {
		forward((output) -> output.multiPush(count));
	}

	@Override
	public void complete(int depth) {
		forward((output) -> output.complete(depth));
	}

	@Override
	public @Nullable Object get() {
		return null;
	}

	/**
	 * A part of a reply, handed to a command's output.
	 */
	@FunctionalInterface
	private interface Part {

		void into(CommandOutput<byte[], byte[], Object> output);

	}

}
