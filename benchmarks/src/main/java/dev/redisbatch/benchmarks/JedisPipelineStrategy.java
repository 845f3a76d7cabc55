package dev.redisbatch.benchmarks;

import java.util.function.IntFunction;

import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.SetParams;

/**
 * Jedis's {@code Pipeline}: Jedis 7's pooled {@code RedisClient} (the successor of
 * {@code JedisPooled}), a pipeline on a pooled connection per batch, one {@code sync()}.
 */
final class JedisPipelineStrategy implements Strategy {

	private static final SetParams SET_PARAMS = SetParams.setParams().ex(Workload.TTL.toSeconds());

	private final RedisClient client;

	JedisPipelineStrategy(Endpoint endpoint) {
		this.client = RedisClient.create(Endpoint.HOST, endpoint.port());
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
