package dev.redisbatch;

import java.time.Duration;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.Assert;

/**
 * The {@link BulkOperations} of a template: what to scan, where from and with which
 * options. Immutable; each terminal method runs a {@link BulkRun} on the template's pool.
 */
final class ScanBulk implements BulkOperations {

	private final BatchConnectionPool pool;

	private final BatchObservations observations;

	/**
	 * The settings of a batch with the given options, the template's defaults filling
	 * what they leave unset.
	 */
	private final Function<BatchOptions, RunSettings> resolve;

	private final ScanOptions scanOptions;

	private final @Nullable ScanCursor from;

	private final BatchOptions options;

	ScanBulk(BatchConnectionPool pool, BatchObservations observations, Function<BatchOptions, RunSettings> resolve,
			ScanOptions scanOptions, @Nullable ScanCursor from, BatchOptions options) {
		this.pool = pool;
		this.observations = observations;
		this.resolve = resolve;
		this.scanOptions = scanOptions;
		this.from = from;
		this.options = options;
	}

	@Override
	public BulkOperations from(@Nullable ScanCursor cursor) {
		return new ScanBulk(this.pool, this.observations, this.resolve, this.scanOptions, cursor, this.options);
	}

	@Override
	public BulkOperations options(BatchOptions options) {
		Assert.notNull(options, "options must not be null");
		// checked now, before any I/O
		settings(options);
		return new ScanBulk(this.pool, this.observations, this.resolve, this.scanOptions, this.from, options);
	}

	@Override
	public BulkResults unlink() {
		return run(BulkRun.Operation.UNLINK, 0);
	}

	@Override
	public BulkResults del() {
		return run(BulkRun.Operation.DEL, 0);
	}

	@Override
	public BulkResults expire(Duration ttl) {
		Assert.notNull(ttl, "ttl must not be null");
		Assert.isTrue(ttl.toMillis() >= 1, () -> "ttl must be at least 1 ms but was " + ttl);
		return run(BulkRun.Operation.EXPIRE, ttl.toMillis());
	}

	@Override
	public BulkResults persist() {
		return run(BulkRun.Operation.PERSIST, 0);
	}

	@Override
	public BulkResults count() {
		return run(BulkRun.Operation.COUNT, 0);
	}

	private BulkResults run(BulkRun.Operation operation, long ttlMillis) {
		RunSettings settings = settings(this.options);
		Assert.state(BoundBatch.current(this.pool) == null, Messages::bulkInBoundBatch);
		BatchRun batch = new BatchRun(this.pool, settings, this.observations);
		// raw keys, never deserialized
		MasterKeyScanner<byte[]> scanner = new MasterKeyScanner<>(this.pool, RedisSerializer.byteArray(),
				this.scanOptions, settings.timeout(), null);
		ScanCursor start = (this.from != null) ? this.from : ScanCursor.start();
		return new BulkRun(this.pool, scanner, batch, settings, operation, ttlMillis, start).run();
	}

	/**
	 * The settings of a bulk operation: not transactional.
	 */
	private RunSettings settings(BatchOptions options) {
		RunSettings settings = this.resolve.apply(options);
		Assert.isTrue(!settings.transactional(),
				"A bulk operation runs as plain pipelines: its keys span slots, so it cannot be transactional");
		return settings;
	}

}
