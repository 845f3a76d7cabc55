package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.function.IntFunction;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;

/**
 * Raw Lettuce, as its documentation shows for bulk loading: a dedicated connection with
 * auto-flush off, every command issued asynchronously, one {@code flushCommands()}, then
 * wait for all futures. The connection is opened once and kept.
 */
final class LettuceManualFlushStrategy implements Strategy {

	private static final Duration AWAIT = Duration.ofMinutes(2);

	private static final SetArgs SET_ARGS = SetArgs.Builder.ex(Workload.TTL);

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisAsyncCommands<String, String> commands;

	LettuceManualFlushStrategy(Endpoint endpoint) {
		this.client = RedisClient.create(RedisURI.create(endpoint.uri()));
		this.connection = this.client.connect(StringCodec.UTF8);
		this.commands = this.connection.async();
		this.connection.setAutoFlushCommands(false);
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		@SuppressWarnings("unchecked")
		RedisFuture<String>[] futures = new RedisFuture[keys.length];
		for (int i = 0; i < keys.length; i++) {
			futures[i] = this.commands.set(keys[i], values[i], SET_ARGS);
		}
		flushAndAwait(futures);
		long acknowledged = 0;
		for (RedisFuture<String> future : futures) {
			if ("OK".equals(future.toCompletableFuture().getNow(null))) {
				acknowledged++;
			}
		}
		return acknowledged;
	}

	@Override
	public long get(Workload workload) {
		String[] keys = workload.keys();
		@SuppressWarnings("unchecked")
		RedisFuture<String>[] futures = new RedisFuture[keys.length];
		for (int i = 0; i < keys.length; i++) {
			futures[i] = this.commands.get(keys[i]);
		}
		flushAndAwait(futures);
		return workload.matchingValues(futures.length, (i) -> futures[i].toCompletableFuture().getNow(null));
	}

	/**
	 * Keeps only the last future: replies come in order, so when it is done every reply
	 * has come. Lettuce itself still holds every command until it is answered.
	 */
	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		RedisFuture<?> last = null;
		for (int i = 0; i < count; i++) {
			last = this.commands.set(keys.apply(i), value, SET_ARGS);
		}
		if (last != null) {
			flushAndAwait(last);
		}
	}

	private void flushAndAwait(RedisFuture<?>... futures) {
		this.connection.flushCommands();
		// throws the first command failure, if any
		if (!LettuceFutures.awaitAll(AWAIT, futures)) {
			throw new IllegalStateException("Lettuce futures not complete within " + AWAIT);
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

}
