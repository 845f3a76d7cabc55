package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.protocol.CommandType;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * The {@link Batch} handed to a {@link BatchCallback}: serializes keys and values with
 * the template's serializers and records each command through Lettuce's command builder
 * into the {@link ChunkedPipeline}.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class DefaultBatch<K, V> implements Batch<K, V> {

	private final BatchSerializers<K, V> serializers;

	private final ChunkedPipeline pipeline;

	private final CommandRecorder recorder;

	private final RedisAsyncCommands<byte[], byte[]> commands;

	private final Thread owner = Thread.currentThread();

	private final boolean idempotent;

	private final AtomicBoolean closed;

	DefaultBatch(BatchSerializers<K, V> serializers, ChunkedPipeline pipeline, CommandRecorder recorder) {
		this(serializers, pipeline, recorder, false, new AtomicBoolean());
	}

	private DefaultBatch(BatchSerializers<K, V> serializers, ChunkedPipeline pipeline, CommandRecorder recorder,
			boolean idempotent, AtomicBoolean closed) {
		this.serializers = serializers;
		this.pipeline = pipeline;
		this.recorder = recorder;
		this.commands = recorder.commands();
		this.idempotent = idempotent;
		this.closed = closed;
	}

	/**
	 * No more commands may be recorded: the callback returned.
	 */
	void close() {
		this.closed.set(true);
	}

	@Override
	public Batch<K, V> idempotent() {
		return this.idempotent ? this
				: new DefaultBatch<>(this.serializers, this.pipeline, this.recorder, true, this.closed);
	}

	// strings and keys

	@Override
	public Response<@Nullable V> get(K key) {
		requireKey(key);
		return record(CommandType.GET, this::deserializeValue, (c) -> c.get(key(key)));
	}

	@Override
	public Response<Boolean> set(K key, V value) {
		requireKey(key);
		requireValue(value);
		return record(CommandType.SET, DefaultBatch::ok, (c) -> c.set(key(key), value(value)));
	}

	@Override
	public Response<Boolean> set(K key, V value, Duration ttl) {
		requireKey(key);
		requireValue(value);
		long millis = ttlMillis(ttl);
		return record(CommandType.SET, DefaultBatch::ok,
				(c) -> c.set(key(key), value(value), SetArgs.Builder.px(millis)));
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value) {
		requireKey(key);
		requireValue(value);
		return record(CommandType.SET, DefaultBatch::ok, (c) -> c.set(key(key), value(value), SetArgs.Builder.nx()));
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value, Duration ttl) {
		requireKey(key);
		requireValue(value);
		long millis = ttlMillis(ttl);
		return record(CommandType.SET, DefaultBatch::ok,
				(c) -> c.set(key(key), value(value), SetArgs.Builder.nx().px(millis)));
	}

	@Override
	public Response<Long> incr(K key) {
		requireKey(key);
		return record(CommandType.INCR, DefaultBatch::asLong, (c) -> c.incr(key(key)));
	}

	@Override
	public Response<Long> incrBy(K key, long delta) {
		requireKey(key);
		return record(CommandType.INCRBY, DefaultBatch::asLong, (c) -> c.incrby(key(key), delta));
	}

	@Override
	public Response<Long> decr(K key) {
		requireKey(key);
		return record(CommandType.DECR, DefaultBatch::asLong, (c) -> c.decr(key(key)));
	}

	@Override
	public Response<Long> decrBy(K key, long delta) {
		requireKey(key);
		return record(CommandType.DECRBY, DefaultBatch::asLong, (c) -> c.decrby(key(key), delta));
	}

	@Override
	public Response<Long> del(K key) {
		requireKey(key);
		return record(CommandType.DEL, DefaultBatch::asLong, (c) -> c.del(key(key)));
	}

	@Override
	public Response<Boolean> exists(K key) {
		requireKey(key);
		return record(CommandType.EXISTS, (raw) -> asLong(raw) > 0, (c) -> c.exists(key(key)));
	}

	@Override
	public Response<Boolean> expire(K key, Duration ttl) {
		requireKey(key);
		long millis = ttlMillis(ttl);
		return record(CommandType.PEXPIRE, DefaultBatch::asBoolean, (c) -> c.pexpire(key(key), millis));
	}

	@Override
	public Response<Long> ttl(K key) {
		requireKey(key);
		return record(CommandType.TTL, DefaultBatch::asLong, (c) -> c.ttl(key(key)));
	}

	// hashes

	@Override
	public <HK, HV> Response<@Nullable HV> hget(K key, HK field) {
		requireKey(key);
		Assert.notNull(field, "hash field must not be null");
		return record(CommandType.HGET, this::hashValue, (c) -> c.hget(key(key), hashKey(field)));
	}

	@Override
	public <HK, HV> Response<Boolean> hset(K key, HK field, HV value) {
		requireKey(key);
		Assert.notNull(field, "hash field must not be null");
		Assert.notNull(value, "hash value must not be null");
		return record(CommandType.HSET, DefaultBatch::asBoolean,
				(c) -> c.hset(key(key), hashKey(field), hashValueBytes(value)));
	}

	@Override
	public <HK, HV> Response<Map<HK, HV>> hgetAll(K key) {
		requireKey(key);
		return record(CommandType.HGETALL, this::hashEntries, (c) -> c.hgetall(key(key)));
	}

	@Override
	@SafeVarargs
	public final <HK> Response<Long> hdel(K key, HK... fields) {
		requireKey(key);
		requireElements(fields, "hash fields");
		return record(CommandType.HDEL, DefaultBatch::asLong, (c) -> c.hdel(key(key), hashKeys(fields)));
	}

	@Override
	public <HK> Response<Long> hincrBy(K key, HK field, long delta) {
		requireKey(key);
		Assert.notNull(field, "hash field must not be null");
		return record(CommandType.HINCRBY, DefaultBatch::asLong, (c) -> c.hincrby(key(key), hashKey(field), delta));
	}

	// sets

	@Override
	@SafeVarargs
	public final Response<Long> sadd(K key, V... members) {
		requireKey(key);
		requireElements(members, "members");
		return record(CommandType.SADD, DefaultBatch::asLong, (c) -> c.sadd(key(key), values(members)));
	}

	@Override
	@SafeVarargs
	public final Response<Long> srem(K key, V... members) {
		requireKey(key);
		requireElements(members, "members");
		return record(CommandType.SREM, DefaultBatch::asLong, (c) -> c.srem(key(key), values(members)));
	}

	@Override
	public Response<Set<V>> smembers(K key) {
		requireKey(key);
		return record(CommandType.SMEMBERS, this::valueSet, (c) -> c.smembers(key(key)));
	}

	@Override
	public Response<Boolean> sismember(K key, V member) {
		requireKey(key);
		requireValue(member);
		return record(CommandType.SISMEMBER, DefaultBatch::asBoolean, (c) -> c.sismember(key(key), value(member)));
	}

	// lists

	@Override
	@SafeVarargs
	public final Response<Long> lpush(K key, V... elements) {
		requireKey(key);
		requireElements(elements, "elements");
		return record(CommandType.LPUSH, DefaultBatch::asLong, (c) -> c.lpush(key(key), values(elements)));
	}

	@Override
	@SafeVarargs
	public final Response<Long> rpush(K key, V... elements) {
		requireKey(key);
		requireElements(elements, "elements");
		return record(CommandType.RPUSH, DefaultBatch::asLong, (c) -> c.rpush(key(key), values(elements)));
	}

	@Override
	public Response<List<V>> lrange(K key, long start, long stop) {
		requireKey(key);
		return record(CommandType.LRANGE, this::valueList, (c) -> c.lrange(key(key), start, stop));
	}

	// sorted sets

	@Override
	public Response<Boolean> zadd(K key, double score, V member) {
		requireKey(key);
		requireValue(member);
		return record(CommandType.ZADD, (raw) -> asLong(raw) > 0, (c) -> c.zadd(key(key), score, value(member)));
	}

	@Override
	public Response<@Nullable Double> zscore(K key, V member) {
		requireKey(key);
		requireValue(member);
		return record(CommandType.ZSCORE, (raw) -> (Double) raw, (c) -> c.zscore(key(key), value(member)));
	}

	@Override
	public Response<Double> zincrBy(K key, double delta, V member) {
		requireKey(key);
		requireValue(member);
		return record(CommandType.ZINCRBY, (raw) -> (Double) raw, (c) -> c.zincrby(key(key), delta, value(member)));
	}

	@Override
	public Response<List<V>> zrange(K key, long start, long stop) {
		requireKey(key);
		return record(CommandType.ZRANGE, this::valueList, (c) -> c.zrange(key(key), start, stop));
	}

	// scripts

	@Override
	@SuppressWarnings("unchecked")
	public <T> Response<@Nullable T> eval(RedisScript<T> script, List<K> keys, Object... args) {
		Assert.notNull(script, "script must not be null");
		Assert.notNull(keys, "keys must not be null");
		Assert.notNull(args, "args must not be null");
		keys.forEach(this::requireKey);
		for (Object arg : args) {
			Assert.notNull(arg, "script arguments must not be null");
		}
		ReturnType returnType = ReturnType.fromJavaType(script.getResultType());
		ScriptOutputType outputType = ScriptOutputType.valueOf(returnType.name());
		byte[] source = script.getScriptAsString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
		return record(CommandType.EVAL, (raw) -> (T) scriptResult(raw, returnType), (c) -> {
			byte[][] rawKeys = new byte[keys.size()][];
			for (int i = 0; i < rawKeys.length; i++) {
				rawKeys[i] = key(keys.get(i));
			}
			byte[][] rawArgs = new byte[args.length][];
			for (int i = 0; i < rawArgs.length; i++) {
				rawArgs[i] = serialize((RedisSerializer<Object>) this.serializers.value(), args[i], "script argument");
			}
			c.eval(source, outputType, rawKeys, rawArgs);
		});
	}

	// recording

	private <T> Response<T> record(CommandType type, Function<@Nullable Object, T> converter,
			CommandResponse.Recipe recipe) {
		checkUsable();
		try {
			this.recorder.expect(converter, recipe, this.idempotent);
			recipe.record(this.commands);
		}
		catch (ItemSerializationException ex) {
			this.recorder.expectRaw();
			return this.pipeline.addFailed(type.name(), ex.getMessage(), ex.getCause());
		}
		return this.recorder.takeLast();
	}

	private void checkUsable() {
		if (this.closed.get()) {
			throw new IllegalStateException(
					"This batch is complete: record commands inside the batch callback, not after it returned");
		}
		if (Thread.currentThread() != this.owner) {
			throw new IllegalStateException("A Batch is not thread-safe: record commands on the thread that runs "
					+ "the batch callback (use parallelism for concurrent chunks)");
		}
	}

	// serialization

	private byte[] key(K key) {
		return serialize(this.serializers.key(), key, "key");
	}

	private byte[] value(V value) {
		return serialize(this.serializers.value(), value, "value");
	}

	private byte[][] values(V[] values) {
		byte[][] raw = new byte[values.length][];
		for (int i = 0; i < values.length; i++) {
			raw[i] = value(values[i]);
		}
		return raw;
	}

	@SuppressWarnings("unchecked")
	private byte[] hashKey(Object field) {
		return serialize((RedisSerializer<Object>) this.serializers.hashKey(), field, "hash field");
	}

	private byte[][] hashKeys(Object[] fields) {
		byte[][] raw = new byte[fields.length][];
		for (int i = 0; i < fields.length; i++) {
			raw[i] = hashKey(fields[i]);
		}
		return raw;
	}

	@SuppressWarnings("unchecked")
	private byte[] hashValueBytes(Object value) {
		return serialize((RedisSerializer<Object>) this.serializers.hashValue(), value, "hash value");
	}

	private static <T> byte[] serialize(RedisSerializer<T> serializer, T item, String what) {
		byte[] raw;
		try {
			raw = serializer.serialize(item);
		}
		catch (RuntimeException ex) {
			throw new ItemSerializationException(
					"the " + what + " could not be serialized (" + ex.getClass().getSimpleName() + "); it was not sent",
					withoutMessage(ex));
		}
		if (raw == null) {
			throw new ItemSerializationException("the " + what + " serializer returned null; it was not sent",
					new IllegalArgumentException("serializer returned null"));
		}
		return raw;
	}

	/**
	 * The serializer's exception without its message, which may quote the data (JSON
	 * serializers do): its type and stack trace are kept for debugging.
	 */
	private static SerializationException withoutMessage(RuntimeException ex) {
		SerializationException sanitized = new SerializationException(
				ex.getClass().getName() + " (its message is not kept: it may contain the data)");
		sanitized.setStackTrace(ex.getStackTrace());
		return sanitized;
	}

	// deserialization

	private @Nullable V deserializeValue(@Nullable Object raw) {
		return (raw != null) ? this.serializers.value().deserialize((byte[]) raw) : null;
	}

	@SuppressWarnings("unchecked")
	private <HV> @Nullable HV hashValue(@Nullable Object raw) {
		return (raw != null) ? (HV) this.serializers.hashValue().deserialize((byte[]) raw) : null;
	}

	@SuppressWarnings("unchecked")
	private <HK, HV> Map<HK, HV> hashEntries(@Nullable Object raw) {
		Map<HK, HV> entries = new LinkedHashMap<>();
		if (raw != null) {
			((Map<byte[], byte[]>) raw)
				.forEach((field, value) -> entries.put((HK) this.serializers.hashKey().deserialize(field),
						(HV) this.serializers.hashValue().deserialize(value)));
		}
		return entries;
	}

	@SuppressWarnings("unchecked")
	private Set<V> valueSet(@Nullable Object raw) {
		Set<V> members = new LinkedHashSet<>();
		if (raw != null) {
			for (byte[] member : (Collection<byte[]>) raw) {
				members.add(this.serializers.value().deserialize(member));
			}
		}
		return members;
	}

	@SuppressWarnings("unchecked")
	private List<V> valueList(@Nullable Object raw) {
		List<V> elements = new ArrayList<>();
		if (raw != null) {
			for (byte[] element : (Collection<byte[]>) raw) {
				elements.add(this.serializers.value().deserialize(element));
			}
		}
		return elements;
	}

	private @Nullable Object scriptResult(@Nullable Object raw, ReturnType returnType) {
		if (raw == null) {
			return null;
		}
		if (returnType == ReturnType.VALUE && raw instanceof byte[] bytes) {
			return this.serializers.value().deserialize(bytes);
		}
		if (returnType == ReturnType.MULTI && raw instanceof List<?> list) {
			List<@Nullable Object> converted = new ArrayList<>(list.size());
			for (Object element : list) {
				converted.add((element instanceof byte[] || element instanceof List<?>)
						? scriptResult(element, (element instanceof byte[]) ? ReturnType.VALUE : ReturnType.MULTI)
						: element);
			}
			return converted;
		}
		return raw;
	}

	private static Boolean ok(@Nullable Object raw) {
		return raw != null;
	}

	private static Long asLong(@Nullable Object raw) {
		return (Long) raw;
	}

	private static Boolean asBoolean(@Nullable Object raw) {
		return Boolean.TRUE.equals(raw);
	}

	// input checks

	private void requireKey(@Nullable K key) {
		Assert.notNull(key, "key must not be null");
	}

	private void requireValue(@Nullable V value) {
		Assert.notNull(value, "value must not be null");
	}

	private static void requireElements(Object @Nullable [] elements, String what) {
		Assert.notEmpty(elements, () -> what + " must not be empty");
		for (Object element : elements) {
			Assert.notNull(element, () -> what + " must not contain null");
		}
	}

	private static long ttlMillis(@Nullable Duration ttl) {
		Assert.notNull(ttl, "ttl must not be null");
		Assert.isTrue(ttl.toMillis() >= 1, () -> "ttl must be at least 1 ms but was " + ttl);
		return ttl.toMillis();
	}

	/**
	 * A key or value of one command could not be serialized.
	 */
	private static final class ItemSerializationException extends RuntimeException {

		ItemSerializationException(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
