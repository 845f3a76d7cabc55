package dev.redisbatch;

import java.util.function.Function;

import dev.redisbatch.internals.RecordingConnections;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;

/**
 * Turns Lettuce API calls into recorded batch commands. It takes the commands of a
 * Lettuce connection that never touches the network ({@link RecordingConnections}): every
 * command Lettuce builds (with its arguments encoded and its typed output ready) is
 * handed to the {@link BatchRun} instead of a socket.
 * <p>
 * This lets both the {@link Batch} API and Spring Data Redis's {@code LettuceConnection}
 * reuse Lettuce's complete command builder, while the pipeline decides when and where the
 * commands go.
 */
final class CommandRecorder implements RecordingConnections.CommandSink {

	private static final Function<@Nullable Object, @Nullable Object> RAW = (raw) -> raw;

	private final BatchRun run;

	private final StatefulRedisConnection<byte[], byte[]> connection;

	/**
	 * Whether someone awaits the replies of the Lettuce commands recorded now (a nested
	 * {@code executePipelined} reads them); otherwise only their outputs are kept.
	 */
	private boolean repliesAwaited;

	CommandRecorder(ClientResources resources, BatchRun run) {
		this.run = run;
		this.connection = RecordingConnections.connectionWritingTo(this, resources);
	}

	/**
	 * Keep the Lettuce commands recorded from now on whole, so that whoever holds them
	 * sees them complete; or only their outputs.
	 */
	void awaitReplies(boolean awaited) {
		this.repliesAwaited = awaited;
	}

	/**
	 * Whether the Lettuce commands recorded now are kept whole: a nested
	 * {@code executePipelined} is open.
	 */
	boolean awaitsReplies() {
		return this.repliesAwaited;
	}

	/**
	 * A Lettuce connection whose commands are recorded into the pipeline.
	 */
	StatefulRedisConnection<byte[], byte[]> connection() {
		return this.connection;
	}

	@Override
	public void accept(RedisCommand<byte[], byte[], ?> command) {
		Unbatchable.check(command.getType());
		this.run.add(command, RAW, this.repliesAwaited);
	}

}
