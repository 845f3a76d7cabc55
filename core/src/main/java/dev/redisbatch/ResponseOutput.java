package dev.redisbatch;

import java.util.function.BooleanSupplier;

import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * The reply of one command, sent on its own, handed to the command's output.
 */
final class ResponseOutput extends ReplyForwarding {

	private final CommandResponse<?> response;

	/**
	 * The output of a command's reply.
	 * @param response the command
	 * @param abandoned whether its chunk was abandoned
	 */
	ResponseOutput(CommandResponse<?> response, BooleanSupplier abandoned) {
		super(abandoned);
		this.response = response;
	}

	@Override
	@Nullable CommandResponse<?> current() {
		return this.response;
	}

	@Override
	public @Nullable String getError() {
		CommandOutput<byte[], byte[], Object> output = this.response.getOutput();
		return (output != null) ? output.getError() : null;
	}

}
