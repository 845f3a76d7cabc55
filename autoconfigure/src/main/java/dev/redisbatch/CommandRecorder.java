package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.push.PushListener;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * Turns Lettuce API calls into recorded batch commands. It is the channel writer of a
 * Lettuce connection that never touches the network: every command Lettuce builds (with
 * its arguments encoded and its typed output ready) is handed to the
 * {@link ChunkedPipeline} instead of a socket.
 * <p>
 * This lets both the {@link Batch} API and Spring Data Redis's {@code LettuceConnection}
 * reuse Lettuce's complete command builder, while the pipeline decides when and where the
 * commands go.
 */
final class CommandRecorder implements RedisChannelWriter, PushHandler {

	private static final Function<@Nullable Object, @Nullable Object> RAW = (raw) -> raw;

	/**
	 * Commands that cannot be part of a batch: they block the connection, change its
	 * state for whoever uses it next, or need replies that a pipeline cannot give.
	 */
	private static final Set<CommandType> UNSUPPORTED = EnumSet.of(CommandType.BLPOP, CommandType.BRPOP,
			CommandType.BRPOPLPUSH, CommandType.BLMOVE, CommandType.BLMPOP, CommandType.BZPOPMIN, CommandType.BZPOPMAX,
			CommandType.BZMPOP, CommandType.WAIT, CommandType.MULTI, CommandType.EXEC, CommandType.DISCARD,
			CommandType.WATCH, CommandType.UNWATCH, CommandType.SELECT, CommandType.AUTH, CommandType.HELLO,
			CommandType.CLIENT, CommandType.QUIT, CommandType.SUBSCRIBE, CommandType.PSUBSCRIBE, CommandType.SSUBSCRIBE,
			CommandType.UNSUBSCRIBE, CommandType.PUNSUBSCRIBE, CommandType.SUNSUBSCRIBE, CommandType.MONITOR,
			CommandType.READONLY, CommandType.READWRITE, CommandType.SHUTDOWN, CommandType.SYNC);

	private final ClientResources resources;

	private final ChunkedPipeline pipeline;

	private final LongSupplier maxBulkBytes;

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private Function<@Nullable Object, ?> converter = RAW;

	private CommandResponse.@Nullable Recipe recipe;

	private boolean idempotent;

	private @Nullable CommandResponse<?> replaying;

	private @Nullable CommandResponse<?> last;

	private final ByteBuf scratch = Unpooled.buffer(256);

	CommandRecorder(ClientResources resources, ChunkedPipeline pipeline, LongSupplier maxBulkBytes) {
		this.resources = resources;
		this.pipeline = pipeline;
		this.maxBulkBytes = maxBulkBytes;
		this.connection = new StatefulRedisConnectionImpl<>(this, this, ByteArrayCodec.INSTANCE, Duration.ofDays(1));
	}

	/**
	 * A Lettuce connection whose commands are recorded into the pipeline.
	 */
	StatefulRedisConnection<byte[], byte[]> connection() {
		return this.connection;
	}

	RedisAsyncCommands<byte[], byte[]> commands() {
		return this.connection.async();
	}

	/**
	 * Use this converter for the response of the next recorded command, and remember how
	 * to record the command again (for retries).
	 */
	void expect(Function<@Nullable Object, ?> converter, CommandResponse.Recipe recipe, boolean idempotent) {
		this.converter = converter;
		this.recipe = recipe;
		this.idempotent = idempotent;
	}

	/**
	 * The next recorded command has a raw response and no recipe.
	 */
	void expectRaw() {
		this.converter = RAW;
		this.recipe = null;
		this.idempotent = false;
	}

	/**
	 * Record a pending command again, from its recipe, into its original response.
	 */
	void replay(CommandResponse<?> response) {
		this.replaying = response;
		try {
			response.recipe().record(commands());
		}
		finally {
			this.replaying = null;
		}
	}

	/**
	 * The response of the command recorded last.
	 */
	@SuppressWarnings("unchecked")
	<T> CommandResponse<T> takeLast() {
		CommandResponse<?> response = this.last;
		if (response == null) {
			throw new IllegalStateException("No command was recorded");
		}
		this.last = null;
		return (CommandResponse<T>) response;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
		ProtocolKeyword type = command.getType();
		if (type instanceof CommandType known && UNSUPPORTED.contains(known)) {
			expectRaw();
			throw new InvalidDataAccessApiUsageException(type + " cannot run in a batch (a BatchTemplate callback or "
					+ "a @RedisBatch method): a batch pipelines commands on a pooled connection and reads no reply "
					+ "before the batch ends, so blocking commands, MULTI/EXEC (use the transactional option), "
					+ "SELECT, AUTH, CLIENT and subscriptions are not allowed. Run it outside the batch.");
		}
		RedisCommand<K, V, T> recorded = (command instanceof CompletableFuture<?>) ? command
				: new AsyncCommand<>(command);
		Function<@Nullable Object, ?> next = this.converter;
		CommandResponse.Recipe nextRecipe = this.recipe;
		boolean nextIdempotent = this.idempotent;
		expectRaw();
		long size = sizeOf(command);
		long limit = this.maxBulkBytes.getAsLong();
		long largest = (size > limit) ? largestArgument() : 0;
		if (largest > limit) {
			String reason = "not sent: an argument of " + largest + " bytes is larger than the server's "
					+ "proto-max-bulk-len of " + limit + " bytes";
			IllegalArgumentException cause = new IllegalArgumentException(reason);
			recorded.completeExceptionally(cause);
			this.last = this.pipeline.addFailed(type.toString(), reason, cause);
			return recorded;
		}
		CommandResponse<?> again = this.replaying;
		if (again != null) {
			this.pipeline.replay(again, (RedisCommand<byte[], byte[], ?>) recorded, size);
			return recorded;
		}
		this.last = this.pipeline.add((RedisCommand<byte[], byte[], ?>) recorded, next, size, nextRecipe,
				nextIdempotent);
		return recorded;
	}

	/**
	 * The request bytes of a command: its arguments as they go on the wire, plus its name
	 * and framing.
	 */
	private long sizeOf(RedisCommand<?, ?, ?> command) {
		CommandArgs<?, ?> args = command.getArgs();
		long size = 16 + command.getType().getBytes().length;
		if (args != null) {
			this.scratch.clear();
			args.encode(this.scratch);
			size += this.scratch.readableBytes();
		}
		return size;
	}

	/**
	 * The length of the largest bulk string in the command encoded last.
	 */
	private long largestArgument() {
		long largest = 0;
		int index = this.scratch.readerIndex();
		int end = this.scratch.writerIndex();
		while (index < end) {
			if (this.scratch.getByte(index) != '$') {
				break;
			}
			long length = 0;
			index++;
			byte digit;
			while ((digit = this.scratch.getByte(index)) != '\r') {
				length = length * 10 + (digit - '0');
				index++;
			}
			largest = Math.max(largest, length);
			index += 2 + length + 2;
		}
		return largest;
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
