package dev.redisbatch.benchmarks;

import java.util.function.IntFunction;

import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.SetParams;

/**
 * Jedis's {@code Pipeline}: Jedis 7's pooled {@code RedisClient} (the successor of
 * {@code JedisPooled}), a pipeline on a pooled connection per batch, one {@code sync()}.
 * Jedis's default pool holds 8 connections; the concurrent scenario sizes it for its
 * threads.
 */
final class JedisPipelineStrategy implements Strategy {

	private static final SetParams SET_PARAMS = SetParams.setParams().ex(Workload.TTL.toSeconds());

	private final RedisClient client;

	JedisPipelineStrategy(Endpoint endpoint) {
		this.client = RedisClient.create(Endpoint.HOST, endpoint.port());
	}

	/**
	 * A client whose pool holds this many connections, all kept open when idle.
	 * @param endpoint where to connect
	 * @param connections the pool's {@code maxTotal} and {@code maxIdle}
	 */
	JedisPipelineStrategy(Endpoint endpoint, int connections) {
		ConnectionPoolConfig pool = new ConnectionPoolConfig();
		pool.setMaxTotal(connections);
		pool.setMaxIdle(connections);
		this.client = RedisClient.builder().hostAndPort(Endpoint.HOST, endpoint.port()).poolConfig(pool).build();
	}

	/**
	 * The most connections the client's pool holds.
	 * @return {@code maxTotal}
	 */
	int maxConnections() {
		return this.client.getPool().getMaxTotal();
	}

	@Override
	@SuppressWarnings("unchecked")
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		Response<String>[] responses = new Response[keys.length];
		try (Pipeline pipeline = this.client.pipelined()) {
			for (int i = 0; i < keys.length; i++) {
				responses[i] = pipeline.set(keys[i], values[i], SET_PARAMS);
			}
			pipeline.sync();
		}
		long acknowledged = 0;
		for (Response<String> response : responses) {
			if ("OK".equals(response.get())) {
				acknowledged++;
			}
		}
		return acknowledged;
	}

	@Override
	@SuppressWarnings("unchecked")
	public long get(Workload workload) {
		String[] keys = workload.keys();
		Response<String>[] responses = new Response[keys.length];
		try (Pipeline pipeline = this.client.pipelined()) {
			for (int i = 0; i < keys.length; i++) {
				responses[i] = pipeline.get(keys[i]);
			}
			pipeline.sync();
		}
		return workload.matchingValues(responses.length, (i) -> responses[i].get());
	}

	@Override
	public long mixed(Workload workload) {
		String[] counters = workload.counterKeys();
		String[] hashes = workload.hashKeys();
		String[] keys = workload.keys();
		String[] values = workload.values();
		Response<?>[] responses = new Response<?>[4 * counters.length];
		long ttlSeconds = Workload.TTL.toSeconds();
		try (Pipeline pipeline = this.client.pipelined()) {
			for (int i = 0; i < counters.length; i++) {
				responses[4 * i] = pipeline.incr(counters[i]);
				responses[4 * i + 1] = pipeline.hset(hashes[i], Workload.FIELD, values[i]);
				responses[4 * i + 2] = pipeline.expire(hashes[i], ttlSeconds);
				responses[4 * i + 3] = pipeline.get(keys[i]);
			}
			pipeline.sync();
		}
		// Jedis answers HSET and EXPIRE with numbers, so Workload.answeredMixed does not
		// apply
		long answered = 0;
		for (int i = 0; i < counters.length; i++) {
			answered += (responses[4 * i].get() instanceof Long) ? 1 : 0;
			answered += (responses[4 * i + 1].get() instanceof Long) ? 1 : 0;
			answered += Long.valueOf(1).equals(responses[4 * i + 2].get()) ? 1 : 0;
			answered += values[i].equals(responses[4 * i + 3].get()) ? 1 : 0;
		}
		return answered;
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		try (Pipeline pipeline = this.client.pipelined()) {
			for (int i = 0; i < count; i++) {
				pipeline.set(keys.apply(i), value, SET_PARAMS);
			}
			pipeline.sync();
		}
	}

	@Override
	public void close() {
		this.client.close();
	}

}
