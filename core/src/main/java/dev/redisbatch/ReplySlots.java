package dev.redisbatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A chunk's commands as Lettuce commands, for the portable path ({@link PortableLease}):
 * one per reply the chunk awaits, in the order the replies come ({@code MULTI}'s, each
 * command's {@code QUEUED} and {@code EXEC}'s for a transaction; {@code ASKING}'s before
 * a command sent to a node that imports its slot). They are dispatched together: the
 * first writes the chunk's bytes, encoded once when the chunk was recorded, and the
 * others nothing, so the chunk still goes out in one write. Lettuce decodes each reply
 * into its command's output on the event loop; the batch's thread waits until every one
 * has come, and only then reads them.
 */
final class ReplySlots {

	private static final ProtocolKeyword KEYWORD = new CommandName("REDIS-BATCH");

	private static final CommandArgs<byte[], byte[]> NO_ARGUMENTS = new CommandArgs<>(ByteArrayCodec.INSTANCE);

	private final ByteBuf bytes;

	private final List<RedisCommand<byte[], byte[], ?>> commands;

	private final CountDownLatch left;

	private volatile boolean abandoned;

	/**
	 * Whether the chunk was abandoned, for its outputs ({@link ReplyForwarding}).
	 */
	private final BooleanSupplier abandonment = () -> this.abandoned;

	private volatile boolean written;

	private volatile boolean failed;

	private volatile @Nullable String execError;

	private volatile boolean execDiscarded;

	/**
	 * The output of an exactly-once chunk's one reply, or {@code null}.
	 */
	private final @Nullable CommandOutput<byte[], byte[], ?> scriptReply;

	/**
	 * The slots of a chunk.
	 * @param bytes the chunk's bytes, from {@code MULTI} to {@code EXEC} for a
	 * transaction
	 * @param responses its commands
	 * @param size how many commands it holds
	 * @param transactional whether it is a transaction
	 * @param askingBefore the commands an {@code ASKING} goes before, or {@code null}
	 */
	ReplySlots(ByteBuf bytes, CommandResponse<?>[] responses, int size, boolean transactional,
			@Nullable List<Integer> askingBefore) {
		this.bytes = bytes;
		this.commands = new ArrayList<>(transactional ? size + 2 : size);
		if (transactional) {
			this.commands.add(new Slot(new StatusOutput<>(ByteArrayCodec.INSTANCE)));
			for (int i = 0; i < size; i++) {
				this.commands.add(new QueuedSlot(responses[i]));
			}
			this.commands.add(new ExecSlot(responses, size));
		}
		else {
			for (int i = 0; i < size; i++) {
				if (askingBefore != null && askingBefore.contains(i)) {
					this.commands.add(new Slot(new StatusOutput<>(ByteArrayCodec.INSTANCE)));
				}
				this.commands.add(new ResponseSlot(responses[i]));
			}
		}
		this.left = new CountDownLatch(this.commands.size());
		this.scriptReply = null;
	}

	private ReplySlots(ByteBuf bytes, CommandOutput<byte[], byte[], ?> scriptReply) {
		this.bytes = bytes;
		this.commands = new ArrayList<>(1);
		this.commands.add(new Slot(scriptReply));
		this.left = new CountDownLatch(1);
		this.scriptReply = scriptReply;
	}

	/**
	 * The slot of an exactly-once chunk: its script's one reply.
	 * @param bytes the chunk's bytes, its script's {@code EVAL}
	 * @param scriptReply where the reply is decoded
	 */
	static ReplySlots script(ByteBuf bytes, CommandOutput<byte[], byte[], ?> scriptReply) {
		return new ReplySlots(bytes, scriptReply);
	}

	/**
	 * The output of an exactly-once chunk's script reply, or {@code null} for other
	 * chunks.
	 */
	@Nullable CommandOutput<byte[], byte[], ?> scriptReply() {
		return this.scriptReply;
	}

	/**
	 * The commands to dispatch, in order.
	 */
	List<RedisCommand<byte[], byte[], ?>> commands() {
		return this.commands;
	}

	/**
	 * Whether Lettuce encoded the first command, so that the chunk's bytes may have left.
	 */
	boolean isWritten() {
		return this.written;
	}

	/**
	 * Whether every command failed before Lettuce encoded the first: nothing was written.
	 * <p>
	 * The count is read first. The event loop encodes the chunk before any reply can
	 * complete a command, so once every command is complete, {@link #written} tells for
	 * sure whether the bytes were encoded. Read the other way round, a chunk written and
	 * answered between the two reads would pass for one that never left.
	 */
	boolean isRefusedUnwritten() {
		return this.left.getCount() == 0 && !this.written;
	}

	/**
	 * Whether every command has its reply or failed.
	 */
	boolean isComplete() {
		return this.left.getCount() == 0;
	}

	/**
	 * Whether every reply came, none of them lost to a closed connection or unreadable.
	 */
	boolean isAnswered() {
		return this.left.getCount() == 0 && !this.failed;
	}

	/**
	 * Wait until every command has its reply or failed, the deadline passes or the thread
	 * is interrupted (its flag stays set).
	 * @param deadline a {@link System#nanoTime()} value
	 * @return whether every reply came
	 */
	boolean await(long deadline) {
		try {
			this.left.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return isAnswered();
	}

	/**
	 * Take nothing more into the commands: what comes from now on (on a connection being
	 * closed) is dropped.
	 */
	void abandon() {
		this.abandoned = true;
	}

	/**
	 * {@code EXEC}'s error ({@code EXECABORT}), or {@code null}.
	 */
	@Nullable String execError() {
		return this.execError;
	}

	/**
	 * Whether the transaction was discarded (a watched key changed).
	 */
	boolean execDiscarded() {
		return this.execDiscarded;
	}

	/**
	 * One reply's command. Its first completion wins, and is taken into the chunk's
	 * commands unless the chunk was abandoned.
	 */
	private class Slot implements RedisCommand<byte[], byte[], Object> {

		private final CommandOutput<byte[], byte[], ?> output;

		private volatile boolean done;

		@SuppressWarnings("unchecked")
		Slot(CommandOutput<byte[], byte[], ?> output) {
			this.output = output;
		}

		/**
		 * The reply was decoded into the output (on the event loop).
		 */
		void answered() {
		}

		@Override
		@SuppressWarnings({ "unchecked", "rawtypes" })
		public CommandOutput<byte[], byte[], Object> getOutput() {
			return (CommandOutput) this.output;
		}

		@Override
		public void complete() {
			if (this.done) {
				return;
			}
			this.done = true;
			try {
				if (!ReplySlots.this.abandoned) {
					answered();
				}
			}
			finally {
				// a command whose completion failed still has its reply: the chunk must
				// not wait out its deadline for it
				ReplySlots.this.left.countDown();
			}
		}

		@Override
		public boolean completeExceptionally(Throwable failure) {
			if (this.done) {
				return false;
			}
			this.done = true;
			// a closed connection or a write that failed: the command has no reply the
			// batch can read (a reply its output cannot take is not a failure of the
			// slot: see ReplyForwarding)
			ReplySlots.this.failed = true;
			ReplySlots.this.left.countDown();
			return true;
		}

		@Override
		public void cancel() {
			completeExceptionally(new IllegalStateException("cancelled"));
		}

		@Override
		public CommandArgs<byte[], byte[]> getArgs() {
			return NO_ARGUMENTS;
		}

		@Override
		public ProtocolKeyword getType() {
			return KEYWORD;
		}

		@Override
		public void encode(ByteBuf buf) {
			if (this == ReplySlots.this.commands.get(0)) {
				buf.writeBytes(ReplySlots.this.bytes, ReplySlots.this.bytes.readerIndex(),
						ReplySlots.this.bytes.readableBytes());
				ReplySlots.this.written = true;
			}
		}

		@Override
		public boolean isCancelled() {
			return false;
		}

		@Override
		public boolean isDone() {
			return this.done;
		}

		@Override
		public void setOutput(CommandOutput<byte[], byte[], Object> output) {
			throw new UnsupportedOperationException("The output of a batch command is fixed");
		}

	}

	/**
	 * The reply of one of the chunk's commands.
	 */
	private final class ResponseSlot extends Slot {

		private final CommandResponse<?> response;

		ResponseSlot(CommandResponse<?> response) {
			super(new ResponseOutput(response, ReplySlots.this.abandonment));
			this.response = response;
		}

		@Override
		void answered() {
			this.response.complete();
		}

	}

	/**
	 * {@code QUEUED}, or the error that refused a command of a transaction: then the
	 * error is the command's reply.
	 */
	private final class QueuedSlot extends Slot {

		private final CommandResponse<?> response;

		QueuedSlot(CommandResponse<?> response) {
			super(new StatusOutput<>(ByteArrayCodec.INSTANCE));
			this.response = response;
		}

		@Override
		void answered() {
			String error = getOutput().getError();
			CommandOutput<byte[], byte[], Object> own = this.response.getOutput();
			if (error != null && own != null) {
				own.setError(error);
				this.response.complete();
			}
		}

	}

	/**
	 * {@code EXEC}'s reply: an error, a null (discarded), or the array of the commands'
	 * replies, each decoded into its command's output.
	 */
	private final class ExecSlot extends Slot {

		ExecSlot(CommandResponse<?>[] responses, int size) {
			super(new ExecOutput(responses, size, ReplySlots.this.abandonment));
		}

		@Override
		void answered() {
			ExecOutput exec = (ExecOutput) (CommandOutput<?, ?, ?>) getOutput();
			if (exec.getError() != null) {
				ReplySlots.this.execError = exec.getError();
			}
			else if (exec.isDiscarded()) {
				ReplySlots.this.execDiscarded = true;
			}
		}

	}

}
