package dev.redisbatch.sample;

import java.util.List;
import java.util.Map;

import dev.redisbatch.sample.SampleClient.Reply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /redis/concurrent}: the concurrent scenario without and with auto-batching,
 * against a real Redis server, and its bounded inputs.
 */
class ConcurrentComparisonTests extends SampleAppAgainstOwnRedis {

	private SampleClient client;

	@BeforeEach
	void client() {
		this.client = new SampleClient(this.port);
	}

	@Test
	void bothSidesAnswerTheirCommandsLatencyAndAutoBatchingItsCommandsPerWrite() {
		Reply reply = this.client.get("/redis/concurrent?threads=8&millis=300");

		assertThat(reply.status()).isEqualTo(200);
		JsonNode body = reply.body();
		assertThat(body.get("threads").asInt()).isEqualTo(8);
		assertThat(body.get("millis").asLong()).isEqualTo(300);
		JsonNode rows = body.get("rows");
		assertThat(rows.size()).isEqualTo(2);
		assertThat(rows.get(0).get("strategy").asString()).isEqualTo("auto-batching-off");
		assertThat(rows.get(1).get("strategy").asString()).isEqualTo("auto-batching-on");
		for (JsonNode row : rows) {
			assertThat(row.get("commands").asLong()).isPositive();
			// a whole number, as opsPerSecond is everywhere else
			assertThat(row.get("commandsPerSecond").isIntegralNumber()).isTrue();
			assertThat(row.get("commandsPerSecond").asLong()).isPositive();
			assertThat(row.get("p99Micros").asDouble()).isGreaterThanOrEqualTo(row.get("p50Micros").asDouble());
		}
		assertThat(rows.get(0).get("commandsPerWrite").isNull()).isTrue();
		assertThat(rows.get(1).get("commandsPerWrite").asDouble()).isGreaterThanOrEqualTo(1.0);
		assertThat(body.get("speedUp").asDouble()).isPositive();
		// one key per thread, with the one-hour TTL of every SET of the sample
		List<String> keys = RedisTestServer.keys(redis);
		assertThat(keys).hasSize(8).allSatisfy((key) -> assertThat(key).startsWith("sample:concurrent:"));
		assertThat((Long) redis.call("TTL", keys.get(0))).isBetween(3500L, 3600L);
	}

	@ParameterizedTest
	@ValueSource(strings = { "threads=0", "threads=257", "threads=abc", "threads=99999999999", "millis=99",
			"millis=10001", "millis=-5", "millis=-99999999999" })
	void badInputsGetAProblemDetailBeforeAnyRedisIo(String query) {
		Map<String, String> before = RedisTestServer.commandStats(redis);

		Reply reply = this.client.get("/redis/concurrent?" + query);

		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.contentType()).isEqualTo("application/problem+json");
		assertThat(reply.body().get("detail").asString()).startsWith(query.substring(0, query.indexOf('=')));
		assertThat(RedisTestServer.commandStats(redis)).isEqualTo(before);
		assertThat(RedisTestServer.keys(redis)).isEmpty();
	}

	@Test
	void wholeNumbersTooLargeForAnIntAreToldTheBound() {
		Reply threads = this.client.get("/redis/concurrent?threads=99999999999");
		Reply millis = this.client.get("/redis/concurrent?millis=-99999999999");

		assertThat(threads.status()).isEqualTo(400);
		assertThat(threads.body().get("detail").asString())
			.isEqualTo("threads must be less than or equal to 256, got 99999999999");
		assertThat(millis.status()).isEqualTo(400);
		assertThat(millis.body().get("detail").asString())
			.isEqualTo("millis must be greater than or equal to 100, got -99999999999");
	}

}
