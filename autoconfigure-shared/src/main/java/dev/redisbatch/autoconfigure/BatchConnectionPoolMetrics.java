package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchConnectionPool;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Pool meters: {@code redis.batch.pool.active}, {@code redis.batch.pool.idle} and
 * {@code redis.batch.pool.waiting} (gauges, connections or callers), and
 * {@code redis.batch.pool.exhausted} (counter, times a caller found no connection within
 * the maximum wait).
 *
 * @since 0.1.0
 */
public class BatchConnectionPoolMetrics implements MeterBinder {

	private final BatchConnectionPool pool;

	/**
	 * Create the binder.
	 * @param pool the pool to measure
	 */
	public BatchConnectionPoolMetrics(BatchConnectionPool pool) {
		this.pool = pool;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("redis.batch.pool.active", this.pool, BatchConnectionPool::getActive)
			.description("Batch connections lent to running batches")
			.baseUnit("connections")
			.register(registry);
		Gauge.builder("redis.batch.pool.idle", this.pool, BatchConnectionPool::getIdle)
			.description("Batch connections open and idle in the pool")
			.baseUnit("connections")
			.register(registry);
		Gauge.builder("redis.batch.pool.waiting", this.pool, BatchConnectionPool::getWaiting)
			.description("Callers waiting for a batch connection")
			.baseUnit("callers")
			.register(registry);
		FunctionCounter.builder("redis.batch.pool.exhausted", this.pool, BatchConnectionPool::getExhaustedCount)
			.description("Times a batch found no free connection within the maximum wait")
			.baseUnit("events")
			.register(registry);
	}

}
