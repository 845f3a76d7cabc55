package dev.redisbatch.springbatch;

import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.util.Assert;

/**
 * Ready-made {@link RedisItemMapper}s for the common cases. Each is idempotent: writing
 * an item twice leaves Redis as writing it once does, so the writer may send it again
 * whatever happened to the first attempt.
 *
 * <pre class="code">
 * RedisItemMappers.value((Order order) -&gt; "order:" + order.id(), Order::json, Duration.ofHours(1));
 * RedisItemMappers.beanHash((Customer customer) -&gt; "customer:" + customer.getId(), null);
 * RedisItemMappers.sortedSetMember((Score score) -&gt; "leaderboard", Score::points, Score::player);
 * </pre>
 *
 * @since 0.1.0
 */
public final class RedisItemMappers {

	private RedisItemMappers() {
	}

	/**
	 * {@code SET key value}, with {@code PX ttl} when a time to live is given.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of an item
	 * @param value the value of an item
	 * @param ttl the time to live (at least one millisecond), or {@code null} for none
	 * @return the mapper
	 */
	public static <K, V, T> RedisItemMapper<K, V, T> value(Function<? super T, K> key, Function<? super T, V> value,
			@Nullable Duration ttl) {
		Assert.notNull(key, "key must not be null");
		Assert.notNull(value, "value must not be null");
		checkTtl(ttl);
		return RedisItemMapper.idempotent((batch, item) -> {
			if (ttl != null) {
				batch.set(key.apply(item), value.apply(item), ttl);
			}
			else {
				batch.set(key.apply(item), value.apply(item));
			}
		});
	}

	/**
	 * {@code HSET key field value} for every field of a map, then {@code PEXPIRE key ttl}
	 * when a time to live is given. Fields already in the hash and not in the map are
	 * kept.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of an item
	 * @param fields the fields and values of an item, serialized with the template's hash
	 * serializers
	 * @param ttl the time to live (at least one millisecond), or {@code null} for none
	 * @return the mapper
	 */
	public static <K, V, T> RedisItemMapper<K, V, T> hash(Function<? super T, K> key,
			Function<? super T, ? extends Map<?, ?>> fields, @Nullable Duration ttl) {
		Assert.notNull(key, "key must not be null");
		Assert.notNull(fields, "fields must not be null");
		checkTtl(ttl);
		return RedisItemMapper.idempotent((batch, item) -> {
			K hashKey = key.apply(item);
			fields.apply(item).forEach((field, value) -> batch.hset(hashKey, field, value));
			if (ttl != null) {
				batch.expire(hashKey, ttl);
			}
		});
	}

	/**
	 * A hash of a bean's readable properties (as {@link #hash}): one field per property
	 * named as the property, with its value as text ({@code String.valueOf}); properties
	 * whose value is {@code null} are left out. Suits templates whose hash fields and
	 * values are strings.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of an item
	 * @param ttl the time to live (at least one millisecond), or {@code null} for none
	 * @return the mapper
	 */
	public static <K, V, T> RedisItemMapper<K, V, T> beanHash(Function<? super T, K> key, @Nullable Duration ttl) {
		return hash(key, RedisItemMappers::properties, ttl);
	}

	/**
	 * {@code SADD key member}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of the set of an item
	 * @param member the member of an item
	 * @return the mapper
	 */
	@SuppressWarnings("unchecked")
	public static <K, V, T> RedisItemMapper<K, V, T> setMember(Function<? super T, K> key,
			Function<? super T, V> member) {
		Assert.notNull(key, "key must not be null");
		Assert.notNull(member, "member must not be null");
		return RedisItemMapper.idempotent((batch, item) -> batch.sadd(key.apply(item), member.apply(item)));
	}

	/**
	 * {@code ZADD key score member}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of the sorted set of an item
	 * @param score the score of an item
	 * @param member the member of an item
	 * @return the mapper
	 */
	public static <K, V, T> RedisItemMapper<K, V, T> sortedSetMember(Function<? super T, K> key,
			ToDoubleFunction<? super T> score, Function<? super T, V> member) {
		Assert.notNull(key, "key must not be null");
		Assert.notNull(score, "score must not be null");
		Assert.notNull(member, "member must not be null");
		return RedisItemMapper
			.idempotent((batch, item) -> batch.zadd(key.apply(item), score.applyAsDouble(item), member.apply(item)));
	}

	/**
	 * {@code DEL key}.
	 * @param <K> the key type
	 * @param <V> the value type
	 * @param <T> the item type
	 * @param key the key of an item
	 * @return the mapper
	 */
	public static <K, V, T> RedisItemMapper<K, V, T> delete(Function<? super T, K> key) {
		Assert.notNull(key, "key must not be null");
		return RedisItemMapper.idempotent((batch, item) -> batch.del(key.apply(item)));
	}

	private static void checkTtl(@Nullable Duration ttl) {
		Assert.isTrue(ttl == null || ttl.toMillis() >= 1, () -> "ttl must be at least 1 ms but was " + ttl);
	}

	private static Map<String, String> properties(Object bean) {
		BeanWrapper wrapper = PropertyAccessorFactory.forBeanPropertyAccess(bean);
		Map<String, String> fields = new LinkedHashMap<>();
		for (PropertyDescriptor property : wrapper.getPropertyDescriptors()) {
			String name = property.getName();
			if (!name.equals("class") && wrapper.isReadableProperty(name)) {
				Object value = wrapper.getPropertyValue(name);
				if (value != null) {
					fields.put(name, String.valueOf(value));
				}
			}
		}
		return fields;
	}

}
