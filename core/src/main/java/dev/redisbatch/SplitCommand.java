package dev.redisbatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * A multi-key command of {@code RedisTemplate} code ({@code DEL}, {@code UNLINK},
 * {@code EXISTS}, {@code TOUCH}, {@code MGET}) whose keys span slots of a cluster: it is
 * sent as one command per slot, and the replies are put back together for the whole
 * (counts are added up; {@code MGET}'s values come back in the order of its keys).
 * <p>
 * The whole is one command of the batch. Its outcome is {@link Outcome#SUCCESS} when
 * every part succeeded, {@link Outcome#FAILED} when a part failed,
 * {@link Outcome#NOT_SENT} when no part was sent, and {@link Outcome#UNKNOWN} otherwise:
 * then some parts may have run.
 */
final class SplitCommand {

	private final CommandResponse<?> whole;

	private final OutcomeLedger ledger;

	private final List<Part> parts = new ArrayList<>();

	/**
	 * For each key of the whole: its part, and its position in that part.
	 */
	private final int[] partOf;

	private final int[] positionInPart;

	private int unsettled;

	SplitCommand(CommandResponse<?> whole, ProtocolKeyword type, byte[][] keys, OutcomeLedger ledger) {
		this.whole = whole;
		this.ledger = ledger;
		this.partOf = new int[keys.length];
		this.positionInPart = new int[keys.length];
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < keys.length; i++) {
			bySlot.computeIfAbsent(Slots.of(keys[i]), (slot) -> new ArrayList<>()).add(i);
		}
		boolean values = type == CommandType.MGET;
		for (Map.Entry<Integer, List<Integer>> group : bySlot.entrySet()) {
			List<Integer> indexes = group.getValue();
			ByteBuf buffer = Unpooled.buffer();
			RespWriter.array(buffer, 1 + indexes.size());
			RespWriter.bulk(buffer, type);
			for (int position = 0; position < indexes.size(); position++) {
				int key = indexes.get(position);
				RespWriter.bulk(buffer, keys[key]);
				this.partOf[key] = this.parts.size();
				this.positionInPart[key] = position;
			}
			byte[] bytes = new byte[buffer.readableBytes()];
			buffer.readBytes(bytes);
			CommandOutput<byte[], byte[], ?> output = values ? new ValueListOutput<>(ByteArrayCodec.INSTANCE)
					: new IntegerOutput<>(ByteArrayCodec.INSTANCE);
			CommandResponse<@Nullable Object> response = new CommandResponse<>(-1, type, output, (raw) -> raw);
			response.whenSettled(this::partSettled);
			this.parts.add(new Part(group.getKey(), bytes, response));
		}
		this.unsettled = this.parts.size();
	}

	List<Part> parts() {
		return this.parts;
	}

	private void partSettled() {
		if (--this.unsettled > 0) {
			return;
		}
		Part failed = null;
		int notSent = 0;
		int succeeded = 0;
		for (Part part : this.parts) {
			Outcome outcome = part.response().outcome();
			if (outcome == Outcome.FAILED && failed == null) {
				failed = part;
			}
			notSent += (outcome == Outcome.NOT_SENT) ? 1 : 0;
			succeeded += (outcome == Outcome.SUCCESS) ? 1 : 0;
		}
		String split = Messages.splitSuffix(this.parts.size());
		if (failed != null) {
			this.whole.settle(Outcome.FAILED, failed.response().failure().message() + split, this.ledger);
		}
		else if (notSent == this.parts.size()) {
			this.whole.settle(Outcome.NOT_SENT, this.parts.get(0).response().failure().message(), this.ledger);
		}
		else if (succeeded < this.parts.size()) {
			this.whole.settle(Outcome.UNKNOWN, Messages.splitPartly() + split, this.ledger);
		}
		else {
			combine();
			this.whole.complete();
			this.whole.settleFromReply("", this.ledger);
		}
	}

	@SuppressWarnings("unchecked")
	private void combine() {
		CommandOutput<byte[], byte[], Object> output = this.whole.getOutput();
		if (this.parts.get(0).response().getType() == CommandType.MGET) {
			output.multi(this.partOf.length);
			for (int key = 0; key < this.partOf.length; key++) {
				List<byte @Nullable []> values = (List<byte @Nullable []>) this.parts.get(this.partOf[key])
					.response()
					.get();
				byte[] value = values.get(this.positionInPart[key]);
				output.set((value != null) ? ByteBuffer.wrap(value) : null);
			}
			return;
		}
		long total = 0;
		for (Part part : this.parts) {
			total += (Long) part.response().get();
		}
		output.set(total);
	}

	/**
	 * The command for the keys of one slot.
	 *
	 * @param slot the slot
	 * @param bytes the command as it goes on the wire
	 * @param response its reply
	 */
	record Part(int slot, byte[] bytes, CommandResponse<@Nullable Object> response) {

	}

}
