package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.KeyScanOptions;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.Assert;

/**
 * The {@link KeyScanner} of a {@link BatchTemplate}: one {@code SCAN} call per
 * {@link #next()}, on the first master (by lowest slot) that the cursor has not finished,
 * on a connection borrowed from that master's pool for the call.
 *
 * @param <K> the key type
 */
final class MasterKeyScanner<K> implements KeyScanner<K> {

	private final BatchConnectionPool pool;

	private final RedisSerializer<K> keySerializer;

	private final KeyScanArgs args;

	private final Duration timeout;

	private ScanCursor position;

	MasterKeyScanner(BatchConnectionPool pool, RedisSerializer<K> keySerializer, ScanOptions options, Duration timeout,
			@Nullable ScanCursor from) {
		this.pool = pool;
		this.keySerializer = keySerializer;
		this.args = scanArgs(options);
		this.timeout = timeout;
		this.position = (from != null) ? from : ScanCursor.start();
	}

	/**
	 * The arguments of every call, checked before any I/O.
	 */
	static KeyScanArgs scanArgs(ScanOptions options) {
		Assert.notNull(options, "options must not be null");
		KeyScanArgs args = new KeyScanArgs();
		if (options instanceof KeyScanOptions keyOptions && keyOptions.getType() != null) {
			Assert.hasText(keyOptions.getType(), "the TYPE of a scan must not be empty");
			args.type(keyOptions.getType());
		}
		byte[] pattern = options.getBytePattern();
		if (pattern != null) {
			Assert.isTrue(pattern.length > 0, "the MATCH pattern of a scan must not be empty");
			args.match(pattern);
		}
		Long count = options.getCount();
		if (count != null) {
			Assert.isTrue(count >= 1, () -> "the COUNT of a scan must be at least 1 but was " + count);
			args.limit(count);
		}
		return args;
	}

	@Override
	public boolean hasNext() {
		return !this.position.isComplete();
	}

	@Override
	public List<K> next() {
		if (this.position.isComplete()) {
			throw new NoSuchElementException("The scan is complete");
		}
		SortedMap<Integer, NodePool> masters = this.pool.mastersByLowestSlot();
		Map.Entry<Integer, NodePool> target = null;
		for (Map.Entry<Integer, NodePool> master : masters.entrySet()) {
			if (!this.position.isFinished(master.getKey())) {
				target = master;
				break;
			}
		}
		if (target == null) {
			this.position = ScanCursor.end();
			return new ArrayList<>();
		}
		int master = target.getKey();
		KeyScanCursor<byte[]> page = scan(target.getValue(), this.position.cursorOf(master));
		List<K> keys = new ArrayList<>(page.getKeys().size());
		for (byte[] key : page.getKeys()) {
			// exactly-once batches' markers are the batches' own
			if (!ExactlyOnce.isMarker(key)) {
				keys.add(this.keySerializer.deserialize(key));
			}
		}
		ScanCursor next = (page.isFinished() || "0".equals(page.getCursor())) ? this.position.finish(master)
				: this.position.advance(master, page.getCursor());
		boolean allFinished = masters.keySet().stream().allMatch(next::isFinished);
		this.position = allFinished ? ScanCursor.end() : next;
		return keys;
	}

	@Override
	public ScanCursor cursor() {
		return this.position;
	}

	/**
	 * One {@code SCAN} call on a master, on a connection borrowed for it.
	 * @throws DataAccessException when it failed or timed out
	 */
	KeyScanCursor<byte[]> scan(NodePool node, String cursor) {
		BatchConnection connection = node.borrow();
		boolean healthy = false;
		try {
			KeyScanCursor<byte[]> page = connection.lettuce()
				.async()
				.scan(io.lettuce.core.ScanCursor.of(cursor), this.args)
				.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			healthy = true;
			return page;
		}
		catch (TimeoutException ex) {
			throw failed(new QueryTimeoutException(
					"SCAN on " + node.address() + " got no reply within " + this.timeout + " (the template's timeout)",
					ex));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failed(
					new RedisConnectionFailureException("Interrupted while waiting for SCAN on " + node.address(), ex));
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			if (cause instanceof RedisCommandExecutionException) {
				// Redis answered with an error: the connection is fine
				healthy = true;
				throw new RedisSystemException("SCAN on " + node.address() + " failed: " + cause.getMessage(), cause);
			}
			throw failed(new RedisConnectionFailureException(
					"SCAN on " + node.address() + " failed: " + cause.getMessage(), cause));
		}
		catch (RuntimeException ex) {
			throw failed(new RedisConnectionFailureException(
					"SCAN on " + node.address() + " failed: " + ex.getMessage(), ex));
		}
		finally {
			if (healthy) {
				node.release(connection);
			}
			else {
				node.invalidate(connection);
			}
		}
	}

	/**
	 * After a lost connection or a timeout on a cluster, read the topology again, so that
	 * the next call finds the replica that took over.
	 */
	private DataAccessException failed(DataAccessException ex) {
		if (this.pool.topology() == BatchConnectionPool.Topology.CLUSTER) {
			this.pool.refreshTopology();
		}
		return ex;
	}

}
