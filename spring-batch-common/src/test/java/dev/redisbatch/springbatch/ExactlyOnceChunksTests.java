package dev.redisbatch.springbatch;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How an exactly-once writer names its batches, without a server: the same batch for a
 * chunk written again whole, a new one otherwise, across a restart of the step.
 */
class ExactlyOnceChunksTests {

	private static final long NOW = 1_800_000_000_000L;

	private final Map<String, Object> saved = new HashMap<>();

	private final StepState state = new StepState(this.saved::get, this.saved::put, this.saved::remove,
			IllegalStateException::new);

	@Test
	void aChunkSentWholeIsTheSameBatchWhenWrittenAgainAndAfterARestart() {
		ExactlyOnceChunks chunks = new ExactlyOnceChunks("visits", Duration.ofHours(24));
		chunks.open(this.state, false);
		BatchOptions first = chunks.next(BatchOptions.builder().build(), NOW);
		chunks.sentWhole(true);
		chunks.save(this.state);

		assertThat(chunks.whyNotReplay(true, NOW + 1_000)).isNull();
		assertThat(chunks.replay(BatchOptions.builder().build()).exactlyOnceId()).isEqualTo(first.exactlyOnceId())
			.startsWith("sb:");
		ExactlyOnceChunks restarted = new ExactlyOnceChunks("visits", Duration.ofHours(24));
		restarted.open(this.state, false);
		assertThat(restarted.whyNotReplay(true, NOW + 60_000)).isNull();
		assertThat(restarted.replay(BatchOptions.builder().build()).exactlyOnceId()).isEqualTo(first.exactlyOnceId());
		assertThat(restarted.next(BatchOptions.builder().build(), NOW).exactlyOnceId())
			.isNotEqualTo(first.exactlyOnceId());
	}

	@Test
	void aChunkIsANewBatchWhenItsMarkersMayHaveExpiredOrItWasNotSentWholeOrRefusedBeforeARestart() {
		ExactlyOnceChunks chunks = new ExactlyOnceChunks("visits", Duration.ofHours(1));
		chunks.open(this.state, false);
		chunks.next(BatchOptions.builder().build(), NOW);
		chunks.sentWhole(true);
		assertThat(chunks.whyNotReplay(true, NOW + Duration.ofMinutes(50).toMillis())).isNull();
		assertThat(chunks.whyNotReplay(true, NOW + Duration.ofMinutes(55).toMillis())).contains("window");

		chunks.committed();
		assertThat(chunks.whyNotReplay(true, NOW)).contains("not the whole chunk");

		chunks.sentWhole(true);
		chunks.save(this.state);
		ExactlyOnceChunks restarted = new ExactlyOnceChunks("visits", Duration.ofHours(1));
		restarted.open(this.state, true);
		assertThat(restarted.whyNotReplay(false, NOW)).contains("refused");
		assertThat(restarted.whyNotReplay(true, NOW)).as("unknown outcomes are read from the markers first").isNull();
	}

	@Test
	void whatCannotBeReadFailsTheOpen() {
		this.saved.put("visits.exactly-once.batch", "x:1");
		ExactlyOnceChunks chunks = new ExactlyOnceChunks("visits", Duration.ofHours(1));

		assertThatIllegalArgumentException().isThrownBy(() -> chunks.open(this.state, false))
			.withMessageContaining("<sequence>");
	}

	@Test
	void aSavedLedgerTellsWhetherRedisRefusedACommand() {
		assertThat(ItemLedger.hasRefused("l1:Scafe.uffffffff,F7,,N8")).isTrue();
		assertThat(ItemLedger.hasRefused("l1:Sfcafe.uffffffff,,N8.f1")).isTrue();
		assertThat(ItemLedger.hasRefused("l1:Sfcafe.uffffffff,,N8")).isFalse();
		assertThat(ItemLedger.hasRefused("l1:")).isFalse();
	}

}
