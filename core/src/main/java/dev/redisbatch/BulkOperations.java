package dev.redisbatch;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One command applied to every key that matches a scan, on every master: obtained from
 * {@link BatchOperations#scan(org.springframework.data.redis.core.ScanOptions)}. Each
 * terminal method ({@link #unlink()}, {@link #del()}, {@link #expire(Duration)},
 * {@link #persist()}, {@link #count()}) runs the operation once, to its end, on the
 * calling thread; this object is immutable and can run it again.
 * <p>
 * <b>How it runs.</b> Every master (on a Redis Cluster each master, never a replica; on a
 * standalone server or behind Sentinel the one master) is scanned with {@code SCAN} and
 * its own cursor, one page from each master in turn, on pooled batch connections borrowed
 * for each call. The keys of each page are recorded, one command per key, into one
 * long-running batch: the commands are pipelined in chunks, written while the scan goes
 * on, so memory is bounded by the batch's in-flight window and one page, never by the
 * number of matching keys. The keys are taken as the server returns them (bytes, not
 * deserialized), so keys written by other applications are handled too.
 * <p>
 * <b>Only what is safe when a key comes twice.</b> {@code SCAN} returns every key present
 * for the whole scan at least once, and may return a key more than once. So only
 * operations that leave the same result when applied twice are offered: {@code UNLINK},
 * {@code DEL}, {@code PEXPIRE} to a fixed time to live, and {@code PERSIST}. Keys added
 * or removed while the scan runs may or may not be visited.
 * <p>
 * <b>Resumable.</b> The {@link BulkResults#cursor() cursor} of the results, or of the
 * {@link BulkException} thrown when the operation did not complete, holds a {@code SCAN}
 * cursor per master: for each master, the position before the first page that has a
 * command that did not succeed (or, when all did, where the scan of that master got to).
 * Pass it to {@link #from(ScanCursor)} (or save {@link ScanCursor#toToken()} and restore
 * it with {@link ScanCursor#fromToken(String)}) to continue: nothing that was left undone
 * is skipped, and pages that were partly done are applied again, which is harmless for
 * these operations.
 * <p>
 * <b>Options.</b> The batch runs with the template's default options, or the ones given
 * to {@link #options(BatchOptions)}: chunk size, window, per-chunk timeout, the rate cap
 * (polite mode), the name it is observed under, and retry. With retry, a lost connection
 * or a {@code LOADING} server pauses the batch instead of ending it, and each
 * {@code SCAN} call that fails is tried again after the backoff, up to the same number of
 * attempts. Transactional options are refused.
 *
 * <pre class="code">
 * BulkResults results = batchTemplate.scan(ScanOptions.scanOptions().match("order:*").count(1000).build()).unlink();
 * </pre>
 *
 * @since 0.1.0
 */
public interface BulkOperations {

	/**
	 * Continue a bulk operation from a cursor.
	 * @param cursor where to resume: from {@link BulkResults#cursor()}, from the results
	 * of a {@link BulkException}, or from {@link ScanCursor#fromToken(String)};
	 * {@code null} to start from the beginning
	 * @return a copy that starts there
	 */
	BulkOperations from(@Nullable ScanCursor cursor);

	/**
	 * Run with these options instead of the template's defaults (values left unset still
	 * come from the defaults).
	 * @param options the options; not transactional
	 * @return a copy with these options
	 * @throws IllegalArgumentException for transactional options, before any I/O
	 */
	BulkOperations options(BatchOptions options);

	/**
	 * {@code UNLINK} every matching key (removed now, its memory reclaimed in the
	 * background).
	 * @return the results; {@link BulkResults#keysChanged()} is the number of keys
	 * removed
	 * @throws BulkException when the operation did not complete; its results carry the
	 * cursor to resume from
	 */
	BulkResults unlink();

	/**
	 * {@code DEL} every matching key.
	 * @return the results; {@link BulkResults#keysChanged()} is the number of keys
	 * removed
	 * @throws BulkException when the operation did not complete; its results carry the
	 * cursor to resume from
	 */
	BulkResults del();

	/**
	 * {@code PEXPIRE} every matching key: it expires {@code ttl} after its command ran.
	 * @param ttl the time to live, at least 1 ms
	 * @return the results; {@link BulkResults#keysChanged()} is the number of keys whose
	 * time to live was set
	 * @throws BulkException when the operation did not complete; its results carry the
	 * cursor to resume from
	 * @throws IllegalArgumentException for a time to live below 1 ms, before any I/O
	 */
	BulkResults expire(Duration ttl);

	/**
	 * {@code PERSIST} every matching key: remove its time to live.
	 * @return the results; {@link BulkResults#keysChanged()} is the number of keys that
	 * had one
	 * @throws BulkException when the operation did not complete; its results carry the
	 * cursor to resume from
	 */
	BulkResults persist();

	/**
	 * A dry run: scan and count the matching keys, sending no command to them.
	 * {@link BulkResults#keysMatched()} counts every key {@code SCAN} returned, so a key
	 * returned twice counts twice: it is at least the number of matching keys present for
	 * the whole scan.
	 * @return the results, with no commands
	 * @throws BulkException when a {@code SCAN} call failed; its results carry the cursor
	 * to resume from
	 */
	BulkResults count();

}
