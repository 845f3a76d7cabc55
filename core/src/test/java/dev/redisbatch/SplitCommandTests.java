package dev.redisbatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A multi-key command whose keys span slots of a cluster is sent as one command per slot,
 * and the replies are put back together for the whole, which is one command of the batch.
 * No server: the parts' replies are given here as Lettuce would decode them.
 */
class SplitCommandTests {

	// "a", "b" and "c" are in three different slots; "{a}x" shares the slot of "a"
	private static final byte[][] KEYS = { bytes("a"), bytes("b"), bytes("{a}x"), bytes("c") };

	private final OutcomeLedger ledger = new OutcomeLedger();

	@Test
	void groupsTheKeysPerSlotInTheirOrderAndWritesOneCommandPerSlot() {
		SplitCommand split = split(CommandType.DEL, new IntegerOutput<>(ByteArrayCodec.INSTANCE));

		assertThat(split.parts()).extracting(SplitCommand.Part::slot)
			.containsExactly(Slots.of(bytes("a")), Slots.of(bytes("b")), Slots.of(bytes("c")));
		assertThat(arguments(split.parts().get(0))).containsExactly("DEL", "a", "{a}x");
		assertThat(arguments(split.parts().get(1))).containsExactly("DEL", "b");
		assertThat(arguments(split.parts().get(2))).containsExactly("DEL", "c");
	}

	@Test
	void addsUpTheCountsOfTheParts() {
		AsyncCommand<byte[], byte[], Long> template = template(CommandType.DEL,
				new IntegerOutput<>(ByteArrayCodec.INSTANCE));
		CommandResponse<Object> whole = new CommandResponse<>(0, template, (raw) -> raw);
		SplitCommand split = new SplitCommand(whole, CommandType.DEL, KEYS, this.ledger);

		answer(split.parts().get(0), 2L);
		answer(split.parts().get(1), 0L);
		answer(split.parts().get(2), 1L);

		assertThat(whole.outcome()).isEqualTo(Outcome.SUCCESS);
		assertThat(whole.get()).isEqualTo(3L);
		assertThat(template.getNow(null)).as("the template's own command completes too").isEqualTo(3L);
		assertThat(this.ledger.count(Outcome.SUCCESS)).as("the whole is one command of the batch").isEqualTo(1);
		assertThat(this.ledger.total()).isEqualTo(1);
	}

	@Test
	void putsTheValuesOfMgetBackInTheOrderOfItsKeys() {
		AsyncCommand<byte[], byte[], List<byte[]>> template = template(CommandType.MGET,
				new ValueListOutput<>(ByteArrayCodec.INSTANCE));
		CommandResponse<Object> whole = new CommandResponse<>(0, template, (raw) -> raw);
		SplitCommand split = new SplitCommand(whole, CommandType.MGET, KEYS, this.ledger);

		// parts: [a, {a}x], [b], [c]; b is missing
		answer(split.parts().get(2), values("C"));
		answer(split.parts().get(0), values("A", "AX"));
		answer(split.parts().get(1), values((String) null));

		assertThat(whole.outcome()).isEqualTo(Outcome.SUCCESS);
		assertThat(texts(whole.get())).containsExactly("A", null, "AX", "C");
	}

	@Test
	void failsAsAWholeWhenAPartIsRefused() {
		CommandResponse<Object> whole = whole(CommandType.DEL);
		SplitCommand split = new SplitCommand(whole, CommandType.DEL, KEYS, this.ledger);

		answer(split.parts().get(0), 1L);
		refuse(split.parts().get(1), "NOPERM this user has no permissions to access one of the keys");
		answer(split.parts().get(2), 1L);

		assertThat(whole.outcome()).isEqualTo(Outcome.FAILED);
		assertThat(this.ledger.toResults("t", 1, java.time.Duration.ZERO, null).failures()).singleElement()
			.satisfies((failure) -> {
				assertThat(failure.index()).isZero();
				assertThat(failure.command()).isEqualTo("DEL");
				assertThat(failure.message()).startsWith("NOPERM")
					.endsWith("(its keys span 3 slots, so it was sent as one command per slot)");
			});
	}

	@Test
	void isNotSentWhenNoPartWasSent() {
		CommandResponse<Object> whole = whole(CommandType.DEL);
		SplitCommand split = new SplitCommand(whole, CommandType.DEL, KEYS, this.ledger);

		for (SplitCommand.Part part : split.parts()) {
			part.response().settle(Outcome.NOT_SENT, "not sent: the batch stopped early (test)", this.ledger);
		}

		assertThat(whole.outcome()).isEqualTo(Outcome.NOT_SENT);
		assertThat(this.ledger.count(Outcome.NOT_SENT)).isEqualTo(1);
	}

	@Test
	void isUnknownWhenSomePartsRanAndOthersDidNot() {
		CommandResponse<Object> whole = whole(CommandType.DEL);
		SplitCommand split = new SplitCommand(whole, CommandType.DEL, KEYS, this.ledger);

		answer(split.parts().get(0), 2L);
		split.parts().get(1).response().settle(Outcome.NOT_SENT, "not sent", this.ledger);
		split.parts().get(2).response().settle(Outcome.UNKNOWN, "sent, but no reply", this.ledger);

		assertThat(whole.outcome()).isEqualTo(Outcome.UNKNOWN);
		assertThat(this.ledger.count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(this.ledger.total()).isEqualTo(1);
	}

	@Test
	void waitsForEveryPartBeforeTheWholeHasItsOutcome() {
		CommandResponse<Object> whole = whole(CommandType.DEL);
		SplitCommand split = new SplitCommand(whole, CommandType.DEL, KEYS, this.ledger);

		answer(split.parts().get(0), 1L);
		answer(split.parts().get(1), 1L);

		assertThat(whole.isSettled()).isFalse();
		assertThat(this.ledger.total()).isZero();
	}

	private SplitCommand split(CommandType type, CommandOutput<byte[], byte[], ?> output) {
		return new SplitCommand(new CommandResponse<>(0, template(type, output), (raw) -> raw), type, KEYS,
				this.ledger);
	}

	private static CommandResponse<Object> whole(CommandType type) {
		return new CommandResponse<>(0, template(type, new IntegerOutput<>(ByteArrayCodec.INSTANCE)), (raw) -> raw);
	}

	private static <T> AsyncCommand<byte[], byte[], T> template(CommandType type,
			CommandOutput<byte[], byte[], T> output) {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE);
		for (byte[] key : KEYS) {
			args.addKey(key);
		}
		return new AsyncCommand<>(new Command<>(type, output, args));
	}

	private void answer(SplitCommand.Part part, long count) {
		part.response().getOutput().set(count);
		part.response().complete();
		part.response().settleFromReply("no reply", this.ledger);
	}

	private void answer(SplitCommand.Part part, List<byte @Nullable []> values) {
		CommandOutput<byte[], byte[], Object> output = part.response().getOutput();
		output.multi(values.size());
		for (byte[] value : values) {
			output.set((value != null) ? ByteBuffer.wrap(value) : null);
		}
		part.response().complete();
		part.response().settleFromReply("no reply", this.ledger);
	}

	private void refuse(SplitCommand.Part part, String error) {
		part.response().getOutput().setError(error);
		part.response().complete();
		part.response().settleFromReply("no reply", this.ledger);
	}

	private static List<String> arguments(SplitCommand.Part part) {
		// *<n> then the bulk strings
		byte[] bytes = part.bytes();
		int start = 0;
		while (bytes[start] != '\n') {
			start++;
		}
		List<byte[]> bulks = RespWriter.bulks(Unpooled.wrappedBuffer(bytes, start + 1, bytes.length - start - 1));
		return bulks.stream().map((bulk) -> new String(bulk, StandardCharsets.UTF_8)).toList();
	}

	private static List<byte @Nullable []> values(@Nullable String... texts) {
		List<byte @Nullable []> values = new ArrayList<>();
		for (String text : texts) {
			values.add((text != null) ? bytes(text) : null);
		}
		return values;
	}

	@SuppressWarnings("unchecked")
	private static List<@Nullable String> texts(Object values) {
		return ((List<byte @Nullable []>) values).stream()
			.map((value) -> (value != null) ? new String(value, StandardCharsets.UTF_8) : null)
			.toList();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static {
		// the premise of these tests: a, b and c in three slots, {a}x with a
		assertThat(Arrays.stream(new String[] { "a", "b", "c" }).map((key) -> Slots.of(bytes(key))).distinct())
			.hasSize(3);
		assertThat(Slots.of(bytes("{a}x"))).isEqualTo(Slots.of(bytes("a")));
	}

}
