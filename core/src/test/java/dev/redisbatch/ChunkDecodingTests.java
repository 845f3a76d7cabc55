package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.redisbatch.internals.ReplyDecoder;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a chunk decodes its replies on the batch's thread, without a server: every RESP2
 * and RESP3 type, replies split at every byte boundary or arriving a byte at a time,
 * errors between successes, push frames between replies, and the replies that are not a
 * command's ({@code MULTI}, {@code QUEUED}, {@code EXEC}'s header, {@code ASKING}).
 */
@LeakDetection
@EveryLine
class ChunkDecodingTests {

	private static final String PUSH = ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n";

	/**
	 * One reply of each type (with a push frame and an error in the middle), and what the
	 * command's output holds afterwards.
	 */
	private static final List<Expected> EVERY_TYPE = List.of(new Expected("+OK\r\n", StatusOutput::new, "OK"),
			new Expected(":-42\r\n", IntegerOutput::new, -42L),
			new Expected(PUSH + "$5\r\nhello\r\n", ValueOutput::new, "hello"),
			new Expected("$-1\r\n", ValueOutput::new, null),
			new Expected("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", StatusOutput::new,
					new Error("WRONGTYPE Operation against a key holding the wrong kind of value")),
			new Expected("*3\r\n$1\r\na\r\n$-1\r\n$1\r\nc\r\n", ValueListOutput::new, "[a, null, c]"),
			new Expected("$0\r\n\r\n", ValueOutput::new, ""), new Expected("_\r\n", ValueOutput::new, null),
			new Expected("#t\r\n", BooleanOutput::new, true), new Expected(",1.5\r\n", DoubleOutput::new, 1.5),
			new Expected("~2\r\n:1\r\n:2\r\n" + PUSH, ArrayOutput::new, "[1, 2]"),
			new Expected("*2\r\n*1\r\n:3\r\n$1\r\nx\r\n", ArrayOutput::new, "[[3], x]"));

	@Test
	void everyTypeSplitAtEveryByteBoundaryDecodesTheSame() {
		String all = wire(EVERY_TYPE);
		for (int split = 0; split <= all.length(); split++) {
			Decoding decoding = new Decoding(EVERY_TYPE, false);
			boolean first = decoding.feed(all.substring(0, split));
			assertThat(first).as("decoded before the split at %d", split).isEqualTo(split == all.length());
			assertThat(decoding.feed(all.substring(split))).as("split at %d", split).isTrue();
			decoding.assertDecoded();
		}
	}

	@Test
	void repliesArrivingOneByteAtATimeAreDecodedWhenTheLastByteComes() {
		String all = wire(EVERY_TYPE);
		Decoding decoding = new Decoding(EVERY_TYPE, false);
		for (int i = 0; i < all.length() - 1; i++) {
			assertThat(decoding.feed(all.substring(i, i + 1))).isFalse();
		}
		assertThat(decoding.feed(all.substring(all.length() - 1))).isTrue();
		decoding.assertDecoded();
		assertThat(decoding.bytes.isReadable()).isFalse();
	}

	@Test
	void theRepliesOfTheNextChunkStayForIt() {
		List<Expected> two = List.of(new Expected("+OK\r\n", StatusOutput::new, "OK"),
				new Expected(":1\r\n", IntegerOutput::new, 1L));
		Decoding decoding = new Decoding(two, false);

		assertThat(decoding.feed("+OK\r\n:1\r\n:2\r\n")).isTrue();

		decoding.assertDecoded();
		assertThat(decoding.bytes.toString(StandardCharsets.US_ASCII)).isEqualTo(":2\r\n");
	}

	@Test
	void aTransactionsQueuedRepliesAndExecHeaderAreReadInPlace() {
		List<Expected> commands = List.of(new Expected("+QUEUED\r\n", IntegerOutput::new, 1L),
				new Expected("+QUEUED\r\n", ValueOutput::new, "ok"));
		String all = "+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n:1\r\n$2\r\nok\r\n";
		for (int split = 0; split <= all.length(); split++) {
			Decoding decoding = new Decoding(commands, true);
			decoding.feed(all.substring(0, split));
			assertThat(decoding.feed(all.substring(split))).as("split at %d", split).isTrue();
			decoding.assertDecoded();
		}
	}

	@Test
	void aCommandRefusedWhileQueuedHoldsItsErrorAndExecabortEndsTheTransaction() {
		List<Expected> commands = List.of(new Expected("", IntegerOutput::new, null),
				new Expected("", ValueOutput::new, new Error("ERR unknown command 'FOO'")));
		Decoding decoding = new Decoding(commands, true);

		assertThat(decoding.feed("+OK\r\n+QUEUED\r\n-ERR unknown command 'FOO'\r\n"
				+ "-EXECABORT Transaction discarded because of previous errors.\r\n"))
			.isTrue();

		assertThat(decoding.responses.get(0).isDone()).as("queued, never run").isFalse();
		assertThat(decoding.responses.get(1).errorReply()).isEqualTo("ERR unknown command 'FOO'");
		assertThat(decoding.bytes.isReadable()).isFalse();
	}

	@Test
	void aDiscardedTransactionIsANullInRespTwoAndThree() {
		for (String nothing : new String[] { "*-1\r\n", "_\r\n" }) {
			List<Expected> commands = List.of(new Expected("", IntegerOutput::new, null));
			Decoding decoding = new Decoding(commands, true);

			assertThat(decoding.feed("+OK\r\n+QUEUED\r\n" + nothing)).isTrue();

			assertThat(decoding.responses.get(0).isDone()).isFalse();
			assertThat(decoding.bytes.isReadable()).isFalse();
		}
	}

	@Test
	void theReplyToAskingIsNotTheCommandsReply() {
		List<Expected> commands = List.of(new Expected("+OK\r\n", StatusOutput::new, "OK"),
				new Expected("+OK\r\n:5\r\n", IntegerOutput::new, 5L));
		Decoding decoding = new Decoding(commands, false, 1);

		assertThat(decoding.feed(wire(commands))).isTrue();

		decoding.assertDecoded();
	}

	@Test
	void aReplyAnOutputCannotTakeIsReadWholeAndTheNextReplyStillDecodes() {
		List<Expected> commands = List.of(new Expected("$5\r\nhello\r\n", IntegerOutput::new, null),
				new Expected(":7\r\n", IntegerOutput::new, 7L));
		Decoding decoding = new Decoding(commands, false);

		assertThat(decoding.feed(wire(commands))).isTrue();

		OutcomeLedger ledger = new OutcomeLedger();
		assertThat(decoding.responses.get(0).settleFromReply("no reply", ledger)).as("Redis ran it")
			.isEqualTo(Outcome.FAILED);
		assertThat(decoding.responses.get(1).getOutput().get()).isEqualTo(7L);
	}

	@Test
	void flatRepliesDecodedInPlaceHoldWhatTheStateMachineDecodes() {
		List<Expected> flat = List.of(new Expected("+OK\r\n", StatusOutput::new, null),
				new Expected("+\r\n", StatusOutput::new, null), new Expected(":0\r\n", IntegerOutput::new, null),
				new Expected(":-9223372036854775808\r\n", IntegerOutput::new, null),
				new Expected(":9223372036854775807\r\n", IntegerOutput::new, null),
				new Expected("$-1\r\n", ValueOutput::new, null), new Expected("$0\r\n\r\n", ValueOutput::new, null),
				new Expected("$6\r\na\r\nb\r\n\r\n", ValueOutput::new, null),
				new Expected("$" + 70_000 + "\r\n" + "v".repeat(70_000) + "\r\n", ValueOutput::new, null),
				new Expected(":12\r\n", ValueOutput::new, null),
				new Expected("$2\r\nab\r\n", IntegerOutput::new, null));
		List<String> leftToTheStateMachine = new ArrayList<>();
		for (Expected reply : flat) {
			CommandOutput<byte[], byte[], ?> inPlace = reply.output().apply(ByteArrayCodec.INSTANCE);
			CommandOutput<byte[], byte[], ?> byStateMachine = reply.output().apply(ByteArrayCodec.INSTANCE);
			List<Throwable> inPlaceFailures = new ArrayList<>();
			List<Throwable> stateMachineFailures = new ArrayList<>();
			ByteBuf first = Unpooled.copiedBuffer(reply.wire(), StandardCharsets.UTF_8);
			ByteBuf second = first.copy();

			boolean decodedInPlace = FlatReply.decode(first, FlatReply.view(first), inPlace, inPlaceFailures::add);
			boolean decoded = new ReplyDecoder().decode(second, byStateMachine, stateMachineFailures::add);

			assertThat(decoded).isTrue();
			if (decodedInPlace) {
				assertThat(first.isReadable()).as(reply.wire()).isFalse();
				assertThat(text(inPlace.get())).as(reply.wire()).isEqualTo(text(byStateMachine.get()));
				assertThat(inPlace.getError()).as(reply.wire()).isEqualTo(byStateMachine.getError());
				assertThat(inPlaceFailures).as(reply.wire()).hasSameSizeAs(stateMachineFailures);
			}
			else {
				assertThat(first.readerIndex()).as("left untouched: %s", reply.wire()).isZero();
				leftToTheStateMachine.add(reply.wire());
			}
		}
		assertThat(leftToTheStateMachine).as("19 digits are read by the state machine")
			.containsExactly(":-9223372036854775808\r\n", ":9223372036854775807\r\n");
	}

	@Test
	void aFlatReplyIsOnlyDecodedInPlaceOnceItHasFullyArrived() {
		String reply = "$5\r\nhello\r\n";
		for (int length = 1; length < reply.length(); length++) {
			ByteBuf part = Unpooled.copiedBuffer(reply.substring(0, length), StandardCharsets.UTF_8);
			ValueOutput<byte[], byte[]> output = new ValueOutput<>(ByteArrayCodec.INSTANCE);

			assertThat(FlatReply.decode(part, FlatReply.view(part), output, (failure) -> {
			})).as("%d bytes", length).isFalse();

			assertThat(part.readerIndex()).isZero();
			assertThat(output.get()).isNull();
		}
	}

	private static String wire(List<Expected> replies) {
		StringBuilder all = new StringBuilder();
		replies.forEach((reply) -> all.append(reply.wire()));
		return all.toString();
	}

	private static String text(Object value) {
		if (value instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (value instanceof List<?> list) {
			List<String> texts = new ArrayList<>();
			list.forEach((element) -> texts.add((element != null) ? text(element) : "null"));
			return texts.toString();
		}
		return String.valueOf(value);
	}

	private record Error(String text) {
	}

	private record Expected(String wire, Function<ByteArrayCodec, CommandOutput<byte[], byte[], ?>> output,
			Object value) {
	}

	/**
	 * A chunk of the given commands, and the bytes fed to it.
	 */
	private static final class Decoding {

		private final List<Expected> expected;

		private final List<CommandResponse<Object>> responses = new ArrayList<>();

		private final Chunk chunk;

		private final ReplyDecoder decoder = new ReplyDecoder();

		private final ByteBuf bytes = Unpooled.buffer();

		Decoding(List<Expected> expected, boolean transactional, int... askingBefore) {
			this.expected = expected;
			this.chunk = new Chunk(Unpooled.buffer(), 100, transactional, false);
			for (int i = 0; i < expected.size(); i++) {
				CommandResponse<Object> response = new CommandResponse<>(i, CommandType.GET,
						expected.get(i).output().apply(ByteArrayCodec.INSTANCE), (raw) -> raw);
				this.responses.add(response);
				boolean asking = false;
				for (int before : askingBefore) {
					asking |= before == i;
				}
				this.chunk.add(response, 0, 0, 0, asking);
			}
		}

		boolean feed(String part) {
			this.bytes.writeCharSequence(part, StandardCharsets.UTF_8);
			return this.chunk.replies().read(this.bytes, this.decoder);
		}

		void assertDecoded() {
			assertThat(this.chunk.isDecoded()).isTrue();
			for (int i = 0; i < this.expected.size(); i++) {
				CommandResponse<Object> response = this.responses.get(i);
				Object value = this.expected.get(i).value();
				assertThat(response.isDone()).as("reply %d", i).isTrue();
				if (value instanceof Error error) {
					assertThat(response.errorReply()).as("reply %d", i).isEqualTo(error.text());
				}
				else {
					assertThat(response.errorReply()).as("reply %d", i).isNull();
					Object decoded = response.getOutput().get();
					assertThat((decoded != null) ? text(decoded) : null).as("reply %d", i)
						.isEqualTo((value != null) ? String.valueOf(value) : null);
				}
			}
		}

	}

}
