package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
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

	private static final long RESPONSE_TIMEOUT_SECONDS = 60;

	private final RedissonClient client;

	RedissonBatchStrategy(Endpoint endpoint) {
		Config config = new Config();
		config.setCodec(StringCodec.INSTANCE);
		config.useSingleServer().setAddress(endpoint.uri());
		this.client = Redisson.create(config);
	}

	private RedissonBatchStrategy(Config config) {
		this.client = Redisson.create(config);
	}

	/**
	 * Redisson's cluster {@code RBatch}: Redisson groups the commands per master and
	 * sends each group on that master's connection.
	 * @param nodes the cluster's nodes, {@code host:port}
	 * @return the strategy
	 */
	static RedissonBatchStrategy cluster(List<String> nodes) {
		Config config = new Config();
		config.setCodec(StringCodec.INSTANCE);
		config.useClusterServers()
			.addNodeAddress(nodes.stream().map((node) -> "redis://" + node).toArray(String[]::new));
		return new RedissonBatchStrategy(config);
	}

	private RBatch batch() {
		return this.client
			.createBatch(BatchOptions.defaults().responseTimeout(RESPONSE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		RBatch batch = batch();
		for (int i = 0; i < keys.length; i++) {
			batch.getBucket(keys[i], StringCodec.INSTANCE).setAsync(values[i], Workload.TTL);
		}
		// SET answers nothing Redisson keeps (a null per command); execute() throws on
		// any error
		return batch.execute().getResponses().size();
	}

	@Override
	public long get(Workload workload) {
		String[] keys = workload.keys();
		RBatch batch = batch();
		for (String key : keys) {
			batch.getBucket(key, StringCodec.INSTANCE).getAsync();
		}
		List<?> responses = batch.execute().getResponses();
		return workload.matchingValues(responses.size(), (i) -> responses.get(i));
	}

	@Override
	public long mixed(Workload workload) {
		String[] counters = workload.counterKeys();
		String[] hashes = workload.hashKeys();
		String[] keys = workload.keys();
		String[] values = workload.values();
		RBatch batch = batch();
		for (int i = 0; i < counters.length; i++) {
			batch.getAtomicLong(counters[i]).incrementAndGetAsync();
			batch.getMap(hashes[i], StringCodec.INSTANCE).fastPutAsync(Workload.FIELD, values[i]);
			batch.getMap(hashes[i], StringCodec.INSTANCE).expireAsync(Workload.TTL);
			batch.getBucket(keys[i], StringCodec.INSTANCE).getAsync();
		}
		BatchResult<?> result = batch.execute();
		List<?> responses = result.getResponses();
		return workload.answeredMixed(responses.size(), responses::get);
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		RBatch batch = this.client.createBatch(
				BatchOptions.defaults().responseTimeout(RESPONSE_TIMEOUT_SECONDS, TimeUnit.SECONDS).skipResult());
		for (int i = 0; i < count; i++) {
			batch.getBucket(keys.apply(i), StringCodec.INSTANCE).setAsync(value, Workload.TTL);
		}
		batch.execute();
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
