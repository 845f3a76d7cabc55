package dev.redisbatch.sample;

import java.time.Duration;

import dev.redisbatch.sample.SampleClient.Reply;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the comparison shows at a distance, counted instead of timed: a proxy of the
 * test's own, between the app and its Redis server, adds the round trip and counts the
 * requests each strategy keeps in flight at once (written, their replies not yet passed
 * back). One command per round trip keeps one; a pipeline keeps the whole batch; the
 * window sends a batch smaller than itself in one flight, where two chunks in flight need
 * a round trip per two chunks. How long each takes is for the page and the benchmarks,
 * where a busy machine cannot fail the build.
 */
@ExtendWith(RedisServerExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.proxy.enabled=false")
@DirtiesContext
class PipelineShapeTests {

	private static TcpProxy proxy;

	@LocalServerPort
	int port;

	private SampleClient client;

	@BeforeAll
	static void proxy(RedisProcess server) {
		proxy = TcpProxy.start(server.port());
	}

	@AfterAll
	static void closeProxy() {
		proxy.close();
	}

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> proxy.port());
	}

	@BeforeEach
	void client() {
		this.client = new SampleClient(this.port);
	}

	@Test
	void oneCommandPerRoundTripKeepsOneRequestInFlightWhilePipelinesKeepTheWholeBatch() {
		proxy.roundTrip(Duration.ofMillis(50));

		assertThat(peakInFlight("/redis/compare/20?strategies=one-per-round-trip")).isOne();
		assertThat(peakInFlight("/redis/compare/20?strategies=spring-data-pipeline")).isEqualTo(20);
		assertThat(peakInFlight("/redis/compare/20?strategies=batch-template")).isEqualTo(20);
	}

	@Test
	void theWindowSendsABatchInOneFlightWhereTwoChunksInFlightNeedARoundTripPerTwoChunks() {
		// a round trip long enough to write 10,000 commands (1.2 MB) in
		proxy.roundTrip(Duration.ofMillis(300));

		// the window (4 MB, 100,000 commands) holds them all: one flight
		assertThat(peakInFlight("/redis/compare/10000?strategies=batch-template")).isEqualTo(10_000);
		// chunks of 1,000, two in flight at most: five round trips
		assertThat(peakInFlight("/redis/compare/10000?strategies=batch-template-two-chunks")).isEqualTo(2_000);
	}

	/**
	 * Run a comparison and return the most requests it had in flight at once on one
	 * connection.
	 */
	private long peakInFlight(String path) {
		proxy.resetPeaks();
		Reply reply = this.client.get(path);
		assertThat(reply.status()).isEqualTo(200);
		JsonNode row = reply.body().get("rows").get(0);
		assertThat(row.get("complete").asBoolean()).as(path).isTrue();
		return proxy.peakOutstandingRequests();
	}

}
