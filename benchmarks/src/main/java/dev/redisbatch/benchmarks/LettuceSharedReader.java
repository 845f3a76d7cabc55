package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.KeyValue;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;

/**
 * Lettuce on one connection shared by every thread, as an application shares its
 * connection, with auto-flush on (it cannot be switched off on a shared connection):
 * either each GET of a batch issued asynchronously, then every future awaited, or one
 * {@code MGET} of all the batch's keys.
 */
final class LettuceSharedReader implements BatchReader {

	private static final Duration AWAIT = Duration.ofMinutes(1);

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisAsyncCommands<String, String> commands;

	private final boolean mget;

	/**
	 * Open the shared connection.
	 * @param endpoint where to connect
	 * @param mget whether a batch is one {@code MGET} rather than one {@code GET} per key
	 */
	LettuceSharedReader(Endpoint endpoint, boolean mget) {
		this.client = RedisClient.create(RedisURI.create(endpoint.uri()));
		this.connection = this.client.connect(StringCodec.UTF8);
		this.commands = this.connection.async();
		this.mget = mget;
	}

	@Override
	public long read(Workload keys) {
		return this.mget ? readWithMget(keys) : readWithGets(keys);
	}

	private long readWithGets(Workload keys) {
		String[] names = keys.keys();
		@SuppressWarnings("unchecked")
		RedisFuture<String>[] futures = new RedisFuture[names.length];
		for (int i = 0; i < names.length; i++) {
			futures[i] = this.commands.get(names[i]);
		}
		// throws the first command failure, if any
		if (!LettuceFutures.awaitAll(AWAIT, futures)) {
			throw new IllegalStateException("Lettuce futures not complete within " + AWAIT);
		}
		return keys.matchingValues(futures.length, (i) -> futures[i].toCompletableFuture().getNow(null));
	}

	private long readWithMget(Workload keys) {
		List<KeyValue<String, String>> values = this.connection.sync().mget(keys.keys());
		return keys.matchingValues(values.size(), (i) -> values.get(i).getValueOrElse(null));
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
