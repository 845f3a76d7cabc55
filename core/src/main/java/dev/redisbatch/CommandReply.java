package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueOutput;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The reply type of a command sent with
 * {@link Batch#command(String, CommandReply, java.util.function.Consumer)}: how the reply
 * is read, and what the {@link Response} holds. Pick the one the command's documentation
 * names (integer reply, bulk string reply, ...), and convert further with
 * {@link #map(Function)}:
 *
 * <pre class="code">
 * Response&lt;Long&gt; length = batch.command("XLEN", CommandReply.integer(), "events");
 * Response&lt;Long&gt; millis = batch.command("XADD",
 *         CommandReply.string().map((id) -&gt; Long.parseLong(id.substring(0, id.indexOf('-')))),
 *         (args) -&gt; args.key("events").arg("*").arg("type").value(payload));
 * </pre>
 *
 * A reply of another shape than the one chosen (a bulk string where an integer was
 * expected) makes the command {@link Outcome#FAILED}, with a reason that says so: unlike
 * other failed commands, it ran.
 *
 * @param <T> the type of the response's value
 * @since 0.1.0
 */
public final class CommandReply<T extends @Nullable Object> {

	private static final ByteArrayCodec CODEC = ByteArrayCodec.INSTANCE;

	private final Supplier<CommandOutput<byte[], byte[], ?>> output;

	private final Converter<T> converter;

	private CommandReply(Supplier<CommandOutput<byte[], byte[], ?>> output, Converter<T> converter) {
		this.output = output;
		this.converter = converter;
	}

	/**
	 * A simple string reply, such as {@code OK}.
	 * @return the reply type
	 */
	public static CommandReply<@Nullable String> status() {
		return new CommandReply<>(() -> new StatusOutput<>(CODEC), (raw, serializers) -> (String) raw);
	}

	/**
	 * An integer reply, such as the count of {@code PFADD}, {@code XLEN} or
	 * {@code GEOADD}.
	 * @return the reply type
	 */
	public static CommandReply<@Nullable Long> integer() {
		return new CommandReply<>(() -> new IntegerOutput<>(CODEC), (raw, serializers) -> (Long) raw);
	}

	/**
	 * An integer reply read as a flag ({@code 1} is {@code true}), or a RESP3 boolean.
	 * @return the reply type
	 */
	public static CommandReply<Boolean> bool() {
		return new CommandReply<>(() -> new BooleanOutput<>(CODEC), (raw, serializers) -> Boolean.TRUE.equals(raw));
	}

	/**
	 * A floating point number, sent as a bulk string or a RESP3 double ({@code GEODIST},
	 * {@code INCRBYFLOAT}).
	 * @return the reply type
	 */
	public static CommandReply<@Nullable Double> decimal() {
		return new CommandReply<>(() -> new DoubleOutput<>(CODEC), (raw, serializers) -> (Double) raw);
	}

	/**
	 * A bulk string reply as Redis sent it.
	 * @return the reply type; {@code null} for a nil reply
	 */
	public static CommandReply<byte @Nullable []> bytes() {
		return new CommandReply<>(() -> new ValueOutput<>(CODEC), (raw, serializers) -> (byte[]) raw);
	}

	/**
	 * A bulk string reply read as UTF-8 text, such as the entry id {@code XADD} returns
	 * or the document {@code JSON.GET} returns.
	 * @return the reply type; {@code null} for a nil reply
	 */
	public static CommandReply<@Nullable String> string() {
		return new CommandReply<>(() -> new ValueOutput<>(CODEC),
				(raw, serializers) -> (raw != null) ? new String((byte[]) raw, StandardCharsets.UTF_8) : null);
	}

	/**
	 * A bulk string reply deserialized with the template's value serializer, as
	 * {@link Batch#get(Object)} does.
	 * @param <V> the template's value type
	 * @return the reply type; {@code null} for a nil reply
	 */
	@SuppressWarnings("unchecked")
	public static <V> CommandReply<@Nullable V> value() {
		return new CommandReply<>(() -> new ValueOutput<>(CODEC),
				(raw, serializers) -> (raw != null) ? (V) serializers.value().deserialize((byte[]) raw) : null);
	}

	/**
	 * Any reply, as a tree: an array (or a RESP3 map, flattened to keys and values) is a
	 * {@code List}, a bulk string a {@code byte[]}, an integer a {@code Long}, a simple
	 * string a {@code String}, nil {@code null}; a reply that is not an array comes as a
	 * list of one. For {@code XRANGE}, {@code BITFIELD}, {@code GEOPOS},
	 * {@code FT.SEARCH} and the like; turn it into your types with
	 * {@link #map(Function)}.
	 * @return the reply type
	 */
	@SuppressWarnings("unchecked")
	public static CommandReply<List<@Nullable Object>> array() {
		return new CommandReply<>(() -> new NestedMultiOutput<>(CODEC),
				(raw, serializers) -> (raw != null) ? (List<@Nullable Object>) raw : List.of());
	}

	/**
	 * This reply type with the value converted further. The function runs once, on the
	 * first {@link Response#get()} of a command that succeeded; an exception it throws
	 * surfaces from there.
	 * @param <R> the type of the converted value
	 * @param function converts the value
	 * @return the reply type
	 */
	public <R extends @Nullable Object> CommandReply<R> map(Function<? super T, ? extends R> function) {
		Assert.notNull(function, "function must not be null");
		Converter<T> first = this.converter;
		return new CommandReply<>(this.output, (raw, serializers) -> function.apply(first.convert(raw, serializers)));
	}

	Supplier<CommandOutput<byte[], byte[], ?>> output() {
		return this.output;
	}

	T convert(@Nullable Object raw, BatchSerializers<?, ?> serializers) {
		return this.converter.convert(raw, serializers);
	}

	@FunctionalInterface
	private interface Converter<T extends @Nullable Object> {

		T convert(@Nullable Object raw, BatchSerializers<?, ?> serializers);

	}

}
