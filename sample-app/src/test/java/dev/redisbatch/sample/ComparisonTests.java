package dev.redisbatch.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.redisbatch.sample.SampleClient.Reply;
import dev.redisbatch.sample.timing.ComparisonService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The comparison, the sweep, one run at a time, and the simulated round trip, against a
 * real Redis server of the test's own behind the sample's latency proxy. What the
 * strategies look like at a distance is counted in {@link PipelineShapeTests}; their
 * timings are never compared here.
 */
class ComparisonTests extends SampleAppAgainstOwnRedis {

	private static final List<String> STRATEGIES = List.of("one-per-round-trip", "spring-data-pipeline",
			"batch-template", "batch-template-two-chunks", "redis-batch-annotation");

	private SampleClient client;

	@BeforeEach
	void client() {
		this.client = new SampleClient(this.port);
	}

	@AfterEach
	void noSimulatedRoundTrip() {
		assertThat(this.client.put("/redis/rtt/0").status()).isEqualTo(200);
	}

	@Test
	void aComparisonTimesEveryStrategyOnTheSameDataInOrder() {
		Reply reply = this.client.get("/redis/compare/300");

		assertThat(reply.status()).isEqualTo(200);
		JsonNode body = reply.body();
		assertThat(body.get("operation").asString()).isEqualTo("set");
		assertThat(body.get("count").asInt()).isEqualTo(300);
		assertThat(body.get("rttMillis").asDouble()).isZero();
		List<String> names = new ArrayList<>();
		for (JsonNode row : body.get("rows")) {
			names.add(row.get("strategy").asString());
			assertThat(row.get("count").asInt()).isEqualTo(300);
			assertThat(row.get("millis").asDouble()).isPositive();
			assertThat(row.get("opsPerSecond").asLong()).isPositive();
			assertThat(row.get("complete").asBoolean()).isTrue();
			assertThat(row.get("description").asString()).isNotBlank();
		}
		assertThat(names).containsExactlyElementsOf(STRATEGIES);
		List<String> keys = RedisTestServer.keys(redis);
		assertThat(keys).hasSize(300).allSatisfy((key) -> assertThat(key).startsWith("sample:"));
		assertThat((Long) redis.call("TTL", "sample:299")).isBetween(3500L, 3600L);
	}

	@Test
	void aComparisonCanTimeGetsOfKeysItWritesFirst() {
		Reply reply = this.client.get("/redis/compare/50?operation=get");

		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body().get("operation").asString()).isEqualTo("get");
		List<String> names = new ArrayList<>();
		for (JsonNode row : reply.body().get("rows")) {
			names.add(row.get("strategy").asString());
			assertThat(row.get("count").asInt()).isEqualTo(50);
			assertThat(row.get("complete").asBoolean()).isTrue();
		}
		assertThat(names).containsExactlyElementsOf(STRATEGIES);
		assertThat(RedisTestServer.keys(redis)).hasSize(50).allSatisfy((key) -> assertThat(key).startsWith("sample:"));
	}

	@Test
	void aComparisonRunsOnlyTheSelectedStrategiesInStrategyOrder() {
		Reply reply = this.client.get("/redis/compare/20?strategies=batch-template,one-per-round-trip");

		assertThat(reply.status()).isEqualTo(200);
		List<String> names = new ArrayList<>();
		reply.body().get("rows").forEach((row) -> names.add(row.get("strategy").asString()));
		assertThat(names).containsExactly("one-per-round-trip", "batch-template");
	}

	@Test
	void aSweepTimesTheBatchTemplateAcrossChunkSizes() {
		Reply reply = this.client.get("/redis/sweep/100");

		assertThat(reply.status()).isEqualTo(200);
		List<Integer> sizes = new ArrayList<>();
		for (JsonNode point : reply.body().get("points")) {
			sizes.add(point.get("chunkSize").asInt());
			assertThat(point.get("count").asInt()).isEqualTo(100);
			assertThat(point.get("opsPerSecond").asLong()).isPositive();
		}
		assertThat(sizes).containsExactly(1, 2, 4, 8, 16, 32, 64, 100);
		assertThat(RedisTestServer.keys(redis)).hasSize(100).allSatisfy((key) -> assertThat(key).startsWith("sample:"));
	}

	@Test
	void theSweepGoesUpToTenThousandCommandsPerChunk() {
		assertThat(ComparisonService.chunkSizes(100_000)).startsWith(1, 2, 4).endsWith(4096, 8192, 10_000).hasSize(15);
		assertThat(ComparisonService.chunkSizes(1)).containsExactly(1);
		assertThat(ComparisonService.chunkSizes(1024)).endsWith(256, 512, 1024);
	}

	@Test
	void aSecondComparisonWhileOneRunsGets429AndTheGuardIsReleasedAfterwards() {
		// Hold the first comparison: 30 round trips of 20 ms (after a 10-command
		// warm-up).
		assertThat(this.client.put("/redis/rtt/20").status()).isEqualTo(200);
		CompletableFuture<Reply> first = this.client.getAsync("/redis/compare/30?strategies=one-per-round-trip");
		await().atMost(Duration.ofSeconds(10)).until(() -> "comparison".equals(running()));

		Reply second = this.client.get("/redis/compare/5");
		Reply sweep = this.client.get("/redis/sweep/5");

		assertThat(second.status()).isEqualTo(429);
		assertThat(second.contentType()).isEqualTo("application/problem+json");
		assertThat(second.body().get("detail").asString()).contains("already running");
		assertThat(sweep.status()).isEqualTo(429);
		assertThat(first.join().status()).isEqualTo(200);
		assertThat(running()).isNull();
		assertThat(this.client.get("/redis/compare/5?strategies=batch-template").status()).isEqualTo(200);
	}

	@Test
	void aComparisonReportsTheSimulatedRoundTripItRanAt() {
		Reply changed = this.client.put("/redis/rtt/5");
		assertThat(changed.body().get("rttMillis").asDouble()).isEqualTo(5.0);

		Reply reply = this.client.get("/redis/compare/20?strategies=one-per-round-trip,batch-template");

		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body().get("rttMillis").asDouble()).isEqualTo(5.0);
		assertThat(reply.body().get("rows")).allSatisfy((row) -> assertThat(row.get("complete").asBoolean()).isTrue());
	}

	@Test
	void theRoundTripCanOnlyBeSetToTheOfferedValues() {
		for (String bad : List.of("7", "-1", "1000", "abc")) {
			Reply reply = this.client.put("/redis/rtt/" + bad);
			assertThat(reply.status()).as(bad).isEqualTo(400);
			assertThat(reply.contentType()).isEqualTo("application/problem+json");
		}
		assertThat(this.client.get("/redis/setup").body().get("rttMillis").asDouble()).isZero();
	}

	@Test
	void theSetupDescribesTheRouteAndTheJvmWithoutCredentials() {
		JsonNode setup = this.client.get("/redis/setup").body();

		assertThat(setup.get("maxCount").asInt()).isEqualTo(100_000);
		assertThat(setup.get("rttAdjustable").asBoolean()).isTrue();
		JsonNode route = setup.get("route");
		assertThat(route.get("server").asString()).isEqualTo("127.0.0.1:" + redis.port());
		assertThat(route.get("origin").asString()).isEqualTo("CONFIGURED");
		assertThat(route.get("proxyPort").asInt()).isPositive();
		assertThat(setup.get("strategies")).hasSize(STRATEGIES.size());
		// the tests' JVM runs with the full JIT, as spring-boot:run does for the sample
		JsonNode jvm = setup.get("jvm");
		assertThat(jvm.get("version").asString()).startsWith(String.valueOf(Runtime.version().feature()));
		assertThat(jvm.get("fullJit").asBoolean()).isTrue();
		assertThat(jvm.get("jit").asString()).isEqualTo("full (C1, then C2)");
	}

	private String running() {
		JsonNode running = this.client.get("/redis/setup").body().get("running");
		return running.isNull() ? null : running.asString();
	}

}
