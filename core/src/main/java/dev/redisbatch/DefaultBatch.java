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
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

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
import io.lettuce.core.protocol.ProtocolKeyword;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * The {@link Batch} handed to a {@link BatchCallback}. Every command takes one path: its
 * arguments are checked and serialized with the template's serializers into a
 * {@link CommandWriter}, which then writes the command straight into the open chunk, or,
 * when a serializer failed, records it {@link Outcome#FAILED} without sending it. Each
 * command gets a Lettuce output of its reply type and a converter to the response's
 * value.
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

	private static final Function<@Nullable Object, Boolean> OK = (raw) -> raw != null;

	private static final Function<@Nullable Object, Long> LONG = (raw) -> (Long) raw;

	private static final Function<@Nullable Object, Boolean> BOOL = (raw) -> Boolean.TRUE.equals(raw);

	private static final Function<@Nullable Object, Boolean> POSITIVE = (raw) -> (Long) raw > 0;

	private static final Function<@Nullable Object, @Nullable Double> DOUBLE_VALUE = (raw) -> (Double) raw;

	private static final byte[] NX = CommandKeyword.NX.getBytes();

	/**
	 * {@code PX}, spelled here: Lettuce 6.8 (Spring Boot 4.0's) has no
	 * {@code CommandKeyword.PX}.
	 */
	private static final byte[] PX = "PX".getBytes(StandardCharsets.US_ASCII);

	private final BatchSerializers<K, V> serializers;

	private final BatchRun run;

	private final Thread owner = Thread.currentThread();

	private final boolean idempotent;

	private final AtomicBoolean closed;

	private final CommandWriter<?> writer;

	private final Function<@Nullable Object, @Nullable V> toValue = this::deserializeValue;

	private final Function<@Nullable Object, List<V>> toValueList = this::valueList;

	private final NamedCommandArguments<K, V> rawArguments = new NamedCommandArguments<>();

	/**
	 * The name of the last command sent by name, and its keyword: a batch usually sends
	 * one command many times.
	 */
	private @Nullable String lastName;

	private @Nullable CommandName lastKeyword;

	DefaultBatch(BatchSerializers<K, V> serializers, BatchRun run) {
		this(serializers, run, false, new AtomicBoolean());
	}

	private DefaultBatch(BatchSerializers<K, V> serializers, BatchRun run, boolean idempotent, AtomicBoolean closed) {
		this.serializers = serializers;
		this.run = run;
		this.idempotent = idempotent;
		this.closed = closed;
		this.writer = new CommandWriter<>(serializers, run, idempotent);
	}

	/**
	 * No more commands may be recorded: the callback returned.
	 */
	void close() {
		this.closed.set(true);
	}

	@Override
	public Batch<K, V> idempotent() {
		return this.idempotent ? this : new DefaultBatch<>(this.serializers, this.run, true, this.closed);
	}

	@Override
	public boolean isStopped() {
		return this.run.isStopped();
	}

	@Override
	public void flush() {
		checkUsable();
		this.run.sendOpenChunks();
	}

	// strings and keys

	@Override
	public Response<@Nullable V> get(K key) {
		return command(CommandType.GET, VALUE, this.toValue).key(key).send();
	}

	@Override
	public Response<Boolean> set(K key, V value) {
		return command(CommandType.SET, STATUS, OK).key(key).value(value).send();
	}

	@Override
	public Response<Boolean> set(K key, V value, Duration ttl) {
		long millis = ttlMillis(ttl);
		return command(CommandType.SET, STATUS, OK).key(key).value(value).bytes(PX).number(millis).send();
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value) {
		return command(CommandType.SET, STATUS, OK).key(key).value(value).bytes(NX).send();
	}

	@Override
	public Response<Boolean> setIfAbsent(K key, V value, Duration ttl) {
		long millis = ttlMillis(ttl);
		return command(CommandType.SET, STATUS, OK).key(key).value(value).bytes(NX).bytes(PX).number(millis).send();
	}

	@Override
	public Response<Long> incr(K key) {
		return command(CommandType.INCR, INTEGER, LONG).key(key).send();
	}

	@Override
	public Response<Long> incrBy(K key, long delta) {
		return command(CommandType.INCRBY, INTEGER, LONG).key(key).number(delta).send();
	}

	@Override
	public Response<Long> decr(K key) {
		return command(CommandType.DECR, INTEGER, LONG).key(key).send();
	}

	@Override
	public Response<Long> decrBy(K key, long delta) {
		return command(CommandType.DECRBY, INTEGER, LONG).key(key).number(delta).send();
	}

	@Override
	public Response<Long> del(K key) {
		return command(CommandType.DEL, INTEGER, LONG).key(key).send();
	}

	@Override
	public Response<Boolean> exists(K key) {
		return command(CommandType.EXISTS, INTEGER, POSITIVE).key(key).send();
	}

	@Override
	public Response<Boolean> expire(K key, Duration ttl) {
		long millis = ttlMillis(ttl);
		return command(CommandType.PEXPIRE, BOOLEAN, BOOL).key(key).number(millis).send();
	}

	@Override
	public Response<Long> ttl(K key) {
		return command(CommandType.TTL, INTEGER, LONG).key(key).send();
	}

	// hashes

	@Override
	public <HK, HV> Response<@Nullable HV> hget(K key, HK field) {
		return command(CommandType.HGET, VALUE, this::<HV>hashValue).key(key).hashKey(field).send();
	}

	@Override
	public <HK, HV> Response<Boolean> hset(K key, HK field, HV value) {
		return command(CommandType.HSET, BOOLEAN, BOOL).key(key).hashKey(field).hashValue(value).send();
	}

	@Override
	public <HK, HV> Response<Map<HK, HV>> hgetAll(K key) {
		return command(CommandType.HGETALL, MAP, this::<HK, HV>hashEntries).key(key).send();
	}

	@Override
	@SafeVarargs
	public final <HK> Response<Long> hdel(K key, HK... fields) {
		requireElements(fields, "hash fields");
		CommandWriter<Long> command = command(CommandType.HDEL, INTEGER, LONG).key(key);
		for (HK field : fields) {
			command.hashKey(field);
		}
		return command.send();
	}

	@Override
	public <HK> Response<Long> hincrBy(K key, HK field, long delta) {
		return command(CommandType.HINCRBY, INTEGER, LONG).key(key).hashKey(field).number(delta).send();
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
		return command(CommandType.SMEMBERS, VALUE_SET, this::valueSet).key(key).send();
	}

	@Override
	public Response<Boolean> sismember(K key, V member) {
		return command(CommandType.SISMEMBER, BOOLEAN, BOOL).key(key).value(member).send();
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
		return command(CommandType.LRANGE, VALUE_LIST, this.toValueList).key(key).number(start).number(stop).send();
	}

	// sorted sets

	@Override
	public Response<Boolean> zadd(K key, double score, V member) {
		return command(CommandType.ZADD, INTEGER, POSITIVE).key(key).score(score).value(member).send();
	}

	@Override
	public Response<@Nullable Double> zscore(K key, V member) {
		return command(CommandType.ZSCORE, DOUBLE, DOUBLE_VALUE).key(key).value(member).send();
	}

	@Override
	public Response<Double> zincrBy(K key, double delta, V member) {
		return command(CommandType.ZINCRBY, DOUBLE, (raw) -> (Double) raw).key(key).score(delta).value(member).send();
	}

	@Override
	public Response<List<V>> zrange(K key, long start, long stop) {
		return command(CommandType.ZRANGE, VALUE_LIST, this.toValueList).key(key).number(start).number(stop).send();
	}

	// scripts

	@Override
	@SuppressWarnings("unchecked")
	public <T> Response<@Nullable T> eval(RedisScript<T> script, List<K> keys, Object... args) {
		Assert.notNull(script, "script must not be null");
		Assert.notNull(keys, "keys must not be null");
		Assert.notNull(args, "args must not be null");
		for (Object arg : args) {
			Assert.notNull(arg, "script arguments must not be null");
		}
		ReturnType returnType = ReturnType.fromJavaType(script.getResultType());
		Supplier<CommandOutput<byte[], byte[], ?>> output = switch (returnType) {
			case STATUS -> STATUS;
			case INTEGER -> INTEGER;
			case BOOLEAN -> BOOLEAN;
			case VALUE -> VALUE;
			case MULTI -> NESTED;
		};
		CommandWriter<@Nullable T> command = command(CommandType.EVAL, output,
				(raw) -> (T) scriptResult(raw, returnType))
			.bytes(script.getScriptAsString().getBytes(StandardCharsets.UTF_8))
			.number(keys.size());
		for (K key : keys) {
			command.key(key);
		}
		for (Object arg : args) {
			command.scriptArgument(arg);
		}
		return command.send();
	}

	// any command

	@Override
	public <T extends @Nullable Object> Response<T> command(String name, CommandReply<T> reply, K key,
			String... arguments) {
		Assert.notNull(arguments, "arguments must not be null");
		return command(name, reply, (args) -> {
			args.key(key);
			for (String argument : arguments) {
				args.arg(argument);
			}
		});
	}

	@Override
	public <T extends @Nullable Object> Response<T> command(String name, CommandReply<T> reply,
			Consumer<CommandArguments<K, V>> arguments) {
		Assert.notNull(reply, "reply must not be null");
		Assert.notNull(arguments, "arguments must not be null");
		CommandName keyword = keyword(name);
		CommandWriter<T> command = command(keyword, reply.output(), (raw) -> reply.convert(raw, this.serializers));
		this.rawArguments.open(command, keyword.toString());
		try {
			arguments.accept(this.rawArguments);
		}
		finally {
			this.rawArguments.close();
		}
		if (command.keysGiven() == 0 && this.run.isCluster()) {
			throw new IllegalArgumentException(Messages.keylessOnCluster(keyword.toString()));
		}
		return command.send();
	}

	private CommandName keyword(@Nullable String name) {
		CommandName last = this.lastKeyword;
		if (last != null && name != null && name.equals(this.lastName)) {
			return last;
		}
		Assert.hasText(name, "name must not be empty");
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			Assert.isTrue(c > ' ' && c < 127, () -> "name must be one command name, such as XADD or JSON.SET, but was '"
					+ name + "': pass a subcommand as the first argument");
		}
		CommandName keyword = new CommandName(Unbatchable.checkName(name));
		this.lastName = name;
		this.lastKeyword = keyword;
		return keyword;
	}

	// shapes of commands

	private Response<Long> keyAndValues(CommandType type, K key, V[] values, String what) {
		requireElements(values, what);
		CommandWriter<Long> command = command(type, INTEGER, LONG).key(key);
		for (V value : values) {
			command.value(value);
		}
		return command.send();
	}

	/**
	 * Start a command: its arguments follow, then {@link CommandWriter#send()}.
	 */
	private <T> CommandWriter<T> command(ProtocolKeyword type, Supplier<CommandOutput<byte[], byte[], ?>> output,
			Function<@Nullable Object, T> converter) {
		checkUsable();
		return this.writer.start(type, output, converter);
	}

	private void checkUsable() {
		if (this.rawArguments.isOpen()) {
			throw new IllegalStateException(Messages.commandInArguments());
		}
		if (this.closed.get()) {
			throw new IllegalStateException(Messages.batchComplete());
		}
		if (Thread.currentThread() != this.owner) {
			throw new IllegalStateException(Messages.notThreadSafe());
		}
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

	// input checks

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

}
