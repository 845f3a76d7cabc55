package dev.redisbatch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.api.push.PushListener;
import org.jspecify.annotations.Nullable;

/**
 * Turns Lettuce API calls into recorded batch commands. It is the channel writer of a
 * Lettuce connection that never touches the network: every command Lettuce builds (with
 * its arguments encoded and its typed output ready) is handed to the {@link BatchRun}
 * instead of a socket.
 * <p>
 * This lets both the {@link Batch} API and Spring Data Redis's {@code LettuceConnection}
 * reuse Lettuce's complete command builder, while the pipeline decides when and where the
 * commands go.
 */
final class CommandRecorder implements RedisChannelWriter, PushHandler {

	private static final Function<@Nullable Object, @Nullable Object> RAW = (raw) -> raw;

	private final ClientResources resources;

	private final BatchRun run;

	private final StatefulRedisConnection<byte[], byte[]> connection;

	/**
	 * Whether someone awaits the replies of the Lettuce commands recorded now (a nested
	 * {@code executePipelined} reads them); otherwise only their outputs are kept.
	 */
	private boolean repliesAwaited;

	CommandRecorder(ClientResources resources, BatchRun run) {
		this.resources = resources;
		this.run = run;
		this.connection = LettuceInternals.connectionWritingTo(this, this);
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
	@SuppressWarnings("unchecked")
	public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
		Unbatchable.check(command.getType());
		this.run.add((RedisCommand<byte[], byte[], ?>) command, RAW, this.repliesAwaited);
		return command;
	}

	@Override
	public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
		List<RedisCommand<K, V, ?>> recorded = new ArrayList<>(commands.size());
		for (RedisCommand<K, V, ?> command : commands) {
			recorded.add(write(command));
		}
		return recorded;
	}

	@Override
	public void close() {
		// nothing to close: no socket
	}

	@Override
	public CompletableFuture<Void> closeAsync() {
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Nothing to reset: no socket, no queue. Lettuce 6.8 declares this method on
	 * {@link RedisChannelWriter} (deprecated) and Lettuce 7 no longer does, hence no
	 * {@code @Override}.
	 */
	public void reset() {
		// the recorded commands belong to the batch run
	}

	@Override
	public void setConnectionFacade(ConnectionFacade connection) {
		// no connection events: no socket
	}

	@Override
	public void setAutoFlushCommands(boolean autoFlush) {
		// the pipeline decides when commands go out
	}

	@Override
	public void flushCommands() {
		// the pipeline decides when commands go out
	}

	@Override
	public ClientResources getClientResources() {
		return this.resources;
	}

	@Override
	public void addListener(PushListener listener) {
		// push messages never arrive on a recorder
	}

	@Override
	public void removeListener(PushListener listener) {
		// push messages never arrive on a recorder
	}

	@Override
	public Collection<PushListener> getPushListeners() {
		return List.of();
	}

}
