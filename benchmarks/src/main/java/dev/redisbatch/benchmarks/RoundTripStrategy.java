package dev.redisbatch.benchmarks;

import java.util.function.IntFunction;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;

/**
 * One command per round trip: Boot's {@code StringRedisTemplate}, one
 * {@code opsForValue().set(k, v, ttl)} after the other, each waiting for its reply.
 */
final class RoundTripStrategy implements Strategy {

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate template;

	private final ValueOperations<String, String> values;

	private final HashOperations<String, String, String> hashes;

	RoundTripStrategy(Endpoint endpoint) {
		this.context = BootRedis.start(endpoint);
		this.template = this.context.getBean(StringRedisTemplate.class);
		this.values = this.template.opsForValue();
		this.hashes = this.template.opsForHash();
	}

	@Override
	public long set(Workload workload) {
		String[] keys = workload.keys();
		String[] values = workload.values();
		for (int i = 0; i < keys.length; i++) {
			this.values.set(keys[i], values[i], Workload.TTL);
		}
		// set(...) returns nothing and throws when the command fails
		return keys.length;
	}

	@Override
	public long get(Workload workload) {
		String[] keys = workload.keys();
		return workload.matchingValues(keys.length, (i) -> this.values.get(keys[i]));
	}

	@Override
	public long mixed(Workload workload) {
		String[] counters = workload.counterKeys();
		String[] hashes = workload.hashKeys();
		String[] keys = workload.keys();
		String[] values = workload.values();
		long answered = 0;
		for (int i = 0; i < counters.length; i++) {
			if (this.values.increment(counters[i]) != null) {
				answered++;
			}
			this.hashes.put(hashes[i], Workload.FIELD, values[i]);
			answered++;
			if (Boolean.TRUE.equals(this.template.expire(hashes[i], Workload.TTL))) {
				answered++;
			}
			if (values[i].equals(this.values.get(keys[i]))) {
				answered++;
			}
		}
		return answered;
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		for (int i = 0; i < count; i++) {
			this.values.set(keys.apply(i), value, Workload.TTL);
		}
	}

	/**
	 * The number of commands one operation of this strategy runs: at most 10,000 on
	 * loopback and {@code 1000 / RTT(ms)} through the proxy (about one second per
	 * operation), to keep its run time bounded. The report compares rates.
	 * @param requested the workload size of the benchmark
	 * @param rttMillis the round trip the proxy adds
	 * @return the number of commands per operation
	 */
	static int commands(int requested, int rttMillis) {
		int cap = (rttMillis == 0) ? 10_000 : Math.max(100, 1000 / rttMillis);
		return Math.min(requested, cap);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
