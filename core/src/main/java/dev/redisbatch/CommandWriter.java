package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * The one path every {@link Batch} command takes: its arguments are checked at once (a
 * {@code null} key or value throws before anything is recorded), serialized, and kept;
 * {@link #send()} then writes the whole command into the open chunk, or, if a serializer
 * failed, records it {@link Outcome#FAILED} without sending anything, so that a failure
 * never leaves half a command in a chunk.
 * <p>
 * One writer serves a batch's commands one after the other (a batch is used by one
 * thread), so recording a command allocates nothing here.
 *
 * @param <T> the value type of the command being written
 */
final class CommandWriter<T> {

	private final BatchSerializers<?, ?> serializers;

	private final BatchRun run;

	private final boolean idempotent;

	private ProtocolKeyword type = CommandType.PING;

	private Supplier<CommandOutput<byte[], byte[], ?>> output = () -> {
		throw new IllegalStateException("No command is being written");
	};

	private Function<@Nullable Object, ?> converter = (raw) -> raw;

	/**
	 * The command's arguments after its name, as they go on the wire (a number as its
	 * decimal digits).
	 */
	private byte[][] bulks = new byte[8][];

	private int count;

	private long lastNumber;

	private byte @Nullable [] lastNumberDigits;

	private byte[][] keys = new byte[2][];

	private int keyCount;

	/**
	 * The keys given, serialized or not (after a stop, or once a serializer failed, keys
	 * are only checked).
	 */
	private int keysGiven;

	private @Nullable ItemSerializationException failure;

	/**
	 * Whether the batch had stopped when the command started: then its arguments are only
	 * checked, never serialized, and it is recorded not sent.
	 */
	private boolean afterStop;

	CommandWriter(BatchSerializers<?, ?> serializers, BatchRun run, boolean idempotent) {
		this.serializers = serializers;
		this.run = run;
		this.idempotent = idempotent;
	}

	/**
	 * Start writing a command.
	 */
	@SuppressWarnings("unchecked")
	<R> CommandWriter<R> start(ProtocolKeyword type, Supplier<CommandOutput<byte[], byte[], ?>> output,
			Function<@Nullable Object, R> converter) {
		clear();
		this.afterStop = this.run.isStopped();
		this.type = type;
		this.output = output;
		this.converter = converter;
		return (CommandWriter<R>) this;
	}

	/**
	 * A key: it routes the command on a cluster.
	 */
	CommandWriter<T> key(@Nullable Object key) {
		Assert.notNull(key, "key must not be null");
		this.keysGiven++;
		byte[] bytes = serialize(this.serializers.key(), key, "key");
		if (bytes != null) {
			if (this.keyCount == this.keys.length) {
				this.keys = Arrays.copyOf(this.keys, this.keyCount * 2);
			}
			this.keys[this.keyCount++] = bytes;
			bulk(bytes);
		}
		return this;
	}

	CommandWriter<T> value(@Nullable Object value) {
		Assert.notNull(value, "value must not be null");
		return serialized(this.serializers.value(), value, "value");
	}

	CommandWriter<T> hashKey(@Nullable Object field) {
		Assert.notNull(field, "hash field must not be null");
		return serialized(this.serializers.hashKey(), field, "hash field");
	}

	CommandWriter<T> hashValue(@Nullable Object value) {
		Assert.notNull(value, "hash value must not be null");
		return serialized(this.serializers.hashValue(), value, "hash value");
	}

	CommandWriter<T> scriptArgument(Object argument) {
		return serialized(this.serializers.value(), argument, "script argument");
	}

	/**
	 * An argument as it goes on the wire (a keyword, a script).
	 */
	CommandWriter<T> bytes(byte[] argument) {
		bulk(argument);
		return this;
	}

	/**
	 * How many keys the command has so far.
	 */
	int keysGiven() {
		return this.keysGiven;
	}

	CommandWriter<T> number(long argument) {
		bulk(digitsOf(argument));
		return this;
	}

	/**
	 * A score or increment of a sorted set.
	 */
	CommandWriter<T> score(double score) {
		Assert.isTrue(!Double.isNaN(score), "score must be a number, not NaN");
		return bytes(RespWriter.doubleBytes(score));
	}

	/**
	 * Record the command: written into the open chunk, or {@link Outcome#FAILED} when an
	 * argument could not be serialized or its keys span slots of a cluster.
	 */
	@SuppressWarnings("unchecked")
	Response<T> send() {
		try {
			this.run.checkCommand(this.type, 1 + this.count);
			if (this.afterStop) {
				return this.run.addNotSent(this.type);
			}
			ItemSerializationException failed = this.failure;
			if (failed != null) {
				return this.run.addFailed(this.type.toString(), String.valueOf(failed.getMessage()), failed.getCause());
			}
			int slot;
			if (this.keyCount == 1) {
				slot = this.run.slotOf(this.keys[0]);
			}
			else if (this.keyCount == 0 || !this.run.isCluster()) {
				// no key to hash, or no cluster to route by: any server
				slot = Slots.ANY;
			}
			else {
				byte[][] all = Arrays.copyOf(this.keys, this.keyCount);
				slot = this.run.slotOf(all);
				if (slot == Slots.CROSS) {
					String name = this.type.toString();
					return this.run.addFailed(name, Messages.crossSlot(name, all), null);
				}
			}
			this.run.checkRoutable(this.type, slot);
			ByteBuf target = this.run.startCommand(slot);
			RespWriter.array(target, 1 + this.count);
			RespWriter.bulk(target, this.type);
			for (int i = 0; i < this.count; i++) {
				RespWriter.bulk(target, this.bulks[i]);
			}
			return (Response<T>) this.run.endCommand(this.type, this.output.get(), this.converter, this.output,
					this.idempotent);
		}
		finally {
			clear();
		}
	}

	/**
	 * The decimal digits of a number argument: the last ones are kept, since a batch
	 * often sends the same number with every command (a TTL, a count).
	 */
	private byte[] digitsOf(long number) {
		byte[] kept = this.lastNumberDigits;
		if (kept == null || number != this.lastNumber) {
			kept = Long.toString(number).getBytes(StandardCharsets.US_ASCII);
			this.lastNumber = number;
			this.lastNumberDigits = kept;
		}
		return kept;
	}

	private CommandWriter<T> serialized(RedisSerializer<?> serializer, Object item, String what) {
		byte[] bytes = serialize(serializer, item, what);
		if (bytes != null) {
			bulk(bytes);
		}
		return this;
	}

	private void bulk(byte[] argument) {
		if (this.count == this.bulks.length) {
			this.bulks = Arrays.copyOf(this.bulks, this.count * 2);
		}
		this.bulks[this.count++] = argument;
	}

	/**
	 * Forget the command's arguments: the writer never holds on to data.
	 */
	private void clear() {
		Arrays.fill(this.bulks, 0, this.count, null);
		Arrays.fill(this.keys, 0, this.keyCount, null);
		this.count = 0;
		this.keyCount = 0;
		this.keysGiven = 0;
		this.failure = null;
	}

	/**
	 * Serialize an argument, or remember the first failure and skip the rest: the command
	 * will be recorded as failed.
	 */
	@SuppressWarnings("unchecked")
	private byte @Nullable [] serialize(RedisSerializer<?> serializer, Object item, String what) {
		if (this.failure != null || this.afterStop) {
			return null;
		}
		byte[] raw;
		try {
			raw = ((RedisSerializer<Object>) serializer).serialize(item);
		}
		catch (RuntimeException ex) {
			this.failure = new ItemSerializationException(
					"the " + what + " could not be serialized (" + ex.getClass().getSimpleName() + "); it was not sent",
					withoutMessage(ex));
			return null;
		}
		if (raw == null) {
			this.failure = new ItemSerializationException("the " + what + " serializer returned null; it was not sent",
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

	/**
	 * A key or value of one command could not be serialized.
	 */
	private static final class ItemSerializationException extends RuntimeException {

		ItemSerializationException(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
