package dev.redisbatch;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.redisbatch.internals.SpringDataRedisInternals;
import io.lettuce.core.api.StatefulConnection;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

/**
 * The {@link RedisConnection} that {@code RedisTemplate} code gets inside a bound batch.
 * <p>
 * Spring Data Redis's own {@link LettuceConnection} translates every template operation
 * into Lettuce commands; here its connection is the {@link CommandRecorder}, so the
 * commands are recorded into the batch instead of being sent. Like any pipelined
 * connection, every call returns {@code null}.
 * <p>
 * The {@code LettuceConnection} keeps a result holder per pipelined command, so it is
 * replaced after every chunk that goes out: memory stays bounded by the chunk size. A
 * nested {@code executePipelined} gets its own results, once its commands completed.
 */
final class RecordingRedisConnection implements InvocationHandler {

	private final BatchRun run;

	private final CommandRecorder recorder;

	private final long timeoutMillis;

	private final RedisConnection proxy;

	private LettuceConnection delegate;

	private int delegateSince;

	private boolean closed;

	RecordingRedisConnection(BatchRun run, CommandRecorder recorder, long timeoutMillis) {
		this.run = run;
		this.recorder = recorder;
		this.timeoutMillis = timeoutMillis;
		this.proxy = (RedisConnection) Proxy.newProxyInstance(RedisConnection.class.getClassLoader(),
				new Class<?>[] { RedisConnection.class }, this);
		this.delegate = newDelegate();
	}

	RedisConnection connection() {
		return this.proxy;
	}

	/**
	 * No more commands may be recorded: the batch is complete.
	 */
	void close() {
		this.closed = true;
	}

	@Override
	public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args) throws Throwable {
		switch (method.getName()) {
			case "equals":
				return proxy == args[0];
			case "hashCode":
				return System.identityHashCode(proxy);
			case "toString":
				return "RedisConnection recording into batch '" + this.run.name() + "'";
			case "close":
				// The bound batch ends the connection when the annotated method returns.
				return null;
			case "isClosed":
				return this.closed;
			case "isPipelined":
				return true;
			case "openPipeline":
				// executePipelined inside the batch: collect its results separately.
				this.recorder.awaitReplies(true);
				this.delegate = newDelegate();
				return null;
			case "closePipeline":
				return closeNestedPipeline();
			default:
				return record(method, args);
		}
	}

	private @Nullable Object record(Method method, @Nullable Object @Nullable [] args) throws Throwable {
		if (this.closed) {
			throw new IllegalStateException("The batch is complete: this connection records no more commands");
		}
		Object result;
		try {
			result = method.invoke(this.delegate, args);
		}
		catch (InvocationTargetException ex) {
			// a refused command may leave the delegate half-way (for example in MULTI)
			this.delegate = newDelegate();
			throw ex.getCause();
		}
		if (!this.recorder.awaitsReplies() && this.run.chunksSent() != this.delegateSince) {
			this.delegate = newDelegate();
		}
		return result;
	}

	private List<@Nullable Object> closeNestedPipeline() {
		if (!this.recorder.awaitsReplies()) {
			return List.of();
		}
		this.recorder.awaitReplies(false);
		this.run.drain();
		LettuceConnection nested = this.delegate;
		this.delegate = newDelegate();
		return nested.closePipeline();
	}

	private LettuceConnection newDelegate() {
		LettuceConnection connection = SpringDataRedisInternals.pipelinedConnection(new RecorderProvider(this.recorder),
				this.timeoutMillis);
		this.delegateSince = this.run.chunksSent();
		return connection;
	}

	/**
	 * Hands Spring Data Redis the recorder as its "dedicated" connection.
	 */
	private record RecorderProvider(CommandRecorder recorder) implements LettuceConnectionProvider {

		@Override
		@SuppressWarnings("unchecked")
		public <T extends StatefulConnection<?, ?>> T getConnection(Class<T> connectionType) {
			return (T) this.recorder.connection();
		}

		@Override
		public <T extends StatefulConnection<?, ?>> CompletionStage<T> getConnectionAsync(Class<T> connectionType) {
			return CompletableFuture.completedFuture(getConnection(connectionType));
		}

		@Override
		public void release(StatefulConnection<?, ?> connection) {
			// the recorder is not pooled
		}

		@Override
		public CompletableFuture<Void> releaseAsync(StatefulConnection<?, ?> connection) {
			return CompletableFuture.completedFuture(null);
		}

	}

}
