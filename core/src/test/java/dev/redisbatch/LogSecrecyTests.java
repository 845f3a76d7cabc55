package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.TcpProxy;
import dev.redisbatch.testsupport.TestSecrets;
import io.lettuce.core.RedisURI;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.redisbatch.testsupport.CapturedOutput;
import dev.redisbatch.testsupport.OutputCaptureExtension;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys, values and passwords never reach a log, a message or a metric: every logging and
 * error path runs here with marked secrets, and the exceptions are logged with their
 * stack traces the way an application would. Besides the assertion here, the build scans
 * the whole test run's output for the marker (see {@code LogScanner}).
 */
@ExtendWith(OutputCaptureExtension.class)
@BothPaths
@EveryLine
class LogSecrecyTests {

	private static final Log logger = LogFactory.getLog(LogSecrecyTests.class);

	private RedisProcess server;

	private BatchConnectionPool pool;

	private StringBatchTemplate template;

	@BeforeEach
	void setUp() {
		this.server = RedisProcess.start("--requirepass", TestSecrets.PASSWORD);
		this.pool = BatchConnectionPool.builder(uri(this.server.port(), TestSecrets.PASSWORD)).build();
		this.template = new StringBatchTemplate(this.pool,
				BatchOptions.builder().chunkSize(3).timeout(Duration.ofMillis(500)).build());
	}

	@AfterEach
	void tearDown() {
		this.pool.close();
		this.server.close();
	}

	@Test
	void secretsStayOutOfLogsMessagesAndExceptions(CapturedOutput output) {
		// a successful batch: DEBUG summary
		this.template.setAll(Map.of(TestSecrets.key("a"), TestSecrets.value("a")), Duration.ofMinutes(1));

		// WRONGTYPE failures: BatchException, failures, Response.get()
		this.server.call("AUTH", TestSecrets.PASSWORD);
		String listKey = TestSecrets.key("list");
		logged(() -> {
			try (var admin = dev.redisbatch.testsupport.RespConnection.open(this.server.port(),
					Duration.ofSeconds(5))) {
				admin.call("AUTH", TestSecrets.PASSWORD);
				admin.call("LPUSH", listKey, TestSecrets.value("element"));
			}
			List<Response<Long>> responses = new ArrayList<>();
			try {
				this.template.execute((batch) -> {
					responses.add(batch.incr(listKey));
					responses.add(batch.incr(TestSecrets.key("counter")));
				});
			}
			finally {
				responses.get(0).get();
			}
		});

		// a serializer that quotes the value in its error
		BatchTemplate<String, String> leaky = BatchTemplate.<String, String>builder(this.pool)
			.keySerializer(RedisSerializer.string())
			.valueSerializer(new QuotingSerializer())
			.build();
		logged(() -> {
			Response<?>[] response = new Response[1];
			try {
				leaky.execute((batch) -> response[0] = batch.set(TestSecrets.key("s"), TestSecrets.value("bad")));
			}
			finally {
				response[0].get();
			}
		});

		// replies lost: UNKNOWN outcomes and the WARN line
		try (TcpProxy proxy = TcpProxy.start(this.server.port())) {
			try (BatchConnectionPool proxied = BatchConnectionPool.builder(uri(proxy.port(), TestSecrets.PASSWORD))
				.build()) {
				StringBatchTemplate lossy = new StringBatchTemplate(proxied,
						BatchOptions.builder().timeout(Duration.ofMillis(300)).build());
				lossy.execute((batch) -> batch.get(TestSecrets.key("warm")));
				proxy.dropRepliesAfter(0);
				logged(() -> lossy.execute((batch) -> batch.set(TestSecrets.key("lost"), TestSecrets.value("lost"))));
			}
		}

		// a wrong password
		try (BatchConnectionPool wrong = BatchConnectionPool
			.builder(uri(this.server.port(), TestSecrets.PASSWORD + "-wrong"))
			.build()) {
			logged(() -> new StringBatchTemplate(wrong).setAll(Map.of(TestSecrets.key("x"), TestSecrets.value("x")),
					null));
		}

		assertThat(output.getAll()).doesNotContain(TestSecrets.MARKER).contains("Batch 'default' ended");
	}

	private static RedisURI uri(int port, String password) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).withPassword(password.toCharArray()).build();
	}

	/**
	 * Run something that fails, and log its exception with the stack trace, as an
	 * application would.
	 */
	private static void logged(ThrowingRunnable action) {
		try {
			action.run();
		}
		catch (Exception ex) {
			logger.warn("Batch failed: " + ex.getMessage(), ex);
		}
	}

	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * A serializer whose error message quotes the value, as JSON serializers do.
	 */
	static class QuotingSerializer implements RedisSerializer<String> {

		@Override
		public byte[] serialize(String value) {
			if (value.endsWith("bad")) {
				throw new SerializationException("Cannot serialize \"" + value + "\"");
			}
			return value.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String deserialize(byte[] bytes) {
			return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : null;
		}

	}

}
