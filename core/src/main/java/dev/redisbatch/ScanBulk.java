package dev.redisbatch;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.ScanOptions;
import org.springframework.util.Assert;

/**
 * The {@link BulkOperations} of a {@link BatchTemplate}: what to scan, where from and
 * with which options. Immutable; each terminal method runs a {@link BulkRun}.
 */
final class ScanBulk implements BulkOperations {

	private final BatchTemplate<?, ?> template;

	private final ScanOptions scanOptions;

	private final @Nullable ScanCursor from;

	private final BatchOptions options;

	ScanBulk(BatchTemplate<?, ?> template, ScanOptions scanOptions, @Nullable ScanCursor from, BatchOptions options) {
		this.template = template;
		this.scanOptions = scanOptions;
		this.from = from;
		this.options = options;
	}

	@Override
	public BulkOperations from(@Nullable ScanCursor cursor) {
		return new ScanBulk(this.template, this.scanOptions, cursor, this.options);
	}

	@Override
	public BulkOperations options(BatchOptions options) {
		Assert.notNull(options, "options must not be null");
		// checked now, before any I/O
		this.template.bulkSettings(options);
		return new ScanBulk(this.template, this.scanOptions, this.from, options);
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
		RunSettings settings = this.template.bulkSettings(this.options);
		BatchRun batch = this.template.bulkRun(settings);
		MasterKeyScanner<byte[]> scanner = this.template.rawScanner(this.scanOptions, settings.timeout());
		ScanCursor start = (this.from != null) ? this.from : ScanCursor.start();
		return new BulkRun(this.template.getConnectionPool(), scanner, batch, settings, operation, ttlMillis, start)
			.run();
	}

}
