package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.redisbatch.docs.ScanExamples;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link BatchTemplate#scanKeys} on a standalone server: every matching key at least
 * once, {@code MATCH}, {@code COUNT} and {@code TYPE} honoured, a resumed scan continuing
 * where it stopped, and failed calls that leave the cursor where it was.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class KeyScannerTests {

	private final List<AutoCloseable> resources = new ArrayList<>();

	private StringBatchTemplate template;

	@BeforeEach
	void setUp(RedisProcess server) {
		this.template = template(server.port(), Duration.ofSeconds(10));
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void everyMatchingKeyIsReturnedAndNoOther(RedisProcess server) {
		write("order:", 5_000);
		write("user:", 1_000);

		Set<String> keys = scanAll(this.template.scanKeys(ScanOptions.scanOptions().match("order:*").build(), null));

		assertThat(keys).hasSize(5_000).allMatch((key) -> key.startsWith("order:"));
		assertThat(keys).containsAll(expected("order:", 5_000));
	}

	@Test
	void countBoundsThePagesAndTypeSelectsTheKind(RedisProcess server) {
		write("string:", 2_000);
		for (int i = 0; i < 300; i++) {
			server.call("HSET", "hash:" + i, "field", "value");
		}
		KeyScanner<String> scanner = this.template
			.scanKeys(ScanOptions.scanOptions().count(50).type(DataType.HASH).build(), null);

		Set<String> keys = new HashSet<>();
		int calls = 0;
		while (scanner.hasNext()) {
			keys.addAll(scanner.next());
			calls++;
		}

		assertThat(keys).hasSize(300).allMatch((key) -> key.startsWith("hash:"));
		// COUNT 50 over 2,300 keys: dozens of calls (a hint, so not an exact number)
		assertThat(calls).isGreaterThan(20);
		assertThat(scanner.cursor().isComplete()).isTrue();
	}

	@Test
	void aScanResumedFromItsTokenMissesNoKey(RedisProcess server) {
		Set<String> all = write("item:", 3_000);
		ScanOptions options = ScanOptions.scanOptions().match("item:*").count(100).build();
		KeyScanner<String> first = this.template.scanKeys(options, null);
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < 10; i++) {
			seen.addAll(first.next());
		}
		String token = first.cursor().toToken();
		assertThat(token).startsWith("scan1:server=");

		StringBatchTemplate other = template(server.port(), Duration.ofSeconds(10));
		KeyScanner<String> resumed = other.scanKeys(options, ScanCursor.fromToken(token));
		Set<String> rest = scanAll(resumed);

		assertThat(seen).isNotEmpty();
		assertThat(rest).isNotEmpty().doesNotContainAnyElementsOf(seen);
		Set<String> union = new HashSet<>(seen);
		union.addAll(rest);
		assertThat(union).isEqualTo(all);
	}

	@Test
	void aConnectionKilledMidScanThrowsAndTheCursorResumes(RedisProcess server) {
		Set<String> all = write("k:", 2_000);
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate viaProxy = template(proxy.port(), Duration.ofSeconds(30));
		KeyScanner<String> scanner = viaProxy.scanKeys(ScanOptions.scanOptions().count(100).build(), null);
		Set<String> seen = new HashSet<>(scanner.next());
		ScanCursor before = scanner.cursor();

		proxy.dropRepliesAfter(0);
		long sent = proxy.clientBytes();
		CompletableFuture<List<String>> pending = CompletableFuture.supplyAsync(scanner::next);
		await().atMost(Duration.ofSeconds(10)).until(() -> proxy.clientBytes() > sent);
		proxy.closeConnections();

		assertThat(pending).failsWithin(Duration.ofSeconds(20))
			.withThrowableThat()
			.havingRootCause()
			.isInstanceOf(RuntimeException.class);
		assertThat(pending.handle((page, failure) -> failure.getCause()).join())
			.isInstanceOf(RedisConnectionFailureException.class)
			.hasMessageContaining("SCAN on 127.0.0.1:" + proxy.port() + " failed");
		assertThat(scanner.cursor()).isEqualTo(before);
		proxy.forwardAllReplies();
		seen.addAll(scanAll(scanner));
		assertThat(seen).isEqualTo(all);
	}

	@Test
	void aCallWithoutReplyTimesOutWithTheTemplatesTimeoutAndTheCursorResumes(RedisProcess server) {
		Set<String> all = write("k:", 1_000);
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		StringBatchTemplate viaProxy = template(proxy.port(), Duration.ofMillis(300));
		KeyScanner<String> scanner = viaProxy.scanKeys(ScanOptions.scanOptions().count(100).build(), null);
		Set<String> seen = new HashSet<>(scanner.next());
		ScanCursor before = scanner.cursor();
		proxy.dropRepliesAfter(0);

		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(scanner::next)
			.withMessageContaining("got no reply within PT0.3S");

		assertThat(scanner.cursor()).isEqualTo(before);
		assertThat(viaProxy.getConnectionPool().getActive()).isZero();
		proxy.forwardAllReplies();
		seen.addAll(scanAll(scanner));
		assertThat(seen).isEqualTo(all);
	}

	@Test
	void aRedisErrorIsADataAccessExceptionAndKeepsTheConnection(RedisProcess server) {
		write("k:", 10);
		server.call("ACL", "SETUSER", "default", "-scan");
		try {
			KeyScanner<String> scanner = this.template.scanKeys(ScanOptions.NONE, null);
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(scanner::next)
				.withMessageContaining("NOPERM");
			assertThat(this.template.getConnectionPool().getDestroyedCount()).isZero();
			assertThat(scanner.cursor()).isEqualTo(ScanCursor.start());
		}
		finally {
			server.call("ACL", "SETUSER", "default", "+scan");
		}
	}

	@Test
	void theApiGuideExampleScansEveryOrderAndEndsWithACompleteToken(RedisProcess server) {
		Set<String> orders = write("order:", 2_500);
		write("user:", 100);
		Set<String> seen = new HashSet<>();

		String token = new ScanExamples(this.template).scanOrders(null, seen::addAll);

		assertThat(seen).isEqualTo(orders);
		assertThat(token).isEqualTo("scan1:complete");
		assertThat(ScanCursor.fromToken(token).isComplete()).isTrue();
	}

	@Test
	void badOptionsAreRejectedBeforeAnyIo(RedisProcess server) {
		long connections = server.totalConnectionsReceived();

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.scanKeys(ScanOptions.scanOptions().count(0).build(), null))
			.withMessage("the COUNT of a scan must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.scanKeys(null, null))
			.withMessage("options must not be null");

		assertThat(server.totalConnectionsReceived()).isEqualTo(connections + 1);
	}

	@Test
	void aCompleteScanHasNoNextPage(RedisProcess server) {
		KeyScanner<String> scanner = this.template.scanKeys(ScanOptions.NONE, ScanCursor.fromToken("scan1:complete"));

		assertThat(scanner.hasNext()).isFalse();
		assertThatExceptionOfType(java.util.NoSuchElementException.class).isThrownBy(scanner::next);
	}

	static Set<String> scanAll(KeyScanner<String> scanner) {
		Set<String> keys = new HashSet<>();
		while (scanner.hasNext()) {
			keys.addAll(scanner.next());
		}
		return keys;
	}

	private Set<String> write(String prefix, int count) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < count; i++) {
			entries.put(prefix + i, "v");
		}
		this.template.setAll(entries, null);
		return entries.keySet();
	}

	private static Set<String> expected(String prefix, int count) {
		Set<String> keys = new HashSet<>();
		for (int i = 0; i < count; i++) {
			keys.add(prefix + i);
		}
		return keys;
	}

	private StringBatchTemplate template(int port, Duration timeout) {
		BatchConnectionPool pool = track(
				BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port)).build());
		return new StringBatchTemplate(pool, BatchOptions.builder().timeout(timeout).build());
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

}
