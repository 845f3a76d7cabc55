package dev.redisbatch.springbatch;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.redisbatch.Batch;
import dev.redisbatch.Response;
import org.jspecify.annotations.Nullable;

/**
 * Records the read that fetches the value of one key: what {@code RedisBatchItemReader}
 * runs for every key of a {@code SCAN} page, all of a page in one batch.
 *
 * <pre class="code">
 * KeyFetcher&lt;String, String, String&gt; ttlAndValue = (batch, key) -&gt; batch.get(key);
 * </pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param <R> the type of what is read
 * @since 0.1.0
 */
@FunctionalInterface
public interface KeyFetcher<K, V, R> {

	/**
	 * Record the read of one key.
	 * @param batch the batch of the page
	 * @param key the key
	 * @return the response; a {@code null} value, an empty map or an empty collection
	 * means the key is gone (removed after the scan saw it), and it yields no item
	 */
	Response<? extends @Nullable R> fetch(Batch<K, V> batch, K key);

	/**
	 * {@code GET key}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @return the fetcher
	 */
	static <K, V> KeyFetcher<K, V, V> get() {
		return Batch::get;
	}

	/**
	 * {@code HGETALL key}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <HK> the hash field type
	 * @param <HV> the hash value type
	 * @return the fetcher
	 */
	static <K, V, HK, HV> KeyFetcher<K, V, Map<HK, HV>> hgetAll() {
		return Batch::hgetAll;
	}

	/**
	 * {@code SMEMBERS key}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @return the fetcher
	 */
	static <K, V> KeyFetcher<K, V, Set<V>> smembers() {
		return Batch::smembers;
	}

	/**
	 * {@code LRANGE key 0 -1}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @return the fetcher
	 */
	static <K, V> KeyFetcher<K, V, List<V>> list() {
		return (batch, key) -> batch.lrange(key, 0, -1);
	}

}
