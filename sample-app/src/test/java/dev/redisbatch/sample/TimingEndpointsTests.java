package dev.redisbatch.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.sample.SampleClient.Reply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four classic endpoints, count validation and the actuator endpoints, against a real
 * Redis server of the test's own.
 */
@TestPropertySource(properties = "sample.max-count=5000")
class TimingEndpointsTests extends SampleAppAgainstOwnRedis {

	private SampleClient client;

	@BeforeEach
	void client() {
		this.client = new SampleClient(this.port);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/redis/no/pipeline/", "/redis/pipeline/", "/redis/annotation/pipeline/",
			"/redis/reactive/pipeline/" })
	void setEndpointsAnswerTheirTimingAndWriteOnlyPrefixedKeysWithAOneHourTtl(String path) {
		Reply reply = this.client.get(path + 25);

		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		assertThat(fieldNames(reply.body())).containsExactly("strategy", "count", "millis", "opsPerSecond");
		assertThat(reply.body().get("strategy").asString()).isEqualTo(
				path.contains("/no/") ? "one-per-round-trip" : path.contains("/annotation/") ? "redis-batch-annotation"
						: path.contains("/reactive/") ? "reactive-batch-template" : "batch-template");
		assertThat(reply.body().get("count").asInt()).isEqualTo(25);
		assertThat(reply.body().get("millis").asDouble()).isPositive();
		assertThat(reply.body().get("opsPerSecond").asLong()).isPositive();
		List<String> keys = RedisTestServer.keys(redis);
		assertThat(keys).hasSize(25).allSatisfy((key) -> assertThat(key).startsWith("sample:"));
		for (String key : keys) {
			assertThat((Long) redis.call("TTL", key)).isBetween(3500L, 3600L);
		}
		assertThat(redis.call("GET", "sample:7")).isEqualTo("value-7");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/redis/no/pipeline/get/", "/redis/pipeline/get/", "/redis/reactive/pipeline/get/" })
	void getEndpointsAnswerTheValuesInKeyOrder(String path) {
		assertThat(this.client.get("/redis/pipeline/30").status()).isEqualTo(200);
		redis.call("SET", "sample:3", "changed");
		redis.call("DEL", "sample:5");

		Reply reply = this.client.get(path + 30);

		assertThat(reply.status()).isEqualTo(200);
		assertThat(fieldNames(reply.body())).containsExactly("strategy", "count", "millis", "opsPerSecond", "results");
		assertThat(reply.body().get("count").asInt()).isEqualTo(30);
		JsonNode results = reply.body().get("results");
		assertThat(results.size()).isEqualTo(30);
		for (int i = 0; i < 30; i++) {
			JsonNode value = results.get(i);
			if (i == 3) {
				assertThat(value.asString()).isEqualTo("changed");
			}
			else if (i == 5) {
				assertThat(value.isNull()).isTrue();
			}
			else {
				assertThat(value.asString()).isEqualTo("value-" + i);
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1", "abc", "5001", "2147483648", "99999999999999999999", "-99999999999", "1.5" })
	void badCountsGetAProblemDetailBeforeAnyRedisIo(String count) {
		Map<String, String> before = RedisTestServer.commandStats(redis);

		for (String path : List.of("/redis/no/pipeline/", "/redis/pipeline/", "/redis/no/pipeline/get/",
				"/redis/pipeline/get/", "/redis/annotation/pipeline/", "/redis/reactive/pipeline/",
				"/redis/reactive/pipeline/get/", "/redis/compare/", "/redis/sweep/")) {
			Reply reply = this.client.get(path + count);
			assertThat(reply.status()).as(path + count).isEqualTo(400);
			assertThat(reply.contentType()).isEqualTo("application/problem+json");
			assertThat(reply.body().get("status").asInt()).isEqualTo(400);
			assertThat(reply.body().get("instance").asString()).isEqualTo(path + count);
			assertThat(reply.body().get("detail").asString()).startsWith("count must be");
		}

		assertThat(RedisTestServer.commandStats(redis)).isEqualTo(before);
		assertThat(RedisTestServer.keys(redis)).isEmpty();
	}

	@Test
	void aCountAboveTheConfiguredMaximumNamesTheMaximum() {
		Reply reply = this.client.get("/redis/pipeline/5001");

		assertThat(reply.body().get("detail").asString())
			.isEqualTo("count must be less than or equal to 5000 (sample.max-count)");
	}

	@ParameterizedTest
	@ValueSource(strings = { "2147483648", "99999999999999999999" })
	void aWholeNumberTooLargeForACountIsToldTheMaximum(String count) {
		Reply reply = this.client.get("/redis/pipeline/" + count);

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.body().get("detail").asString())
			.isEqualTo("count must be less than or equal to 5000 (sample.max-count), got " + count);
	}

	@Test
	void aNegativeWholeNumberTooLargeForACountIsToldTheMinimum() {
		Reply reply = this.client.get("/redis/sweep/-99999999999");

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.body().get("detail").asString())
			.isEqualTo("count must be greater than or equal to 1, got -99999999999");
	}

	@Test
	void aCountOfAThousandDigitsIsRepeatedOnlyInPart() {
		Reply reply = this.client.get("/redis/pipeline/" + "9".repeat(1000));

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.body().get("detail").asString())
			.isEqualTo("count must be less than or equal to 5000 (sample.max-count), got " + "9".repeat(32)
					+ "… (1000 characters)");
	}

	@Test
	void theMaximumCountItselfIsAccepted() {
		assertThat(this.client.get("/redis/pipeline/5000").status()).isEqualTo(200);
		assertThat(RedisTestServer.keys(redis)).hasSize(5000);
	}

	@Test
	void unknownStrategiesAndOperationsGetAProblemDetailBeforeAnyRedisIo() {
		Map<String, String> before = RedisTestServer.commandStats(redis);

		Reply strategy = this.client.get("/redis/compare/10?strategies=batch-template,nope");
		Reply operation = this.client.get("/redis/compare/10?operation=del");

		assertThat(strategy.status()).isEqualTo(400);
		assertThat(strategy.contentType()).isEqualTo("application/problem+json");
		assertThat(strategy.body().get("detail").asString()).startsWith("strategies must be among [")
			.contains("batch-template")
			.endsWith("]; unknown: nope");
		assertThat(operation.status()).isEqualTo(400);
		assertThat(operation.body().get("detail").asString()).isEqualTo("operation must be set or get");
		assertThat(RedisTestServer.commandStats(redis)).isEqualTo(before);
	}

	@Test
	void manyOrLongUnknownStrategiesAreNamedOnlyInPart() {
		String hundred = "x".repeat(100);

		Reply many = this.client.get("/redis/compare/10?strategies=a,b,c,d,e,a");
		Reply longName = this.client.get("/redis/compare/10?strategies=" + hundred);

		assertThat(many.status()).isEqualTo(400);
		assertThat(many.body().get("detail").asString()).endsWith("; unknown: a, b, c and 2 more");
		assertThat(longName.status()).isEqualTo(400);
		assertThat(longName.body().get("detail").asString())
			.endsWith("; unknown: " + "x".repeat(32) + "… (100 characters)");
	}

	@Test
	void actuatorExposesHealthWithRedisAndMetrics() {
		Reply health = this.client.get("/actuator/health");
		Reply metrics = this.client.get("/actuator/metrics");

		assertThat(health.status()).isEqualTo(200);
		assertThat(health.body().get("status").asString()).isEqualTo("UP");
		assertThat(health.body().get("components").get("redis").get("status").asString()).isEqualTo("UP");
		assertThat(metrics.status()).isEqualTo(200);
		assertThat(metrics.body().get("names").isArray()).isTrue();
	}

	@Test
	void batchMetersShowUpAtTheMetricsEndpointAfterABatch() {
		assertThat(this.client.get("/redis/pipeline/10").status()).isEqualTo(200);

		Reply metrics = this.client.get("/actuator/metrics");

		List<String> names = new ArrayList<>();
		metrics.body().get("names").forEach((name) -> names.add(name.asString()));
		assertThat(names).anySatisfy((name) -> assertThat(name).startsWith("redis.batch"));
	}

	private static List<String> fieldNames(JsonNode node) {
		return List.copyOf(node.propertyNames());
	}

}
