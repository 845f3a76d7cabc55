package dev.redisbatch;

import java.nio.charset.StandardCharsets;
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
import java.util.function.Supplier;

import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.MapOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.output.ValueSetOutput;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * The {@link Batch} handed to a {@link BatchCallback}: serializes keys and values with
 * the template's serializers, writes each command straight into the open chunk, and gives
 * it a Lettuce output of the command's reply type.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class DefaultBatch<K, V> implements Batch<K, V> {

	private static final ByteArrayCodec CODEC = ByteArrayCodec.INSTANCE;

	private static final Supplier<CommandOutput<byte[], byte[], ?>> STATUS = () -> new StatusOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> VALUE = () -> new ValueOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> INTEGER = () -> new IntegerOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> BOOLEAN = () -> new BooleanOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> DOUBLE = () -> new DoubleOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> MAP = () -> new MapOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> VALUE_SET = () -> new ValueSetOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> VALUE_LIST = () -> new ValueListOutput<>(CODEC);

	private static final Supplier<CommandOutput<byte[], byte[], ?>> NESTED = () -> new NestedMultiOutput<>(CODEC);

	private final BatchSerializers<K, V> serializers;

	private final ChunkedPipeline pipeline;

	private final Thread owner = Thread.currentThread();

	private final boolean idempotent;

	private final AtomicBoolean closed;

	private @Nullable ByteBuf buffer;

	DefaultBatch(BatchSerializers<K, V> serializers, ChunkedPipeline pipeline) {
		this(serializers, pipeline, false, new AtomicBoolean());
	}

	private DefaultBatch(BatchSerializers<K, V> serializers, ChunkedPipeline pipeline, boolean idempotent,
			AtomicBoolean closed) {
		this.serializers = serializers;
		this.pipeline = pipeline;
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
		return this.idempotent ? this : new DefaultBatch<>(this.serializers, this.pipeline, true, this.closed);
	}

	// strings and keys

	@Override
	public Response<@Nullable V> get(K key) {
		byte[] k;
		try {
			k = key(requireKey(key));
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.GET, ex);
		}
		start(CommandType.GET, 1, k);
		return end(CommandType.GET, VALUE, this::deserializeValue);
	}

	@Override
	public Response<Boolean> set(K key, V value) {
		byte[] k;
		byte[] v;
		try {
			k = key(requireKey(key));
			v = value(requireValue(value));
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.SET, ex);
		}
		start(CommandType.SET, 2, k).bulk(v);
		return end(CommandType.SET, STATUS, DefaultBatch::ok);
	}

	@Override
	public Response<Boolean> set(K key, V value, Duration ttl) {
		return set(key, value, ttl, false);
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value) {
		byte[] k;
		byte[] v;
		try {
			k = key(requireKey(key));
			v = value(requireValue(value));
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.SET, ex);
		}
		start(CommandType.SET, 3, k).bulk(v).bulk(CommandKeyword.NX.getBytes());
		return end(CommandType.SET, STATUS, DefaultBatch::ok);
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value, Duration ttl) {
		return set(key, value, ttl, true);
	}

	private Response<Boolean> set(K key, V value, Duration ttl, boolean ifAbsent) {
		long millis = ttlMillis(ttl);
		byte[] k;
		byte[] v;
		try {
			k = key(requireKey(key));
			v = value(requireValue(value));
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.SET, ex);
		}
		CommandBytes command = start(CommandType.SET, ifAbsent ? 5 : 4, k).bulk(v);
		if (ifAbsent) {
			command.bulk(CommandKeyword.NX.getBytes());
		}
		command.bulk(PX).bulk(millis);
		return end(CommandType.SET, STATUS, DefaultBatch::ok);
	}

	@Override
	public Response<Long> incr(K key) {
		return keyCommand(CommandType.INCR, key, INTEGER, DefaultBatch::asLong);
	}

	@Override
	public Response<Long> incrBy(K key, long delta) {
		return keyAndNumber(CommandType.INCRBY, key, delta);
	}

	@Override
	public Response<Long> decr(K key) {
		return keyCommand(CommandType.DECR, key, INTEGER, DefaultBatch::asLong);
	}

	@Override
	public Response<Long> decrBy(K key, long delta) {
		return keyAndNumber(CommandType.DECRBY, key, delta);
	}

	@Override
	public Response<Long> del(K key) {
		return keyCommand(CommandType.DEL, key, INTEGER, DefaultBatch::asLong);
	}

	@Override
	public Response<Boolean> exists(K key) {
		return keyCommand(CommandType.EXISTS, key, INTEGER, (raw) -> asLong(raw) > 0);
	}

	@Override
	public Response<Boolean> expire(K key, Duration ttl) {
		long millis = ttlMillis(ttl);
		byte[] k;
		try {
			k = key(requireKey(key));
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.PEXPIRE, ex);
		}
		start(CommandType.PEXPIRE, 2, k).bulk(millis);
		return end(CommandType.PEXPIRE, BOOLEAN, DefaultBatch::asBoolean);
	}

	@Override
	public Response<Long> ttl(K key) {
		return keyCommand(CommandType.TTL, key, INTEGER, DefaultBatch::asLong);
	}

	// hashes

	@Override
	public <HK, HV> Response<@Nullable HV> hget(K key, HK field) {
		Assert.notNull(field, "hash field must not be null");
		byte[] k;
		byte[] f;
		try {
			k = key(requireKey(key));
			f = hashKey(field);
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.HGET, ex);
		}
		start(CommandType.HGET, 2, k).bulk(f);
		return end(CommandType.HGET, VALUE, this::hashValue);
	}

	@Override
	public <HK, HV> Response<Boolean> hset(K key, HK field, HV value) {
		Assert.notNull(field, "hash field must not be null");
		Assert.notNull(value, "hash value must not be null");
		byte[] k;
		byte[] f;
		byte[] v;
		try {
			k = key(requireKey(key));
			f = hashKey(field);
			v = hashValueBytes(value);
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.HSET, ex);
		}
		start(CommandType.HSET, 3, k).bulk(f).bulk(v);
		return end(CommandType.HSET, BOOLEAN, DefaultBatch::asBoolean);
	}

	@Override
	public <HK, HV> Response<Map<HK, HV>> hgetAll(K key) {
		return keyCommand(CommandType.HGETALL, key, MAP, this::hashEntries);
	}

	@Override
	@SafeVarargs
	public final <HK> Response<Long> hdel(K key, HK... fields) {
		requireElements(fields, "hash fields");
		byte[] k;
		byte[][] f;
		try {
			k = key(requireKey(key));
			f = hashKeys(fields);
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.HDEL, ex);
		}
		start(CommandType.HDEL, 1 + f.length, k).bulks(f);
		return end(CommandType.HDEL, INTEGER, DefaultBatch::asLong);
	}

	@Override
	public <HK> Response<Long> hincrBy(K key, HK field, long delta) {
		Assert.notNull(field, "hash field must not be null");
		byte[] k;
		byte[] f;
		try {
			k = key(requireKey(key));
			f = hashKey(field);
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.HINCRBY, ex);
		}
		start(CommandType.HINCRBY, 3, k).bulk(f).bulk(delta);
		return end(CommandType.HINCRBY, INTEGER, DefaultBatch::asLong);
	}

	// sets

	@Override
	@SafeVarargs
	public final Response<Long> sadd(K key, V... members) {
		return keyAndValues(CommandType.SADD, key, members, "members");
	}

	@Override
	@SafeVarargs
	public final Response<Long> srem(K key, V... members) {
		return keyAndValues(CommandType.SREM, key, members, "members");
	}

	@Override
	public Response<Set<V>> smembers(K key) {
		return keyCommand(CommandType.SMEMBERS, key, VALUE_SET, this::valueSet);
	}

	@Override
	public Response<Boolean> sismember(K key, V member) {
		return keyAndValue(CommandType.SISMEMBER, key, member, BOOLEAN, DefaultBatch::asBoolean);
	}

	// lists

	@Override
	@SafeVarargs
	public final Response<Long> lpush(K key, V... elements) {
		return keyAndValues(CommandType.LPUSH, key, elements, "elements");
	}

	@Override
	@SafeVarargs
	public final Response<Long> rpush(K key, V... elements) {
		return keyAndValues(CommandType.RPUSH, key, elements, "elements");
	}

	@Override
	public Response<List<V>> lrange(K key, long start, long stop) {
		return keyAndRange(CommandType.LRANGE, key, start, stop);
	}

	// sorted sets

	@Override
	public Response<Boolean> zadd(K key, double score, V member) {
		return scoreCommand(CommandType.ZADD, key, score, member, INTEGER, (raw) -> asLong(raw) > 0);
	}

	@Override
	public Response<@Nullable Double> zscore(K key, V member) {
		return keyAndValue(CommandType.ZSCORE, key, member, DOUBLE, (raw) -> (Double) raw);
	}

	@Override
	public Response<Double> zincrBy(K key, double delta, V member) {
		return scoreCommand(CommandType.ZINCRBY, key, delta, member, DOUBLE, (raw) -> (Double) raw);
	}

	@Override
	public Response<List<V>> zrange(K key, long start, long stop) {
		return keyAndRange(CommandType.ZRANGE, key, start, stop);
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
		byte[] source = script.getScriptAsString().getBytes(StandardCharsets.UTF_8);
		byte[][] rawKeys = new byte[keys.size()][];
		byte[][] rawArgs = new byte[args.length][];
		try {
			for (int i = 0; i < rawKeys.length; i++) {
				rawKeys[i] = key(keys.get(i));
			}
			for (int i = 0; i < rawArgs.length; i++) {
				rawArgs[i] = serialize((RedisSerializer<Object>) this.serializers.value(), args[i], "script argument");
			}
		}
		catch (ItemSerializationException ex) {
			return failed(CommandType.EVAL, ex);
		}
		int slot = this.pipeline.slotOf(rawKeys);
		if (slot == Slots.CROSS) {
			checkUsable();
			return this.pipeline.addFailed(CommandType.EVAL.name(), ChunkedPipeline.crossSlotMessage("EVAL", rawKeys),
					null);
		}
		startAt(CommandType.EVAL, 2 + rawKeys.length + rawArgs.length, slot).bulk(source)
			.bulk(rawKeys.length)
			.bulks(rawKeys)
			.bulks(rawArgs);
		Supplier<CommandOutput<byte[], byte[], ?>> output = switch (returnType) {
			case STATUS -> STATUS;
			case INTEGER -> INTEGER;
			case BOOLEAN -> BOOLEAN;
			case VALUE -> VALUE;
			case MULTI -> NESTED;
		};
		return end(CommandType.EVAL, output, (raw) -> (T) scriptResult(raw, returnType));
	}

	// shapes of commands

	private <T> Response<T> keyCommand(CommandType type, K key, Supplier<CommandOutput<byte[], byte[], ?>> output,
			Function<@Nullable Object, T> converter) {
		byte[] k;
		try {
			k = key(requireKey(key));
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 1, k);
		return end(type, output, converter);
	}

	private Response<Long> keyAndNumber(CommandType type, K key, long number) {
		byte[] k;
		try {
			k = key(requireKey(key));
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 2, k).bulk(number);
		return end(type, INTEGER, DefaultBatch::asLong);
	}

	private <T> Response<T> keyAndValue(CommandType type, K key, V value,
			Supplier<CommandOutput<byte[], byte[], ?>> output, Function<@Nullable Object, T> converter) {
		byte[] k;
		byte[] v;
		try {
			k = key(requireKey(key));
			v = value(requireValue(value));
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 2, k).bulk(v);
		return end(type, output, converter);
	}

	private Response<Long> keyAndValues(CommandType type, K key, V[] values, String what) {
		requireElements(values, what);
		byte[] k;
		byte[][] v;
		try {
			k = key(requireKey(key));
			v = values(values);
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 1 + v.length, k).bulks(v);
		return end(type, INTEGER, DefaultBatch::asLong);
	}

	private Response<List<V>> keyAndRange(CommandType type, K key, long start, long stop) {
		byte[] k;
		try {
			k = key(requireKey(key));
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 3, k).bulk(start).bulk(stop);
		return end(type, VALUE_LIST, this::valueList);
	}

	private <T> Response<T> scoreCommand(CommandType type, K key, double score, V member,
			Supplier<CommandOutput<byte[], byte[], ?>> output, Function<@Nullable Object, T> converter) {
		byte[] k;
		byte[] m;
		try {
			k = key(requireKey(key));
			m = value(requireValue(member));
		}
		catch (ItemSerializationException ex) {
			return failed(type, ex);
		}
		start(type, 3, k).bulk(RespWriter.doubleBytes(score)).bulk(m);
		return end(type, output, converter);
	}

	// recording

	private static final byte[] PX = CommandKeyword.PX.getBytes();

	/**
	 * Start writing a command into the open chunk; every key and value must already be
	 * serialized.
	 */
	/**
	 * Start writing a command whose first argument is its key, which routes it (on a
	 * cluster, to the master of the key's slot).
	 */
	private CommandBytes start(CommandType type, int arguments, byte[] key) {
		return startAt(type, arguments, this.pipeline.slotOf(key)).bulk(key);
	}

	private CommandBytes startAt(CommandType type, int arguments, int slot) {
		checkUsable();
		ByteBuf target = this.pipeline.startCommand(slot);
		this.buffer = target;
		RespWriter.array(target, 1 + arguments);
		RespWriter.bulk(target, type);
		return this.bytes;
	}

	private <T> Response<T> end(CommandType type, Supplier<CommandOutput<byte[], byte[], ?>> output,
			Function<@Nullable Object, T> converter) {
		this.buffer = null;
		return this.pipeline.endCommand(type, output.get(), converter, output, this.idempotent);
	}

	private <T> Response<T> failed(CommandType type, ItemSerializationException ex) {
		checkUsable();
		return this.pipeline.addFailed(type.name(), String.valueOf(ex.getMessage()), ex.getCause());
	}

	private final CommandBytes bytes = new CommandBytes();

	/**
	 * Appends the arguments of the command being written.
	 */
	private final class CommandBytes {

		CommandBytes bulk(byte[] argument) {
			RespWriter.bulk(target(), argument);
			return this;
		}

		CommandBytes bulk(long argument) {
			RespWriter.bulk(target(), argument);
			return this;
		}

		CommandBytes bulks(byte[][] arguments) {
			for (byte[] argument : arguments) {
				RespWriter.bulk(target(), argument);
			}
			return this;
		}

		private ByteBuf target() {
			ByteBuf target = DefaultBatch.this.buffer;
			if (target == null) {
				throw new IllegalStateException("No command is being written");
			}
			return target;
		}

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

	private K requireKey(@Nullable K key) {
		Assert.notNull(key, "key must not be null");
		return key;
	}

	private V requireValue(@Nullable V value) {
		Assert.notNull(value, "value must not be null");
		return value;
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
