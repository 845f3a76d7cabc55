package dev.redisbatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

import dev.redisbatch.internals.ReplyDecoder;
import dev.redisbatch.wire.ReplyReader;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.PushOutput;
import io.lettuce.core.output.StatusOutput;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * The fast path's reader of one chunk's replies, beside the portable path's
 * {@link ReplySlots}: it decodes them on the batch's thread, in order, as they arrive,
 * straight into the commands' outputs, and completes each command when its reply is
 * whole. It follows the chunk's shape: {@code MULTI}, each command's {@code QUEUED} and
 * {@code EXEC}'s array for a transaction; an {@code ASKING}'s reply before a command sent
 * to a node that imports its slot; an exactly-once chunk's one script reply.
 */
final class ChunkReplies implements ReplyReader {

	/** Expecting the reply to {@code MULTI}. */
	private static final int MULTI = 0;

	/** Expecting the {@code QUEUED} (or the error) of the command at {@link #step}. */
	private static final int QUEUED = 1;

	/** Expecting the start of {@code EXEC}'s reply. */
	private static final int EXEC = 2;

	/** Expecting the reply of the command at {@link #step}. */
	private static final int REPLIES = 3;

	/** Every reply was decoded. */
	private static final int DECODED = 4;

	/** Expecting the one reply of an exactly-once chunk's script. */
	private static final int SCRIPT = 5;

	/**
	 * What {@link #nextOutput} answers for a reply it read in place.
	 */
	private static final CommandOutput<byte[], byte[], ?> READ_IN_PLACE = new StatusOutput<>(ByteArrayCodec.INSTANCE);

	private final CommandResponse<?>[] responses;

	private final int size;

	private final @Nullable List<Integer> askingBefore;

	/**
	 * The reply of an exactly-once chunk's script, or {@code null} for other chunks.
	 */
	private final @Nullable CommandOutput<byte[], byte[], ?> scriptReply;

	private int phase;

	private int step;

	/**
	 * The output of the reply being decoded, or {@code null} between replies.
	 */
	private @Nullable CommandOutput<byte[], byte[], ?> reading;

	/**
	 * The command whose reply is being decoded, while it waits for it.
	 */
	private @Nullable CommandResponse<?> replying;

	private boolean readingPush;

	private boolean askingRead;

	private @Nullable String execError;

	private boolean execDiscarded;

	private final Consumer<Throwable> unreadable = this::unreadable;

	/**
	 * The reader of a chunk's replies.
	 * @param responses the chunk's commands
	 * @param size how many there are
	 * @param transactional whether the chunk is a MULTI/EXEC transaction
	 * @param exactlyOnce whether the chunk is one script, with one reply
	 * @param askingBefore the commands an {@code ASKING} goes before, or {@code null}
	 */
	ChunkReplies(CommandResponse<?>[] responses, int size, boolean transactional, boolean exactlyOnce,
			@Nullable List<Integer> askingBefore) {
		this.responses = responses;
		this.size = size;
		this.askingBefore = askingBefore;
		this.phase = transactional ? MULTI : (exactlyOnce ? SCRIPT : REPLIES);
		this.scriptReply = exactlyOnce ? new ByteArrayOutput<>(ByteArrayCodec.INSTANCE) : null;
	}

	/**
	 * Whether every reply of the chunk (and of its {@code EXEC}) was decoded.
	 */
	@Override
	public boolean isDecoded() {
		return this.phase == DECODED;
	}

	/**
	 * {@code EXEC}'s error ({@code EXECABORT}), or {@code null}.
	 */
	@Nullable String execError() {
		return this.execError;
	}

	/**
	 * Whether the transaction was discarded.
	 */
	boolean execDiscarded() {
		return this.execDiscarded;
	}

	/**
	 * The output of an exactly-once chunk's script reply, or {@code null} for other
	 * chunks.
	 */
	@Nullable CommandOutput<byte[], byte[], ?> scriptReply() {
		return this.scriptReply;
	}

	/**
	 * Decode as many of the chunk's replies as the bytes hold. RESP3 push frames between
	 * replies are read past. Replies that come after the chunk settled (late ones) are
	 * read too, and dropped.
	 * @param bytes the connection's bytes, from the next reply on
	 * @param decoder the connection's decoder, which keeps a reply read in part
	 * @return whether every reply of the chunk is decoded
	 */
	@Override
	public boolean read(ByteBuf bytes, ReplyDecoder decoder) {
		// the bytes' view for flat replies, taken once: nothing writes to them meanwhile
		ByteBuffer view = null;
		while (this.phase != DECODED) {
			CommandOutput<byte[], byte[], ?> output = this.reading;
			if (output == null) {
				if (!bytes.isReadable()) {
					return false;
				}
				if (view == null) {
					view = FlatReply.view(bytes);
				}
				if (bytes.getByte(bytes.readerIndex()) == '>') {
					// a push frame (a RESP3 maintenance or tracking notice) is not a
					// reply
					output = new PushOutput<>(ByteArrayCodec.INSTANCE);
					this.readingPush = true;
				}
				else {
					output = nextOutput(bytes);
					if (output == null) {
						return false;
					}
					if (output == READ_IN_PLACE) {
						continue;
					}
					if (FlatReply.decode(bytes, view, output, this.unreadable)) {
						replyRead();
						continue;
					}
				}
				this.reading = output;
			}
			if (!decoder.decode(bytes, output, this.unreadable)) {
				return false;
			}
			this.reading = null;
			if (this.readingPush) {
				this.readingPush = false;
			}
			else {
				replyRead();
			}
		}
		return true;
	}

	/**
	 * The output for the next reply; {@link #READ_IN_PLACE} when it was a status line
	 * read past or {@code EXEC}'s header, or {@code null} when its line has not fully
	 * arrived.
	 */
	private @Nullable CommandOutput<byte[], byte[], ?> nextOutput(ByteBuf bytes) {
		switch (this.phase) {
			case MULTI -> {
				if (!skipLine(bytes)) {
					return null;
				}
				this.phase = QUEUED;
				this.step = 0;
				return READ_IN_PLACE;
			}
			case QUEUED -> {
				if (bytes.getByte(bytes.readerIndex()) != '+') {
					// refused while queued: the error is the command's reply
					return outputOf(this.step);
				}
				if (!skipLine(bytes)) {
					return null;
				}
				nextQueued();
				return READ_IN_PLACE;
			}
			case EXEC -> {
				return readExecHeader(bytes) ? READ_IN_PLACE : null;
			}
			case SCRIPT -> {
				this.replying = null;
				CommandOutput<byte[], byte[], ?> script = this.scriptReply;
				return (script != null) ? script : new PushOutput<>(ByteArrayCodec.INSTANCE);
			}
			default -> {
				List<Integer> asking = this.askingBefore;
				if (asking != null && !this.askingRead && asking.contains(this.step)) {
					// the reply to ASKING is not a command's
					if (!skipLine(bytes)) {
						return null;
					}
					this.askingRead = true;
					return READ_IN_PLACE;
				}
				return outputOf(this.step);
			}
		}
	}

	private CommandOutput<byte[], byte[], ?> outputOf(int i) {
		CommandResponse<?> response = this.responses[i];
		CommandOutput<byte[], byte[], ?> output = response.isSettled() ? null : response.getOutput();
		if (output == null) {
			// settled already (its deadline passed): the late reply is read and dropped
			this.replying = null;
			return new PushOutput<>(ByteArrayCodec.INSTANCE);
		}
		this.replying = response;
		return output;
	}

	private void replyRead() {
		CommandResponse<?> response = this.replying;
		this.replying = null;
		if (response != null) {
			response.complete();
		}
		if (this.phase == SCRIPT) {
			this.phase = DECODED;
			return;
		}
		if (this.phase == QUEUED) {
			nextQueued();
			return;
		}
		this.askingRead = false;
		if (++this.step == this.size) {
			this.phase = DECODED;
		}
	}

	private void nextQueued() {
		if (++this.step == this.size) {
			this.phase = EXEC;
			this.step = 0;
		}
	}

	private void unreadable(Throwable failure) {
		CommandResponse<?> response = this.replying;
		if (response != null) {
			response.completeExceptionally(failure);
		}
	}

	/**
	 * Read {@code EXEC}'s reply up to its elements: an error ({@code EXECABORT}), a null
	 * (the transaction was discarded), or the header of the array of the commands'
	 * replies, which follow.
	 * @return {@code false} when its line has not fully arrived
	 */
	private boolean readExecHeader(ByteBuf bytes) {
		int start = bytes.readerIndex();
		int end = bytes.indexOf(start, bytes.writerIndex(), (byte) '\n');
		if (end < 0) {
			return false;
		}
		byte type = bytes.getByte(start);
		String line = bytes.toString(start + 1, Math.max(0, end - start - 2), StandardCharsets.UTF_8);
		bytes.readerIndex(end + 1);
		if (type == '-') {
			this.execError = line;
			this.phase = DECODED;
		}
		else if (type == '_' || line.startsWith("-")) {
			this.execDiscarded = true;
			this.phase = DECODED;
		}
		else {
			this.phase = REPLIES;
			this.step = 0;
		}
		return true;
	}

	/**
	 * Read past a whole status line.
	 * @return {@code false} when the line has not fully arrived
	 */
	private static boolean skipLine(ByteBuf bytes) {
		int end = bytes.indexOf(bytes.readerIndex(), bytes.writerIndex(), (byte) '\n');
		if (end < 0) {
			return false;
		}
		bytes.readerIndex(end + 1);
		return true;
	}

}
