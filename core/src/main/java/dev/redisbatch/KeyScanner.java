package dev.redisbatch;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * A {@code SCAN} over every master, pulled one page at a time: on a Redis Cluster every
 * master in turn (never a replica), on a standalone server or behind Sentinel the one
 * master. Obtained from
 * {@link BatchTemplate#scanKeys(org.springframework.data.redis.core.ScanOptions, ScanCursor)}.
 * <p>
 * Each {@link #next()} runs one {@code SCAN} call on a pooled batch connection, borrowed
 * for the call and given back after it, and waits at most the template's default timeout
 * for the reply. Only the page it returns is held in memory. When a call fails,
 * {@link #cursor()} still tells where to resume: call {@link #next()} again, or start a
 * new scanner from the cursor later, even in another process (see
 * {@link ScanCursor#toToken()}).
 * <p>
 * A key may be returned more than once (see {@link ScanCursor}); every key present for
 * the whole scan is returned at least once. A scanner is meant for one thread at a time.
 *
 * <pre class="code">
 * KeyScanner&lt;String&gt; scanner = template.scanKeys(ScanOptions.scanOptions().match("order:*").count(500).build(), null);
 * while (scanner.hasNext()) {
 *     List&lt;String&gt; page = scanner.next();
 *     // ... process the page; save scanner.cursor().toToken() to resume after a failure
 * }
 * </pre>
 *
 * @param <K> the key type
 * @since 0.1.0
 */
public interface KeyScanner<K> {

	/**
	 * Whether any master is left to scan.
	 * @return {@code false} once the scan is complete
	 */
	boolean hasNext();

	/**
	 * Run one {@code SCAN} call on the next master that is not finished, and move the
	 * cursor past it.
	 * @return the keys of the page, deserialized with the template's key serializer; may
	 * be empty, as a {@code SCAN} page may be, while {@link #hasNext()} is still true
	 * @throws NoSuchElementException if the scan is complete
	 * @throws org.springframework.dao.DataAccessException if the call failed or timed out
	 * (the cursor is unchanged: calling again retries the same page)
	 */
	List<K> next();

	/**
	 * The position after the last page returned.
	 * @return the cursor
	 */
	ScanCursor cursor();

}
