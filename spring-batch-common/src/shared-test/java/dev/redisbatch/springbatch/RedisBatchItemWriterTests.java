package dev.redisbatch.springbatch;

import java.util.List;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RedisBatchItemWriter} driven directly, as a step drives it, against a real
 * server: what it keeps in the execution context, how a restarted writer uses it, and the
 * misuses it refuses before any I/O.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchItemWriterTests {

	private static final RedisItemMapper<String, String, Integer> COUNTING = (batch, id) -> batch.incr("visits:" + id);

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		this.pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + server.port())).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void whatAChunkRanIsKeptUntilItsCommitAndARestartedWriterDoesNotRunItAgain(RedisProcess server) {
		var context = ItemStreams.context();
		RedisBatchItemWriter<String, String, Integer> first = writer();
		first.open(context);
		inTransaction(() -> first.write(ItemStreams.chunk(1, 2, 3)));
		assertThat(context.getString("visits.ledger")).as("kept until the commit").startsWith("l1:S");

		// the step fails before its commit, and is restarted: a new writer, the saved
		// context, the same items read again
		RedisBatchItemWriter<String, String, Integer> restarted = writer();
		restarted.open(ItemStreams.copy(context));
		restarted.write(ItemStreams.chunk(1, 2, 3, 4));

		assertThat(this.template.getAll(List.of("visits:1", "visits:2", "visits:3", "visits:4"))).containsOnly("1");
		var committed = ItemStreams.copy(context);
		restarted.update(committed);
		assertThat(committed.containsKey("visits.ledger")).as("dropped at the commit").isFalse();
		restarted.write(ItemStreams.chunk(1));
		assertThat(server.call("GET", "visits:1")).as("after the commit, a new item").isEqualTo("2");
	}

	@Test
	void aRestartThatReadsOtherItemsIsRefusedAndSendsNothing(RedisProcess server) {
		var context = ItemStreams.context();
		RedisBatchItemWriter<String, String, Integer> first = writer();
		first.open(context);
		inTransaction(() -> first.write(ItemStreams.chunk(1, 2, 3)));

		RedisBatchItemWriter<String, String, Integer> restarted = writer();
		restarted.open(context);

		assertThatIllegalStateException().isThrownBy(() -> restarted.write(ItemStreams.chunk(7, 8, 9)))
			.withMessageContaining("Item #0 of the chunk is not the item the writer 'visits' wrote")
			.withMessageContaining("Nothing was sent")
			.withMessageContaining("visits.ledger");
		assertThat(server.call("EXISTS", "visits:7")).isEqualTo(0L);
	}

	@Test
	void anIdempotentWriterForgetsWhatItKnewWhenOtherItemsComeAndWritesThem(RedisProcess server) {
		RedisItemMapper<String, String, Integer> values = RedisItemMappers.value((Integer id) -> "order:" + id,
				(id) -> "v" + id, null);
		var context = ItemStreams.context();
		RedisBatchItemWriter<String, String, Integer> first = RedisBatchItemWriter.builder(this.template, values)
			.name("orders")
			.build();
		first.open(context);
		inTransaction(() -> first.write(ItemStreams.chunk(1, 2)));

		RedisBatchItemWriter<String, String, Integer> restarted = RedisBatchItemWriter.builder(this.template, values)
			.name("orders")
			.build();
		restarted.open(context);
		restarted.write(ItemStreams.chunk(5, 6));

		assertThat(this.template.getAll(List.of("order:5", "order:6"))).containsExactly("v5", "v6");
	}

	@Test
	void outsideATransactionAWriteThatSucceededIsFinal(RedisProcess server) {
		var context = ItemStreams.context();
		RedisBatchItemWriter<String, String, Integer> writer = writer();
		writer.open(context);

		writer.write(ItemStreams.chunk(1, 2));
		writer.write(ItemStreams.chunk(1, 2));

		assertThat(context.containsKey("visits.ledger")).isFalse();
		assertThat(this.template.getAll(List.of("visits:1", "visits:2"))).containsOnly("2");
	}

	@Test
	void aWriterThatWasNotOpenedRefusesANonIdempotentMapper(RedisProcess server) {
		RedisBatchItemWriter<String, String, Integer> writer = writer();

		assertThatIllegalStateException().isThrownBy(() -> writer.write(ItemStreams.chunk(1)))
			.withMessageContaining("was not opened as an ItemStream");
		assertThat(server.call("EXISTS", "visits:1")).isEqualTo(0L);
	}

	@Test
	void misuseIsRefusedBeforeAnyIo() {
		assertThatIllegalStateException()
			.isThrownBy(() -> RedisBatchItemWriter.builder(this.template, COUNTING).saveState(false).build())
			.withMessageContaining("saveState(false) needs an idempotent mapper");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisBatchItemWriter.builder(this.template, COUNTING).name(" "))
			.withMessage("name must not be empty");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisItemMappers.value((Integer id) -> "k", (id) -> "v", java.time.Duration.ZERO))
			.withMessage("ttl must be at least 1 ms but was PT0S");
		var damaged = ItemStreams.context();
		damaged.putString("visits.ledger", "not a ledger");
		assertThatExceptionOfType(ItemStreams.STREAM_EXCEPTION).isThrownBy(() -> writer().open(damaged))
			.withMessageContaining("cannot read what it saved in 'visits.ledger'");
	}

	@Test
	void theWriterBuildsOnTheSpringBatchOfItsLine() {
		assertThatNoException().isThrownBy(this::writer);
	}

	/**
	 * Run a write in a transaction that neither commits nor rolls back while the test
	 * looks, as a step's chunk transaction before its commit.
	 */
	private static void inTransaction(Runnable write) {
		TransactionSynchronizationManager.initSynchronization();
		try {
			write.run();
		}
		finally {
			TransactionSynchronizationManager.clearSynchronization();
		}
	}

	private RedisBatchItemWriter<String, String, Integer> writer() {
		return RedisBatchItemWriter.builder(this.template, COUNTING).name("visits").build();
	}

}
