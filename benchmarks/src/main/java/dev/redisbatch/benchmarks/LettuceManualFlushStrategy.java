package dev.redisbatch.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;

/**
 * Raw Lettuce, as its documentation shows for bulk loading: a dedicated connection with
 * auto-flush off, every command issued asynchronously, one {@code flushCommands()}, then
 * wait for all futures. The connection is opened once and kept.
 */
final class LettuceManualFlushStrategy implements Strategy {

	private static final Duration AWAIT = Duration.ofMinutes(2);

	private static final SetArgs SET_ARGS = SetArgs.Builder.ex(Workload.TTL);

	private final AbstractRedisClient client;

	private final StatefulConnection<String, String> connection;

	private final RedisClusterAsyncCommands<String, String> commands;

	LettuceManualFlushStrategy(Endpoint endpoint) {
		RedisClient standalone = RedisClient.create(RedisURI.create(endpoint.uri()));
		StatefulRedisConnection<String, String> connection = standalone.connect(StringCodec.UTF8);
		this.client = standalone;
		this.connection = connection;
		this.commands = connection.async();
		this.connection.setAutoFlushCommands(false);
	}

	private LettuceManualFlushStrategy(RedisClusterClient cluster) {
		StatefulRedisClusterConnection<String, String> connection = cluster.connect(StringCodec.UTF8);
		// Lettuce opens a master's connection with the first command routed to it, and a
		// flushCommands() made while that connection still opens never flushes what was
		// queued for it (redis/lettuce#2420): the commands wait until they time out. So
		// every master's connection is opened first, with auto-flush still on.
		for (RedisClusterNode node : connection.getPartitions()) {
			if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
				connection.getConnection(node.getUri().getHost(), node.getUri().getPort()).sync().ping();
			}
		}
		this.client = cluster;
		this.connection = connection;
		this.commands = connection.async();
		this.connection.setAutoFlushCommands(false);
	}

	/**
	 * Lettuce's own cluster pipelining: one cluster connection (Lettuce routes each
	 * command to the connection of its slot's master), auto-flush off, every command
	 * issued asynchronously, one {@code flushCommands()} (which flushes every master's
	 * connection), then wait for all futures.
	 * @param nodes the cluster's nodes, {@code host:port}
	 * @return the strategy
	 */
	static LettuceManualFlushStrategy cluster(List<String> nodes) {
		return new LettuceManualFlushStrategy(
				RedisClusterClient.create(nodes.stream().map((node) -> RedisURI.create("redis://" + node)).toList()));
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
		this.connection.flushCommands();
		await(futures);
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
		this.connection.flushCommands();
		await(futures);
		return workload.matchingValues(futures.length, (i) -> futures[i].toCompletableFuture().getNow(null));
	}

	@Override
	public long mixed(Workload workload) {
		String[] counters = workload.counterKeys();
		String[] hashes = workload.hashKeys();
		String[] keys = workload.keys();
		String[] values = workload.values();
		RedisFuture<?>[] futures = new RedisFuture<?>[4 * counters.length];
		long ttlSeconds = Workload.TTL.toSeconds();
		for (int i = 0; i < counters.length; i++) {
			futures[4 * i] = this.commands.incr(counters[i]);
			futures[4 * i + 1] = this.commands.hset(hashes[i], Workload.FIELD, values[i]);
			futures[4 * i + 2] = this.commands.expire(hashes[i], ttlSeconds);
			futures[4 * i + 3] = this.commands.get(keys[i]);
		}
		this.connection.flushCommands();
		await(futures);
		return workload.answeredMixed(futures.length, (i) -> futures[i].toCompletableFuture().getNow(null));
	}

	/**
	 * Keeps only the last future: replies come in order, so when it is done every reply
	 * has come. Lettuce itself still holds every command until it is flushed and
	 * answered.
	 */
	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		RedisFuture<String> last = null;
		for (int i = 0; i < count; i++) {
			last = this.commands.set(keys.apply(i), value, SET_ARGS);
		}
		this.connection.flushCommands();
		if (last != null) {
			await(last);
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	private static void await(RedisFuture<?>... futures) {
		// throws the first command failure, if any
		if (!LettuceFutures.awaitAll(AWAIT, futures)) {
			throw new IllegalStateException("Lettuce futures not complete within " + AWAIT);
		}
	}

}
