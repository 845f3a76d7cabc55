package dev.redisbatch.internals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;

/**
 * Lettuce connections that never touch the network: every command Lettuce's API builds
 * (its arguments encoded, its typed output ready) is handed to a {@link CommandSink}
 * instead of a socket. Lettuce has no public way to make one: it takes Lettuce's
 * connection class and its channel writer interface, both checked by
 * {@link Compatibility#recordingMismatches()}.
 */
public final class RecordingConnections {

	private RecordingConnections() {
	}

	/**
	 * A connection whose commands go to the sink.
	 * @param sink where the commands go
	 * @param resources the client resources Lettuce asks the connection for
	 * @return the connection
	 */
	public static StatefulRedisConnection<byte[], byte[]> connectionWritingTo(CommandSink sink,
			ClientResources resources) {
		SinkWriter writer = new SinkWriter(sink, resources);
		return new StatefulRedisConnectionImpl<>(writer, writer, ByteArrayCodec.INSTANCE, Duration.ofDays(1));
	}

	/**
	 * Takes the commands of a recording connection.
	 */
	@FunctionalInterface
	public interface CommandSink {

		/**
		 * A command was written to the connection.
		 * @param command the command, with its arguments and output
		 */
		void accept(RedisCommand<byte[], byte[], ?> command);

	}

	/**
	 * The channel writer (and push handler) of a recording connection.
	 */
	private static final class SinkWriter implements RedisChannelWriter, PushHandler {

		private final CommandSink sink;

		private final ClientResources resources;

		SinkWriter(CommandSink sink, ClientResources resources) {
			this.sink = sink;
			this.resources = resources;
		}

		@Override
		@SuppressWarnings("unchecked")
		public <K, V, T> RedisCommand<K, V, T> write(RedisCommand<K, V, T> command) {
			this.sink.accept((RedisCommand<byte[], byte[], ?>) command);
			return command;
		}

		@Override
		public <K, V> Collection<RedisCommand<K, V, ?>> write(Collection<? extends RedisCommand<K, V, ?>> commands) {
			List<RedisCommand<K, V, ?>> written = new ArrayList<>(commands.size());
			for (RedisCommand<K, V, ?> command : commands) {
				written.add(write(command));
			}
			return written;
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
		 * Nothing to reset: no socket, no queue. Lettuce 6.6 and 6.8 declare this method
		 * on {@link RedisChannelWriter} and Lettuce 7 no longer does, hence no
		 * {@code @Override}.
		 */
		public void reset() {
			// the recorded commands belong to the sink
		}

		@Override
		public void setConnectionFacade(ConnectionFacade connection) {
			// no connection events: no socket
		}

		@Override
		public void setAutoFlushCommands(boolean autoFlush) {
			// the sink decides when commands go out
		}

		@Override
		public void flushCommands() {
			// the sink decides when commands go out
		}

		@Override
		public ClientResources getClientResources() {
			return this.resources;
		}

		@Override
		public void addListener(PushListener listener) {
			// push messages never arrive on a recording connection
		}

		@Override
		public void removeListener(PushListener listener) {
			// push messages never arrive on a recording connection
		}

		@Override
		public Collection<PushListener> getPushListeners() {
			return List.of();
		}

	}

}
