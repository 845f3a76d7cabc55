package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.redisbatch.docs.CommandExamples;
import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Commands that {@link Batch} has no method for, sent by name with
 * {@link Batch#command(String, CommandReply, java.util.function.Consumer)}, on one
 * server. The cluster cases are in {@link ClusterTests}.
 */
@ExtendWith(RedisServerExtension.class)
@BothPaths
@EveryLine
class RawCommandTests {

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		server.call("FLUSHALL");
		this.pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build();
		this.template = new StringBatchTemplate(this.pool);
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
	}

	@Test
	void xaddAppendsEntriesThatXlenAndXrangeSee(RedisProcess server) {
		CommandExamples examples = new CommandExamples(this.template);
		List<Map<String, String>> events = List.of(Map.of("type", "created"), Map.of("type", "paid"),
				Map.of("type", "shipped"));

		CommandExamples.StreamAppend appended = examples.appendEvents("orders:events", events);

		assertThat(appended.length()).isEqualTo(3);
		assertThat(appended.ids()).hasSize(3).allMatch((id) -> id.matches("\\d+-\\d+"));
		assertThat(server.call("XLEN", "orders:events")).isEqualTo(3L);
		assertThat(examples.entryIds("orders:events")).containsExactlyElementsOf(appended.ids());
		List<?> last = (List<?>) ((List<?>) server.call("XRANGE", "orders:events", "-", "+")).get(2);
		assertThat(last.get(1)).isEqualTo(List.of("type", "shipped"));
	}

	@Test
	void pfaddAndPfcountCountUniqueVisitors(RedisProcess server) {
		Map<String, List<String>> visits = new LinkedHashMap<>();
		visits.put("home", List.of("alice", "bob", "alice", "carol"));
		visits.put("cart", List.of("bob"));

		Map<String, Long> unique = new CommandExamples(this.template).uniqueVisitors(visits);

		assertThat(unique).containsExactly(Map.entry("home", 3L), Map.entry("cart", 1L));
		assertThat(server.call("PFCOUNT", "visitors:home")).isEqualTo(3L);
		Response<Long>[] again = new Response[1];
		this.template
			.execute((batch) -> again[0] = batch.command("PFADD", CommandReply.integer(), "visitors:home", "alice"));
		assertThat(again[0].get()).as("PFADD of a known element changes nothing").isZero();
	}

	@Test
	void valuesGoThroughTheValueSerializerAndRepliesThroughTheirType(RedisProcess server) {
		List<Response<?>> responses = new ArrayList<>();
		this.template.execute((batch) -> {
			responses.add(batch.command("SET", CommandReply.status(), (args) -> args.key("k").value("v")));
			responses.add(batch.command("GETEX", CommandReply.value(), (args) -> args.key("k").arg("PX").arg(60_000)));
			responses.add(batch.command("INCRBYFLOAT", CommandReply.decimal(), "price", "2.5"));
			responses.add(batch.command("SETNX", CommandReply.bool(), "k", "other"));
			responses.add(batch.command("GET", CommandReply.bytes(), "k"));
			responses.add(batch.command("STRLEN", CommandReply.integer().map((length) -> length * 10), "k"));
			responses.add(batch.command("PING", CommandReply.status(), (args) -> {
			}));
		});

		List<Object> values = new ArrayList<>();
		for (Response<?> response : responses) {
			values.add(response.get());
		}
		assertThat(values).containsExactly("OK", "v", 2.5, false, "v".getBytes(StandardCharsets.UTF_8), 10L, "PONG");
		assertThat((Long) server.call("PTTL", "k")).isBetween(1L, 60_000L);
	}

	@Test
	void anErrorReplyFailsThatCommandAloneInItsPlace(RedisProcess server) {
		server.call("SET", "plain", "x");
		List<Response<?>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			responses.add(batch.command("XADD", CommandReply.string(), "plain", "*", "f", "v"));
			responses.add(batch.command("JSON.SET", CommandReply.status(), "doc", "$", "{}"));
			responses.add(batch.command("PFADD", CommandReply.integer(), "hll", "a"));
		}));

		assertThat(failure.getResults().count(Outcome.FAILED)).isEqualTo(2);
		assertThat(failure.getResults().failures()).extracting(BatchFailure::index, BatchFailure::command)
			.containsExactly(tuple(0, "XADD"), tuple(1, "JSON.SET"));
		assertThat(failure.getResults().failures().get(0).message()).contains("WRONGTYPE");
		assertThat(failure.getResults().failures().get(1).message()).containsIgnoringCase("unknown command")
			.as("the arguments Redis quotes may be keys or values")
			.doesNotContain("doc")
			.doesNotContain("{}");
		assertThat(responses.get(2).get()).isEqualTo(1L);
		assertThat(server.call("PFCOUNT", "hll")).isEqualTo(1L);
	}

	@Test
	void aReplyOfAnotherShapeThanTheReplyTypeFailsThatCommandOnly(RedisProcess server) {
		server.call("SET", "text", "not a number");
		List<Response<?>> responses = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> this.template.execute((batch) -> {
			responses.add(batch.command("GET", CommandReply.integer(), "text"));
			responses.add(batch.command("GET", CommandReply.string(), "text"));
		}));

		assertThat(failure.getResults().count(Outcome.FAILED)).isEqualTo(1);
		assertThat(responses.get(0).outcome()).isEqualTo(Outcome.FAILED);
		assertThat(failure.getResults().failures().get(0).message()).contains("the command ran")
			.doesNotContain("not a number");
		assertThat(responses.get(1).get()).isEqualTo("not a number");
	}

	@ParameterizedTest(name = "fast path {0}, transactional {1}")
	@CsvSource({ "true, false", "true, true", "false, false", "false, true" })
	void onEitherPathAReplyOfAnotherShapeFailsItsCommandAloneAndTheConnectionStays(boolean fastPath,
			boolean transactional, RedisProcess server) {
		server.call("SET", "text", "not a number");
		try (BatchConnectionPool own = BatchConnectionPool.builder(RedisURI.create(server.uri()))
			.fastPath(fastPath)
			.build()) {
			StringBatchTemplate on = new StringBatchTemplate(own,
					BatchOptions.builder().transactional(transactional).build());
			List<Response<?>> responses = new ArrayList<>();

			BatchException failure = catchThrowableOfType(BatchException.class, () -> on.execute((batch) -> {
				responses.add(batch.incr("before"));
				responses.add(batch.command("GET", CommandReply.integer(), "text"));
				responses.add(batch.command("GET", CommandReply.string(), "text"));
				responses.add(batch.incr("after"));
			}));

			BatchResults results = failure.getResults();
			assertThat(results.count(Outcome.FAILED)).isEqualTo(1);
			assertThat(results.count(Outcome.SUCCESS)).isEqualTo(3);
			assertThat(responses.get(1).outcome()).isEqualTo(Outcome.FAILED);
			assertThat(results.failures().get(0).message()).contains("the command ran").doesNotContain("not a number");
			assertThat(responses.get(0).get()).isEqualTo(1L);
			assertThat(responses.get(2).get()).isEqualTo("not a number");
			assertThat(responses.get(3).get()).isEqualTo(1L);
			// the connection was healthy: it went back to the pool, and serves the next
			// batch
			assertThat(on.getAll(List.of("before"))).containsExactly("1");
			assertThat(own.getCreatedCount()).isEqualTo(1);
			assertThat(own.getDestroyedCount()).isZero();
		}
	}

	@Test
	void commandsThatCannotRunInABatchAreRefusedBeforeAnythingIsSent(RedisProcess server) {
		long before = commandsProcessed(server);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command("blpop", CommandReply.array(), "q", "0")))
			.withMessageContaining("BLPOP cannot run in a batch");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template
				.execute((batch) -> batch.command("XREAD", CommandReply.array(), (args) -> args.arg("BLOCK").arg(0))))
			.withMessageContaining("XREAD BLOCK cannot run in a batch");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command("XREADGROUP", CommandReply.array(),
					(args) -> args.arg("GROUP")
						.arg("block")
						.arg("block")
						.arg("COUNT")
						.arg(1)
						.arg("block".getBytes(StandardCharsets.UTF_8)))))
			.withMessageContaining("XREADGROUP BLOCK cannot run in a batch");
		assertThatIllegalArgumentException().isThrownBy(
				() -> this.template.execute((batch) -> batch.command("CLIENT LIST", CommandReply.string(), (args) -> {
				})))
			.withMessageContaining("pass a subcommand as the first argument");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command(" ", CommandReply.string(), "k")))
			.withMessageContaining("name must not be empty");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command("XADD", CommandReply.string(),
					(args) -> args.key("s").arg("*").arg("f").value(null))))
			.withMessageContaining("value must not be null");
		assertThatIllegalStateException()
			.isThrownBy(() -> this.template.execute((batch) -> batch.command("XADD", CommandReply.string(),
					(args) -> args.key(batch.get("other").toString()))))
			.withMessageContaining("not inside its arguments function");

		long after = commandsProcessed(server);
		// the only commands the server processed since: the first INFO, and the second
		assertThat(after - before).isEqualTo(1);
		assertThat(server.call("DBSIZE")).isEqualTo(0L);
	}

	@Test
	void aGroupOrConsumerNamedBlockIsNotTheBlockOption(RedisProcess server) {
		server.call("XGROUP", "CREATE", "jobs", "block", "0", "MKSTREAM");
		server.call("XADD", "jobs", "*", "n", "1");
		Response<List<Object>>[] read = new Response[1];

		this.template.execute((batch) -> read[0] = batch.command("XREADGROUP", CommandReply.array(),
				(args) -> args.arg("GROUP")
					.arg("block")
					.arg("block")
					.arg("COUNT")
					.arg(10)
					.arg("STREAMS")
					.key("jobs")
					.arg(">")));

		// RESP3: a map of stream to entries, flattened
		assertThat(read[0].get()).hasSize(2).first().isEqualTo("jobs".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void theArgumentsAreOnlyValidInsideTheirFunction() {
		CommandArguments<String, String>[] kept = new CommandArguments[1];
		this.template.execute((batch) -> batch.command("SET", CommandReply.status(), (args) -> {
			kept[0] = args;
			args.key("k").value("v");
		}));

		assertThatIllegalStateException().isThrownBy(() -> kept[0].arg("late"))
			.withMessageContaining("only valid inside the function");
	}

	private static long commandsProcessed(RedisProcess server) {
		return Long.parseLong(server.info("stats").get("total_commands_processed"));
	}

}
