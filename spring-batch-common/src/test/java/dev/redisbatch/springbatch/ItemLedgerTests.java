package dev.redisbatch.springbatch;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import dev.redisbatch.Batch;
import dev.redisbatch.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the writer remembers, without a server: its string form, how a restart reads it,
 * and the fingerprints that recognise an item's commands.
 */
class ItemLedgerTests {

	@Test
	void theStringFormRoundTripsAndARefusedCommandMayRunAfterARestart() {
		ItemLedger ledger = new ItemLedger();
		ledger.set(0, new ItemLedger.Item(List.of(new ItemLedger.Command(0xcafe, false, Outcome.SUCCESS),
				new ItemLedger.Command(-1, true, Outcome.UNKNOWN))));
		ledger.set(1, new ItemLedger.Item(List.of(new ItemLedger.Command(7, false, Outcome.FAILED))));
		ledger.set(2, new ItemLedger.Item(List.of()));
		ledger.set(3, new ItemLedger.Item(List.of(new ItemLedger.Command(8, false, Outcome.NOT_SENT))));

		String text = ledger.encode();

		assertThat(text).isEqualTo("l1:Scafe.uffffffff,F7,,N8");
		ItemLedger restored = ItemLedger.decodeForRestart(text);
		assertThat(restored.size()).isEqualTo(4);
		assertThat(restored.get(0).commands()).containsExactly(new ItemLedger.Command(0xcafe, false, Outcome.SUCCESS),
				new ItemLedger.Command(-1, true, Outcome.UNKNOWN));
		assertThat(restored.get(1).commands()).containsExactly(new ItemLedger.Command(7, false, Outcome.NOT_SENT));
		assertThat(restored.get(2).commands()).isEmpty();
		assertThat(restored.get(3).commands()).containsExactly(new ItemLedger.Command(8, false, Outcome.NOT_SENT));
		assertThat(ItemLedger.decodeForRestart("l1:").isEmpty()).isTrue();
	}

	@Test
	void aDamagedStringFormIsRefusedWithTheReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> ItemLedger.decodeForRestart("S1"))
			.withMessageContaining("does not start with 'l1:'");
		assertThatIllegalArgumentException().isThrownBy(() -> ItemLedger.decodeForRestart("l1:X1"))
			.withMessageContaining("'X' is not an outcome letter");
		assertThatIllegalArgumentException().isThrownBy(() -> ItemLedger.decodeForRestart("l1:S"))
			.withMessageContaining("is not a command entry");
		assertThatIllegalArgumentException().isThrownBy(() -> ItemLedger.decodeForRestart("l1:Szz"))
			.withMessageContaining("has no fingerprint");
	}

	@Test
	void anItemIsRecognisedByTheCommandsItRecordedEvenWhenItsMapperStoppedHalfWay() {
		ItemLedger.Item item = new ItemLedger.Item(List.of(new ItemLedger.Command(1, false, Outcome.SUCCESS),
				new ItemLedger.Command(2, false, Outcome.NOT_SENT)));

		assertThat(item.sameCommandsAs(List.of(1, 2))).isTrue();
		assertThat(item.sameCommandsAs(List.of(1, 2, 3))).as("recorded half-way before").isTrue();
		assertThat(item.sameCommandsAs(List.of(1))).isFalse();
		assertThat(item.sameCommandsAs(List.of(2, 1))).isFalse();
	}

	@Test
	void anUnknownOutcomeSettledByACheckBecomesSuccessOrNotSent() {
		ItemLedger.Item item = new ItemLedger.Item(List.of(new ItemLedger.Command(1, false, Outcome.UNKNOWN),
				new ItemLedger.Command(2, true, Outcome.UNKNOWN)));

		assertThat(item.hasUnknownNotIdempotent()).isTrue();
		assertThat(item.withUnknownSettled(true).commands()).extracting(ItemLedger.Command::outcome)
			.containsExactly(Outcome.SUCCESS, Outcome.UNKNOWN);
		assertThat(item.withUnknownSettled(false).commands()).extracting(ItemLedger.Command::outcome)
			.containsExactly(Outcome.NOT_SENT, Outcome.UNKNOWN);
	}

	@Test
	void fingerprintsDependOnTheCommandAndItsArgumentsOnly() throws Exception {
		Method set = Batch.class.getMethod("set", Object.class, Object.class, Duration.class);
		Method setIfAbsent = Batch.class.getMethod("setIfAbsent", Object.class, Object.class, Duration.class);
		Method sadd = Batch.class.getMethod("sadd", Object.class, Object[].class);

		int first = ChunkRecording.fingerprint(set, new Object[] { "order:1", "a", Duration.ofHours(1) });

		assertThat(ChunkRecording.fingerprint(set, new Object[] { new String("order:1"), "a", Duration.ofMinutes(60) }))
			.isEqualTo(first);
		assertThat(ChunkRecording.fingerprint(set, new Object[] { "order:2", "a", Duration.ofHours(1) }))
			.isNotEqualTo(first);
		assertThat(ChunkRecording.fingerprint(setIfAbsent, new Object[] { "order:1", "a", Duration.ofHours(1) }))
			.isNotEqualTo(first);
		assertThat(ChunkRecording.fingerprint(sadd, new Object[] { "tags", new Object[] { "x", "y" } })).isEqualTo(
				ChunkRecording.fingerprint(sadd, new Object[] { "tags", new Object[] { new String("x"), "y" } }));
	}

}
