package dev.redisbatch.springbatch;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.redisbatch.Batch;
import dev.redisbatch.BatchCommandException;
import dev.redisbatch.BatchFailure;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The commands that a mapper records for the items of one write, item by item, through a
 * view of the {@link Batch} that notes each command's fingerprint and response, and that
 * leaves out the commands the {@link ItemLedger} says must not be sent again (they get a
 * response settled with their known outcome instead).
 * <p>
 * The view is a dynamic proxy of the public {@link Batch} interface, so that every
 * command method, present and future, is seen the same way.
 */
final class ChunkRecording {

	private final @Nullable ItemLedger ledger;

	private final int aligned;

	private final List<List<Recorded>> items = new ArrayList<>();

	private int sent;

	private int leftOut;

	private int completed;

	/**
	 * A recording whose first {@code aligned} items are the ledger's first items, written
	 * again.
	 */
	ChunkRecording(@Nullable ItemLedger ledger, int aligned) {
		this.ledger = ledger;
		this.aligned = aligned;
	}

	/**
	 * A view of the batch that records into this recording; {@code null} for a dry run
	 * that only takes fingerprints and sends nothing.
	 */
	@SuppressWarnings("unchecked")
	<K, V> Batch<K, V> view(@Nullable Batch<K, V> batch, boolean idempotent) {
		return (Batch<K, V>) Proxy.newProxyInstance(Batch.class.getClassLoader(), new Class<?>[] { Batch.class },
				new View(batch, idempotent));
	}

	/**
	 * Start recording the next item.
	 */
	void nextItem() {
		this.items.add(new ArrayList<>());
	}

	/**
	 * The item being recorded is complete: its mapper returned.
	 */
	void itemDone() {
		this.completed = this.items.size();
	}

	/**
	 * How many items were recorded (the batch may stop the recording early, when it
	 * stops).
	 */
	int itemCount() {
		return this.items.size();
	}

	/**
	 * Whether the mapper of an item returned; if not, its commands past those recorded
	 * were never sent.
	 */
	boolean isComplete(int item) {
		return item < this.completed;
	}

	/**
	 * How many commands went to the batch (were not left out).
	 */
	int sent() {
		return this.sent;
	}

	/**
	 * How many commands were left out (not sent: their outcome was known).
	 */
	int leftOut() {
		return this.leftOut;
	}

	List<Integer> fingerprints(int item) {
		return this.items.get(item).stream().map(Recorded::fingerprint).toList();
	}

	/**
	 * What is known of an item once the batch ran (or failed): a command whose response
	 * is not complete is taken as {@link Outcome#UNKNOWN}.
	 */
	ItemLedger.Item outcomeOf(int item, @Nullable String earlierFailure) {
		List<ItemLedger.Command> commands = new ArrayList<>();
		String failure = null;
		for (Recorded recorded : this.items.get(item)) {
			Outcome outcome = recorded.outcome();
			commands.add(new ItemLedger.Command(recorded.fingerprint(), recorded.idempotent(), outcome));
			if (outcome == Outcome.FAILED && failure == null) {
				failure = (recorded.response() != null) ? recorded.failure() : earlierFailure;
			}
		}
		return new ItemLedger.Item(commands, failure);
	}

	private @Nullable Outcome leftOut(int item, int command, boolean idempotent) {
		if (this.ledger == null || item >= this.aligned) {
			return null;
		}
		List<ItemLedger.Command> known = this.ledger.get(item).commands();
		if (command >= known.size()) {
			return null;
		}
		ItemLedger.Command previous = known.get(command);
		return switch (previous.outcome()) {
			// it ran: never again
			case SUCCESS -> Outcome.SUCCESS;
			// Redis refused it in this execution: it would again; the item is skipped
			case FAILED -> Outcome.FAILED;
			// it may have run: again only if running it twice is harmless
			case UNKNOWN -> (idempotent || previous.idempotent()) ? null : Outcome.UNKNOWN;
			case NOT_SENT -> null;
		};
	}

	/**
	 * A value-based hash of a command: its name and the arguments whose hash is stable
	 * across processes (strings, byte arrays, numbers, durations, scripts, and arrays or
	 * lists of these).
	 */
	static int fingerprint(Method method, @Nullable Object[] args) {
		int hash = method.getName().hashCode();
		if (args != null) {
			hash = 31 * hash + args.length;
			for (Object arg : args) {
				hash = 31 * hash + stableHash(arg);
			}
		}
		return hash;
	}

	private static int stableHash(@Nullable Object value) {
		if (value == null) {
			return 0;
		}
		if (value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof Character
				|| value instanceof Duration) {
			return value.hashCode();
		}
		if (value instanceof Enum<?> constant) {
			return constant.name().hashCode();
		}
		if (value instanceof byte[] bytes) {
			return Arrays.hashCode(bytes);
		}
		if (value instanceof Object[] array) {
			int hash = 1;
			for (Object element : array) {
				hash = 31 * hash + stableHash(element);
			}
			return hash;
		}
		if (value instanceof List<?> list) {
			int hash = 1;
			for (Object element : list) {
				hash = 31 * hash + stableHash(element);
			}
			return hash;
		}
		if (value instanceof RedisScript<?> script) {
			return script.getSha1().hashCode();
		}
		// no hash that is known to be stable across processes
		return 7;
	}

	/**
	 * A command of an item: sent (with its response) or left out (with its known
	 * outcome).
	 */
	private record Recorded(int fingerprint, boolean idempotent, @Nullable Response<?> response,
			@Nullable Outcome settled) {

		/**
		 * The Redis error of a sent command that failed: command name and message, never
		 * key or value text.
		 */
		@Nullable String failure() {
			try {
				if (this.response != null) {
					this.response.get();
				}
				return null;
			}
			catch (BatchCommandException ex) {
				BatchFailure failure = ex.getFailure();
				return failure.command() + ": " + failure.message();
			}
			catch (IllegalStateException ex) {
				return null;
			}
		}

		Outcome outcome() {
			if (this.settled != null) {
				return this.settled;
			}
			try {
				return (this.response != null) ? this.response.outcome() : Outcome.NOT_SENT;
			}
			catch (IllegalStateException ex) {
				// the batch never completed it: it may have been sent
				return Outcome.UNKNOWN;
			}
		}

	}

	/**
	 * The response of a command left out: its outcome is the one already known.
	 */
	private record Settled(String command, Outcome outcome) implements Response<@Nullable Object> {

		@Override
		public @Nullable Object get() {
			if (this.outcome == Outcome.SUCCESS) {
				return null;
			}
			throw new BatchCommandException(new BatchFailure(-1, this.command, this.outcome,
					"not sent again: its outcome in an earlier attempt was " + this.outcome), null);
		}

	}

	private final class View implements InvocationHandler {

		private final @Nullable Batch<?, ?> batch;

		private final boolean idempotent;

		View(@Nullable Batch<?, ?> batch, boolean idempotent) {
			this.batch = batch;
			this.idempotent = idempotent;
		}

		@Override
		public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
			if (method.getDeclaringClass() == Object.class) {
				return switch (method.getName()) {
					case "equals" -> proxy == args[0];
					case "hashCode" -> System.identityHashCode(proxy);
					default -> "Batch view of a Spring Batch item writer";
				};
			}
			if (method.getName().equals("idempotent") && method.getParameterCount() == 0) {
				return view((this.batch != null) ? this.batch.idempotent() : null, true);
			}
			if (!Response.class.isAssignableFrom(method.getReturnType())) {
				return invokeOnBatch(method, args);
			}
			if (ChunkRecording.this.items.isEmpty()) {
				throw new IllegalStateException("A command was recorded outside of an item");
			}
			int item = ChunkRecording.this.items.size() - 1;
			List<Recorded> commands = ChunkRecording.this.items.get(item);
			int fingerprint = fingerprint(method, args);
			Outcome leftOut = (this.batch != null) ? leftOut(item, commands.size(), this.idempotent) : Outcome.NOT_SENT;
			if (leftOut != null) {
				if (this.batch != null) {
					ChunkRecording.this.leftOut++;
				}
				commands.add(new Recorded(fingerprint, this.idempotent, null, leftOut));
				return new Settled(method.getName().toUpperCase(Locale.ROOT), leftOut);
			}
			Response<?> response = (Response<?>) invokeOnBatch(method, args);
			commands.add(new Recorded(fingerprint, this.idempotent, response, null));
			ChunkRecording.this.sent++;
			return response;
		}

		private @Nullable Object invokeOnBatch(Method method, @Nullable Object[] args) throws Throwable {
			if (this.batch == null) {
				throw new IllegalStateException("Batch." + method.getName() + " is not a command");
			}
			try {
				return method.invoke(this.batch, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		}

	}

}
