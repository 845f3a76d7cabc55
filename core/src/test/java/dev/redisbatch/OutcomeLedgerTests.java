package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link OutcomeLedger}: counts, failures in index order, slices and the
 * {@link BatchResults} built from them. No server.
 */
class OutcomeLedgerTests {

	@Test
	void countsNothingWhenNothingWasRecorded() {
		OutcomeLedger ledger = new OutcomeLedger();

		assertThat(ledger.total()).isZero();
		for (Outcome outcome : Outcome.values()) {
			assertThat(ledger.count(outcome)).isZero();
		}
	}

	@Test
	void countsEachOutcome() {
		OutcomeLedger ledger = mixed();

		assertThat(ledger.count(Outcome.SUCCESS)).isEqualTo(6);
		assertThat(ledger.count(Outcome.FAILED)).isEqualTo(1);
		assertThat(ledger.count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(ledger.count(Outcome.NOT_SENT)).isEqualTo(2);
	}

	@Test
	void addsTheCountsUpToTheTotal() {
		OutcomeLedger ledger = mixed();

		assertThat(ledger.total()).isEqualTo(10)
			.isEqualTo(ledger.count(Outcome.SUCCESS) + ledger.count(Outcome.FAILED) + ledger.count(Outcome.UNKNOWN)
					+ ledger.count(Outcome.NOT_SENT));
	}

	@Test
	void keepsEachFailureWithItsIndexCommandOutcomeAndMessage() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.success();
		ledger.failure(1, "INCR", Outcome.FAILED, "WRONGTYPE Operation against a key holding the wrong kind of value");

		assertThat(results(ledger).failures()).containsExactly(new BatchFailure(1, "INCR", Outcome.FAILED,
				"WRONGTYPE Operation against a key holding the wrong kind of value"));
	}

	@Test
	void givesFailuresInIndexOrderWhenRecordedOutOfOrder() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.failure(5, "SET", Outcome.UNKNOWN, "no reply");
		ledger.failure(1, "INCR", Outcome.FAILED, "WRONGTYPE");
		ledger.failure(3, "GET", Outcome.NOT_SENT, "not sent");

		assertThat(results(ledger).failures()).containsExactly(new BatchFailure(1, "INCR", Outcome.FAILED, "WRONGTYPE"),
				new BatchFailure(3, "GET", Outcome.NOT_SENT, "not sent"),
				new BatchFailure(5, "SET", Outcome.UNKNOWN, "no reply"));
	}

	@Test
	void givesFailuresInIndexOrderWhenRecordedInOrder() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.failure(0, "GET", Outcome.NOT_SENT, "a");
		ledger.failure(2, "GET", Outcome.NOT_SENT, "b");

		assertThat(results(ledger).failures()).extracting(BatchFailure::index).containsExactly(0, 2);
	}

	@Test
	void givesManyFailuresRecordedInReverseInIndexOrder() {
		OutcomeLedger ledger = new OutcomeLedger();
		for (int index = 999; index >= 0; index--) {
			ledger.failure(index, "DEL", Outcome.NOT_SENT, "reason " + index);
		}

		List<BatchFailure> failures = results(ledger).failures();

		assertThat(failures).extracting(BatchFailure::index)
			.containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList());
		assertThat(failures)
			.allSatisfy((failure) -> assertThat(failure.message()).isEqualTo("reason " + failure.index()));
	}

	@Test
	void keepsEveryDistinctMessageBeyondThoseItShares() {
		OutcomeLedger ledger = new OutcomeLedger();
		for (int index = 0; index < 3000; index++) {
			ledger.failure(index, "SET", Outcome.FAILED, "ERR number " + index);
		}

		List<BatchFailure> failures = results(ledger).failures();

		assertThat(failures).hasSize(3000);
		assertThat(failures)
			.allSatisfy((failure) -> assertThat(failure.message()).isEqualTo("ERR number " + failure.index()));
	}

	@Test
	void sharesOneInstanceOfARepeatedMessage() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.failure(0, "INCR", Outcome.FAILED, new String("WRONGTYPE"));
		ledger.failure(1, "INCR", Outcome.FAILED, new String("WRONGTYPE"));

		List<BatchFailure> failures = results(ledger).failures();

		assertThat(failures.get(1).message()).isSameAs(failures.get(0).message());
	}

	@Test
	void slicesFromZero() {
		OutcomeLedger slice = mixed().slice(4, 9);

		assertThat(results(slice).failures()).containsExactly(new BatchFailure(1, "SET", Outcome.UNKNOWN, "no reply"),
				new BatchFailure(3, "GET", Outcome.NOT_SENT, "not sent"));
	}

	@Test
	void countsTheRestOfASliceAsSuccesses() {
		OutcomeLedger slice = mixed().slice(4, 9);

		assertThat(slice.total()).isEqualTo(5);
		assertThat(slice.count(Outcome.SUCCESS)).isEqualTo(3);
		assertThat(slice.count(Outcome.UNKNOWN)).isEqualTo(1);
		assertThat(slice.count(Outcome.NOT_SENT)).isEqualTo(1);
		assertThat(slice.count(Outcome.FAILED)).isZero();
	}

	@Test
	void includesAFailureAtTheStartOfASliceAndExcludesOneAtItsEnd() {
		OutcomeLedger ledger = new OutcomeLedger();
		for (int i = 0; i < 6; i++) {
			ledger.success();
		}
		ledger.failure(2, "GET", Outcome.FAILED, "at the start");
		ledger.failure(6, "GET", Outcome.FAILED, "at the end");

		OutcomeLedger slice = ledger.slice(2, 6);

		assertThat(results(slice).failures())
			.containsExactly(new BatchFailure(0, "GET", Outcome.FAILED, "at the start"));
		assertThat(slice.count(Outcome.SUCCESS)).isEqualTo(3);
	}

	@Test
	void slicesWithoutFailuresToOnlySuccesses() {
		OutcomeLedger slice = mixed().slice(0, 2);

		assertThat(slice.count(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(slice.total()).isEqualTo(2);
		assertThat(results(slice).failures()).isEmpty();
	}

	@Test
	void slicesNothingToAnEmptyLedger() {
		OutcomeLedger slice = mixed().slice(3, 3);

		assertThat(slice.total()).isZero();
		assertThat(results(slice).failures()).isEmpty();
	}

	@Test
	void givesTheFailuresOfASliceOfAnOutOfOrderLedgerInIndexOrder() {
		OutcomeLedger ledger = new OutcomeLedger();
		for (int i = 0; i < 7; i++) {
			ledger.success();
		}
		ledger.failure(8, "SET", Outcome.UNKNOWN, "late");
		ledger.failure(1, "SET", Outcome.FAILED, "outside");
		ledger.failure(6, "SET", Outcome.NOT_SENT, "early");

		OutcomeLedger slice = ledger.slice(5, 10);

		assertThat(results(slice).failures()).extracting(BatchFailure::index).containsExactly(1, 3);
	}

	@Test
	void buildsResultsWithTheLedgersCounts() {
		OutcomeLedger ledger = mixed();

		BatchResults results = results(ledger);

		assertThat(results.size()).isEqualTo(10);
		for (Outcome outcome : Outcome.values()) {
			assertThat(results.count(outcome)).as(outcome.name()).isEqualTo(ledger.count(outcome));
		}
	}

	@Test
	void buildsResultsWithTheLedgersFailures() {
		assertThat(results(mixed()).failures()).containsExactly(
				new BatchFailure(2, "INCR", Outcome.FAILED, "WRONGTYPE"),
				new BatchFailure(5, "SET", Outcome.UNKNOWN, "no reply"),
				new BatchFailure(7, "GET", Outcome.NOT_SENT, "not sent"),
				new BatchFailure(9, "GET", Outcome.NOT_SENT, "not sent"));
	}

	@Test
	void buildsResultsWithTheNameChunksElapsedTimeAndAbortReason() {
		BatchResults results = mixed().toResults("import", 3, Duration.ofMillis(42), "connection lost");

		assertThat(results.name()).isEqualTo("import");
		assertThat(results.chunks()).isEqualTo(3);
		assertThat(results.elapsed()).isEqualTo(Duration.ofMillis(42));
		assertThat(results.abortReason()).isEqualTo("connection lost");
	}

	@Test
	void buildsResultsThatAreNotASuccessWhenAnyCommandFailed() {
		assertThat(results(mixed()).isSuccess()).isFalse();
	}

	@Test
	void buildsResultsThatAreNotASuccessWhenOneCommandWasNotSent() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.success();
		ledger.failure(1, "GET", Outcome.NOT_SENT, "not sent");

		assertThat(results(ledger).isSuccess()).isFalse();
	}

	@Test
	void buildsResultsThatAreASuccessWhenEveryCommandSucceeded() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.success();
		ledger.success();

		BatchResults results = results(ledger);

		assertThat(results.isSuccess()).isTrue();
		assertThat(results.failures()).isEmpty();
	}

	@Test
	void summarizesTheCountsChunksAndElapsedTime() {
		BatchResults results = mixed().toResults("import", 2, Duration.ofMillis(15), null);

		assertThat(results.summary())
			.isEqualTo("6 SUCCESS, 1 FAILED, 1 UNKNOWN, 2 NOT_SENT of 10 commands in 2 chunks (15 ms)");
	}

	@Test
	void summarizesOneChunkInTheSingular() {
		OutcomeLedger ledger = new OutcomeLedger();
		ledger.success();
		ledger.success();

		BatchResults results = ledger.toResults("default", 1, Duration.ofMillis(3), null);

		assertThat(results.summary())
			.isEqualTo("2 SUCCESS, 0 FAILED, 0 UNKNOWN, 0 NOT_SENT of 2 commands in 1 chunk (3 ms)");
	}

	@Test
	void keepsResultsAsTheyWereWhenTheLedgerRecordsMore() {
		OutcomeLedger ledger = mixed();
		BatchResults results = results(ledger);

		ledger.success();
		ledger.failure(10, "GET", Outcome.FAILED, "later");

		assertThat(results.size()).isEqualTo(10);
		assertThat(results.count(Outcome.FAILED)).isEqualTo(1);
		assertThat(results.failures()).hasSize(4);
	}

	@Test
	void givesFailuresThatCannotBeChanged() {
		List<BatchFailure> failures = results(mixed()).failures();

		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> failures.add(new BatchFailure(10, "GET", Outcome.FAILED, "added")));
	}

	@Test
	void refusesAFailurePositionOutsideTheList() {
		List<BatchFailure> failures = results(mixed()).failures();

		assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> failures.get(4))
			.withMessage("Index 4 out of bounds for length 4");
	}

	/**
	 * Ten commands: 0, 1, 3, 4, 6 and 8 succeeded; 2 failed, 5 is unknown, 7 and 9 were
	 * not sent. The failures are recorded out of order, as lanes of a cluster batch
	 * complete them.
	 */
	private static OutcomeLedger mixed() {
		OutcomeLedger ledger = new OutcomeLedger();
		for (int i = 0; i < 6; i++) {
			ledger.success();
		}
		ledger.failure(7, "GET", Outcome.NOT_SENT, "not sent");
		ledger.failure(2, "INCR", Outcome.FAILED, "WRONGTYPE");
		ledger.failure(9, "GET", Outcome.NOT_SENT, "not sent");
		ledger.failure(5, "SET", Outcome.UNKNOWN, "no reply");
		return ledger;
	}

	private static BatchResults results(OutcomeLedger ledger) {
		return ledger.toResults("default", 1, Duration.ofMillis(1), null);
	}

}
