package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The portable path's slots, driven the way Lettuce's event loop drives them (encode,
 * decode into the outputs, complete), without a server: what the batch's thread reads of
 * them must never contradict what happened on the wire.
 */
class ReplySlotsTests {

	private final ByteBuf bytes = Unpooled.copiedBuffer("*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n", StandardCharsets.UTF_8);

	@Test
	void aChunkRefusedBeforeItsFirstCommandWasEncodedIsRefusedUnwritten() {
		ReplySlots slots = pipelined(incr());

		slots.commands().forEach((command) -> command.completeExceptionally(new RedisException("Connection closed")));

		assertThat(slots.isRefusedUnwritten()).isTrue();
		assertThat(slots.isWritten()).isFalse();
	}

	@Test
	void aChunkWrittenAndAnsweredIsNotRefusedUnwritten() {
		ReplySlots slots = pipelined(incr());

		writeAndAnswer(slots);

		assertThat(slots.isRefusedUnwritten()).isFalse();
		assertThat(slots.isAnswered()).isTrue();
	}

	@Test
	void aChunkWrittenAndAnsweredWhileTheBatchAsksIsNeverTakenForOneRefusedUnwritten() throws Exception {
		// the event loop writes and answers the chunk while the batch's thread asks
		// whether it was refused unwritten: whatever the interleaving, it was not
		ExecutorService eventLoop = Executors.newSingleThreadExecutor();
		try {
			CyclicBarrier start = new CyclicBarrier(2);
			for (int i = 0; i < 20_000; i++) {
				ReplySlots slots = pipelined(incr());
				Future<?> written = eventLoop.submit(() -> {
					start.await(10, TimeUnit.SECONDS);
					writeAndAnswer(slots);
					return null;
				});
				start.await(10, TimeUnit.SECONDS);
				while (!slots.isComplete()) {
					assertThat(slots.isRefusedUnwritten()).as("round %d", i).isFalse();
				}
				assertThat(slots.isRefusedUnwritten()).as("round %d", i).isFalse();
				written.get(10, TimeUnit.SECONDS);
			}
		}
		finally {
			eventLoop.shutdownNow();
		}
	}

	@Test
	void aCommandWhoseCompletionFailsStillCountsItsChunkDown() {
		Command<byte[], byte[], Long> failing = new Command<>(CommandType.INCR,
				new IntegerOutput<>(ByteArrayCodec.INSTANCE)) {

			@Override
			public void complete() {
				throw new IllegalStateException("the holder's completion failed");
			}

		};
		CommandResponse<Long> response = new CommandResponse<>(0, failing, (raw) -> (Long) raw);
		ReplySlots slots = pipelined(response);
		RedisCommand<byte[], byte[], ?> slot = slots.commands().get(0);
		slot.encode(Unpooled.buffer());
		slot.getOutput().set(1L);

		assertThatIllegalStateException().isThrownBy(slot::complete);

		assertThat(slots.isComplete()).as("the chunk does not wait out its deadline").isTrue();
	}

	@Test
	void anExecReplyThatComesAfterTheChunkWasAbandonedCompletesNoCommand() {
		CommandResponse<Long> response = incr();
		ReplySlots slots = new ReplySlots(this.bytes, new CommandResponse<?>[] { response }, 1, true, null);
		List<RedisCommand<byte[], byte[], ?>> commands = slots.commands();
		commands.get(0).encode(Unpooled.buffer());
		commands.get(0).getOutput().set(StandardCharsets.UTF_8.encode("OK"));
		commands.get(0).complete();
		commands.get(1).getOutput().set(StandardCharsets.UTF_8.encode("QUEUED"));
		commands.get(1).complete();

		// the deadline passed: the batch's thread settles the commands from here on
		slots.abandon();
		CommandOutput<byte[], byte[], ?> exec = commands.get(2).getOutput();
		exec.multiArray(1);
		exec.set(7L);
		exec.complete(1);
		exec.complete(0);
		commands.get(2).complete();

		assertThat(response.isDone()).isFalse();
		assertThat(response.getOutput().get()).isNull();
	}

	@Test
	void anOutputThatCannotTakeItsReplyFailsItsCommandAloneAndTheChunkIsAnswered() {
		CommandResponse<Long> mismatched = incr();
		CommandResponse<Long> next = incr();
		ReplySlots slots = pipelined(mismatched, next);
		List<RedisCommand<byte[], byte[], ?>> commands = slots.commands();
		commands.get(0).encode(Unpooled.buffer());

		// an integer output given a bulk string, as Lettuce's decoder would hand it
		commands.get(0).getOutput().set(StandardCharsets.UTF_8.encode("not a number"));
		commands.get(0).complete();
		commands.get(1).getOutput().set(2L);
		commands.get(1).complete();

		assertThat(slots.isAnswered()).isTrue();
		OutcomeLedger ledger = new OutcomeLedger();
		assertThat(mismatched.settleFromReply("no reply", ledger)).isEqualTo(Outcome.FAILED);
		assertThat(next.settleFromReply("no reply", ledger)).isEqualTo(Outcome.SUCCESS);
		assertThat(next.get()).isEqualTo(2L);
	}

	private ReplySlots pipelined(CommandResponse<?>... responses) {
		return new ReplySlots(this.bytes, responses, responses.length, false, null);
	}

	private static CommandResponse<Long> incr() {
		return new CommandResponse<>(0, CommandType.INCR, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				(raw) -> (Long) raw);
	}

	/**
	 * What the event loop does for a chunk that goes out and is answered: encode every
	 * command (the first writes the chunk's bytes), then decode each reply into its
	 * output and complete it.
	 */
	private static void writeAndAnswer(ReplySlots slots) {
		ByteBuf wire = Unpooled.buffer();
		for (RedisCommand<byte[], byte[], ?> command : slots.commands()) {
			command.encode(wire);
		}
		wire.release();
		long reply = 1;
		for (RedisCommand<byte[], byte[], ?> command : slots.commands()) {
			command.getOutput().set(reply++);
			command.complete();
		}
	}

}
