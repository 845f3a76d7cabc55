package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

import dev.redisbatch.BatchOptions;
import org.jspecify.annotations.Nullable;

/**
 * How an exactly-once writer names the batches it writes, so that a chunk written again
 * after its outcomes were lost (a retry, or a restart of the failed step) is the same
 * batch, with the same id, and its markers answer for the commands that ran.
 * <p>
 * A batch id is {@code sb:}, the writer's id (random, kept in the step's execution
 * context, so a restarted step has it too) and a sequence number that each new batch
 * takes. A write of the same items, all of whose commands the earlier write sent, takes
 * the earlier write's id ({@link #replay}); any other write takes the next number
 * ({@link #next}). The sequence number, whether the current one was sent whole, and when
 * it was first sent are kept in the execution context with the writer's other state.
 * Holds no key or value.
 */
final class ExactlyOnceChunks {

	private static final String PREFIX = "sb:";

	private final String idKey;

	private final String batchKey;

	private final Duration window;

	private String writerId = newWriterId();

	private long sequence;

	private boolean whole;

	private long firstSent;

	private boolean restoredFailures;

	/**
	 * The batches of one writer.
	 * @param name the writer's name, the prefix of its keys in the execution context
	 * @param window how long the markers of a batch are kept
	 */
	ExactlyOnceChunks(String name, Duration window) {
		this.idKey = name + ".exactly-once";
		this.batchKey = name + ".exactly-once.batch";
		this.window = window;
	}

	/**
	 * Restore what the step saved, or start a new writer id.
	 * @param state the step's state, or {@code null} for a writer that saves none
	 * @param restoredFailures whether the restored ledger holds commands Redis refused
	 * before the restart (they are sent again as a new batch, since the cause may be
	 * fixed)
	 * @throws IllegalArgumentException if what was saved cannot be read
	 */
	void open(@Nullable StepState state, boolean restoredFailures) {
		String id = (state != null) ? state.getString(this.idKey) : null;
		this.writerId = (id != null) ? id : newWriterId();
		this.sequence = 0;
		this.whole = false;
		this.firstSent = 0;
		this.restoredFailures = restoredFailures;
		String batch = (state != null) ? state.getString(this.batchKey) : null;
		if (batch != null) {
			String[] parts = batch.split(":", -1);
			if (parts.length != 3) {
				throw new IllegalArgumentException("'" + batch + "' is not <sequence>:<whole>:<first sent>");
			}
			try {
				this.sequence = Long.parseLong(parts[0]);
				this.whole = "1".equals(parts[1]);
				this.firstSent = Long.parseLong(parts[2]);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("'" + batch + "' is not <sequence>:<whole>:<first sent>");
			}
		}
		if (state != null) {
			save(state);
		}
	}

	/**
	 * Whether a write of the same items as the earlier write (exactly them, with the same
	 * commands) may be sent as the same batch, so that its markers answer for what ran.
	 * @param unknown whether some of their commands have an unknown outcome
	 * @param now the current time, in milliseconds since the epoch
	 * @return {@code null} if it may, or why not
	 */
	@Nullable String whyNotReplay(boolean unknown, long now) {
		long margin = Math.min(Duration.ofMinutes(5).toMillis(), this.window.toMillis() / 10);
		if (now - this.firstSent + margin >= this.window.toMillis()) {
			return "they were first sent more than the exactly-once window (" + this.window
					+ ") ago, so their markers may have expired";
		}
		if (!this.whole) {
			return "the earlier write of these items was not the whole chunk (it left out commands that had run "
					+ "before it, or it was one item of a failed chunk written alone)";
		}
		if (this.restoredFailures && !unknown) {
			return "Redis refused some of their commands before the restart";
		}
		return null;
	}

	/**
	 * The options of a write that sends the earlier batch again.
	 * @param options the writer's options
	 * @return the options, with the earlier batch's id
	 */
	BatchOptions replay(BatchOptions options) {
		this.restoredFailures = false;
		return options.mutate().exactlyOnce(batchId(), this.window).build();
	}

	/**
	 * The options of a write that is a new batch.
	 * @param options the writer's options
	 * @param now the current time, in milliseconds since the epoch
	 * @return the options, with a new batch id
	 */
	BatchOptions next(BatchOptions options, long now) {
		this.sequence++;
		this.whole = false;
		this.firstSent = now;
		this.restoredFailures = false;
		return options.mutate().exactlyOnce(batchId(), this.window).build();
	}

	/**
	 * The write just made sent every command of its items (none was left out), and its
	 * items are all the items remembered: written again, it is the same batch.
	 * @param whole whether it did
	 */
	void sentWhole(boolean whole) {
		this.whole = whole;
	}

	/**
	 * The step committed some of the items remembered: those left are no longer the whole
	 * of the earlier batch.
	 */
	void committed() {
		this.whole = false;
	}

	/**
	 * Keep the writer's id and its current batch in the step's state.
	 * @param state the step's state
	 */
	void save(StepState state) {
		state.putString(this.idKey, this.writerId);
		state.putString(this.batchKey, this.sequence + ":" + (this.whole ? "1" : "0") + ":" + this.firstSent);
	}

	private String batchId() {
		return PREFIX + this.writerId + ":" + this.sequence;
	}

	private static String newWriterId() {
		byte[] random = new byte[16];
		ThreadLocalRandom.current().nextBytes(random);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
	}

}
