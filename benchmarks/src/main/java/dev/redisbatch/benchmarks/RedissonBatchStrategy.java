package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's {@code RBatch}: commands queued on the batch object, then one
 * {@code execute()}. The client (and its connection pool) is created once with Redisson's
 * defaults, apart from the string codec and a batch response timeout of one minute (the
 * default of a few seconds is for small batches and fails the largest ones; it does not
 * change the speed).
 */
final class RedissonBatchStrategy implements Strategy {

	private final RedissonClient client;

	RedissonBatchStrategy(Endpoint endpoint) {
		Config config = new Config();
		config.setCodec(StringCodec.INSTANCE);
		config.useSingleServer().setAddress(endpoint.uri());
		this.client = Redisson.create(config);
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		RBatch batch = this.client.createBatch(options());
		for (int i = 0; i < keys.length; i++) {
			batch.getBucket(keys[i], StringCodec.INSTANCE).setAsync(values[i], Workload.TTL);
		}
		// SET answers nothing Redisson keeps (a null per command); execute() throws on
		// any error
		return batch.execute().getResponses().size();
	}

	@Override
	public long get(Workload workload) {
		RBatch batch = this.client.createBatch(options());
		for (String key : workload.keys()) {
			batch.getBucket(key, StringCodec.INSTANCE).getAsync();
		}
		List<?> responses = batch.execute().getResponses();
		return workload.matchingValues(responses.size(), responses::get);
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		RBatch batch = this.client.createBatch(options().skipResult());
		for (int i = 0; i < count; i++) {
			batch.getBucket(keys.apply(i), StringCodec.INSTANCE).setAsync(value, Workload.TTL);
		}
		batch.execute();
	}

	private static BatchOptions options() {
		return BatchOptions.defaults().responseTimeout(60, TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
