package dev.redisbatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.Closeables;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.FreePorts;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.PortablePath;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.TcpProxy;
import dev.redisbatch.testsupport.TestCertificates.ServerCertificate;
import dev.redisbatch.testsupport.TestCertificates;
import dev.redisbatch.wire.Wire;
import io.lettuce.core.ClientOptions.ReauthenticateBehavior;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslVerifyMode;
import io.netty.channel.Channel;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The reply path of batch connections against real servers: replies decoded on the
 * batch's thread through the connection's {@link Wire}, with a RESP3 push frame between
 * them, a connection closed in the middle of a reply, a password rotated during a batch,
 * and TLS.
 */
@LeakDetection
@BothPaths
@EveryLine
class ReplyPathTests {

	private static final String PUSH = ">2\r\n$10\r\ninvalidate\r\n*1\r\n$4\r\nkey7\r\n";

	@AutoClose
	private final Closeables resources = new Closeables();

	@Test
	void aPushFrameBetweenTwoRepliesIsReadPastAndEveryCommandGetsItsOwnReply() {
		RedisProcess server = track(RedisProcess.start());
		List<String> keys = List.copyOf(load(server, 1_000, (i) -> "value" + i).keySet());
		// the connection's handshake takes a few replies: the frame comes in the batch's
		TcpProxy proxy = track(TcpProxy.start(server.port()).injectAfterReplies(300, PUSH));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);

		List<String> values = template.getAll(keys);

		for (int i = 0; i < 1_000; i++) {
			assertThat(values.get(i)).isEqualTo("value" + i);
		}
		// the connection was left clean, and serves the next batch
		assertThat(template.getAll(List.of("key1", "key999"))).containsExactly("value1", "value999");
		assertThat(pool.getCreatedCount()).isEqualTo(1);
	}

	@Test
	void repliesThatEndReadsInTheirMiddleAreEachDecodedWhole() {
		RedisProcess server = track(RedisProcess.start());
		// 2 to 6,000 bytes: the part of a reply left at the end of a read is sometimes
		// smaller than the room a read keeps in front of its bytes, and sometimes larger
		Map<String, String> entries = load(server, 3_000, (i) -> (i + ":").repeat(1 + (i * 7_919) % 1_200));
		List<String> keys = List.copyOf(entries.keySet());
		// through the proxy, replies come in the pieces it forwards them in
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(2)));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool);

		for (int round = 0; round < 2; round++) {
			List<String> values = template.getAll(keys);

			for (int i = 0; i < keys.size(); i++) {
				assertThat(values.get(i)).as("key%d", i).isEqualTo(entries.get(keys.get(i)));
			}
		}
		assertThat(pool.getCreatedCount()).isOne();
	}

	@Test
	void aConnectionClosedInTheMiddleOfAReplyKeepsTheWholeRepliesBeforeItAndTheRestAreUnknown() {
		RedisProcess server = track(RedisProcess.start());
		String value = "v".repeat(1_000);
		for (int i = 0; i < 20; i++) {
			server.call("SET", "big" + i, value);
		}
		TcpProxy proxy = track(TcpProxy.start(server.port()));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port())).build());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().timeout(Duration.ofSeconds(30)).build());
		assertThat(template.getAll(List.of("big0"))).containsExactly(value);
		long before = proxy.replyBytes();
		// each reply is "$1000\r\n", the value and "\r\n": five whole replies and half
		// of the sixth reach the client
		proxy.dropRepliesAfter(5 * 1_007 + 500);

		List<Response<String>> responses = new CopyOnWriteArrayList<>();
		CompletableFuture<BatchException> failure = CompletableFuture
			.supplyAsync(() -> catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
				for (int i = 0; i < 20; i++) {
					responses.add(batch.get("big" + i));
				}
			})));
		await().atMost(Duration.ofSeconds(20)).until(() -> proxy.replyBytes() - before >= 20 * 1_007);
		proxy.closeConnections();

		BatchResults results = failure.join().getResults();
		assertThat(results.size()).isEqualTo(20);
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(5);
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(15);
		for (int i = 0; i < 20; i++) {
			if (i < 5) {
				assertThat(responses.get(i).get()).isEqualTo(value);
			}
			else {
				assertThat(responses.get(i).outcome()).isEqualTo(Outcome.UNKNOWN);
			}
		}
		assertThat(results.failures()).allSatisfy((f) -> assertThat(f.message()).contains("no reply came"));
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActive() == 0);
	}

	@Test
	void aPasswordRotatedWhileAChunkIsInFlightLetsItFinishAndNewConnectionsUseTheNewOne() {
		RedisProcess server = track(RedisProcess.start());
		server.call("ACL", "SETUSER", "batch", "on", ">one", "~*", "+@all");
		AtomicReference<String> password = new AtomicReference<>("one");
		RedisCredentialsProvider rotating = () -> Mono
			.fromSupplier(() -> RedisCredentials.just("batch", password.get()));
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofSeconds(1)));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(
				RedisURI.builder().withHost("127.0.0.1").withPort(proxy.port()).withAuthentication(rotating).build())
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.setAll(Map.of("before", "one"), null);

		CompletableFuture<BatchResults> inFlight = hundredIncrsInFlight(template, proxy);
		server.call("ACL", "SETUSER", "batch", "resetpass", ">two");
		password.set("two");

		assertThat(inFlight.join().count(Outcome.SUCCESS)).isEqualTo(100);
		assertThat(server.call("GET", "counter")).isEqualTo("100");
		// while the connection that was leased is out, the next batch needs a new one
		BatchConnection leased = pool.server().borrow();
		long created = pool.getCreatedCount();
		try {
			template.setAll(Map.of("after", "two"), null);
		}
		finally {
			pool.server().release(leased);
		}
		assertThat(pool.getCreatedCount()).as("a new connection, with the new password").isEqualTo(created + 1);
		assertThat(server.call("GET", "after")).isEqualTo("two");
	}

	@Test
	void streamedCredentialsReauthenticateALeasedConnectionOnceItsBatchGivesItBack() {
		RedisProcess server = serverWithTwoUsers();
		StreamingCredentials credentials = new StreamingCredentials("first", "one");
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(300)));
		BatchConnectionPool pool = reauthenticating(proxy, credentials);
		StringBatchTemplate template = new StringBatchTemplate(pool);
		template.setAll(Map.of("before", "one"), null);

		CompletableFuture<BatchResults> inFlight = hundredIncrsInFlight(template, proxy);
		credentials.rotate("second", "two");

		assertThat(inFlight.join().count(Outcome.SUCCESS)).as("the chunk finished on its connection").isEqualTo(100);
		assertThat(server.call("GET", "counter")).isEqualTo("100");
		// then the connection sent AUTH as the new user, and stayed open
		await().atMost(Duration.ofSeconds(10))
			.until(() -> String.valueOf(server.call("CLIENT", "LIST")).contains("user=second"));
		assertThat(String.valueOf(server.call("CLIENT", "LIST"))).doesNotContain("user=first");
		template.setAll(Map.of("after", "two"), null);
		assertThat(pool.getCreatedCount()).as("no connection was replaced").isEqualTo(1);
		assertThat(server.call("GET", "after")).isEqualTo("two");
	}

	@Test
	void aBatchRightAfterStreamedCredentialsNeverTakesTheReplyToTheirAuth() {
		RedisProcess server = serverWithTwoUsers();
		server.call("SET", "key", "value");
		StreamingCredentials credentials = new StreamingCredentials("first", "one");
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(300)));
		BatchConnectionPool pool = reauthenticating(proxy, credentials);
		StringBatchTemplate template = new StringBatchTemplate(pool);
		assertThat(template.getAll(List.of("key"))).containsExactly("value");

		// the AUTH goes out between batches; its reply comes 300 ms later
		credentials.rotate("second", "two");
		List<String> values = template.getAll(List.of("key", "missing", "key"));

		assertThat(values).as("every GET has its own reply").containsExactly("value", null, "value");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> String.valueOf(server.call("CLIENT", "LIST")).contains("user=second"));
		assertThat(pool.getCreatedCount()).isEqualTo(1);
	}

	@Test
	void aConnectionWhoseRepliesFilledTheReadAheadCapReadsAgainAfterACleanLease() throws Exception {
		PortablePath.assumeFastPath("the read-ahead cap and the auto-read switch are the Wire's");
		TlsServer tls = tlsServer();
		// 64 replies of "$1048576\r\n", the value and "\r\n": 768 bytes more than the
		// cap,
		// so that the event loop stops reading only once every reply is queued
		String value = "v".repeat(1 << 20);
		List<String> keys = new ArrayList<>();
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < 64; i++) {
			keys.add("big" + i);
			entries.put("big" + i, value);
		}
		new StringBatchTemplate(track(BatchConnectionPool.builder(uri(tls.server().port())).build())).setAll(entries,
				null);
		BatchConnectionPool pool = track(BatchConnectionPool.builder(tls.uri()).maxActive(1).build());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(64).build());
		template.getAll(List.of("warm"));
		BatchConnection connection = pool.server().borrow();
		Channel channel = pool.channelOf(connection);
		pool.server().release(connection);
		List<Response<String>> values = new ArrayList<>();

		template.execute((batch) -> {
			for (String key : keys) {
				values.add(batch.get(key));
			}
			// the chunk went out when it filled: the batch's thread takes no reply until
			// every one is queued and the event loop has stopped reading
			await().atMost(Duration.ofSeconds(30)).until(() -> !channel.config().isAutoRead());
		});

		assertThat(values).allSatisfy((response) -> assertThat(response.get()).hasSize(1 << 20));
		assertThat(channel.config().isAutoRead()).as("the event loop reads the connection again").isTrue();
		BatchConnection same = pool.server().borrow();
		try {
			assertThat(same.lettuce().async().ping().get(10, TimeUnit.SECONDS)).isEqualTo("PONG");
		}
		finally {
			pool.server().release(same);
		}
		assertThat(pool.getCreatedCount()).isOne();
	}

	@Test
	void aReauthenticationHeldDuringALeaseGoesOutBeforeTheNextLeaseStarts() throws Exception {
		PortablePath.assumeFastPath("the Wire holds a reauthentication during a lease");
		RedisProcess server = serverWithTwoUsers();
		StreamingCredentials credentials = new StreamingCredentials("first", "one");
		BatchConnectionPool pool = track(BatchConnectionPool
			.builder(RedisURI.builder()
				.withHost("127.0.0.1")
				.withPort(server.port())
				.withAuthentication(credentials)
				.build())
			.reauthenticate(ReauthenticateBehavior.ON_NEW_CREDENTIALS)
			.maxActive(1)
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(1).build());
		assertThat(whoAmI(template)).isEqualTo("first");
		BatchConnection connection = pool.server().borrow();
		Channel channel = pool.channelOf(connection);
		pool.server().release(connection);
		Wire wire = channel.pipeline().get(Wire.class);
		Thread batchThread = Thread.currentThread();
		AtomicBoolean nextBatchStarted = new AtomicBoolean();

		template.execute((batch) -> {
			batch.incr("counter");
			credentials.rotate("second", "two");
			await().atMost(Duration.ofSeconds(10)).until(wire::holdsWrites);
			// whatever the end of this lease hands the event loop runs only once the next
			// lease has started, or waits for the event loop: as when the batch's thread
			// starts its next batch before the event loop wakes up
			channel.eventLoop()
				.execute(() -> await().atMost(Duration.ofSeconds(10))
					.until(() -> nextBatchStarted.get()
							&& (wire.isLeased() || LockSupport.getBlocker(batchThread) != null)));
		});
		nextBatchStarted.set(true);

		assertThat(whoAmI(template)).as("the next batch runs as the new user").isEqualTo("second");
		assertThat(server.call("GET", "counter")).isEqualTo("1");
		assertThat(pool.getCreatedCount()).as("no connection was replaced").isOne();
	}

	private static String whoAmI(StringBatchTemplate template) {
		AtomicReference<Response<String>> user = new AtomicReference<>();
		template
			.execute((batch) -> user.set(batch.command("ACL", CommandReply.string(), (args) -> args.arg("WHOAMI"))));
		return user.get().get();
	}

	@Test
	void aHundredThousandGetsOverTls() {
		TlsServer tls = tlsServer();
		RedisProcess server = tls.server();
		StringBatchTemplate template = new StringBatchTemplate(track(BatchConnectionPool.builder(tls.uri()).build()));
		Map<String, String> entries = new HashMap<>();
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 100_000; i++) {
			entries.put("tls:" + i, "value-" + i);
			keys.add("tls:" + i);
		}

		template.setAll(entries, null);
		List<String> values = template.getAll(keys);

		assertThat(server.call("DBSIZE")).isEqualTo(100_000L);
		for (int i = 0; i < 100_000; i++) {
			assertThat(values.get(i)).isEqualTo("value-" + i);
		}
	}

	/**
	 * A server that takes TLS connections (and plaintext ones, for loading data), and the
	 * URI of its TLS port.
	 */
	private TlsServer tlsServer() {
		assumeTrue(RedisServerBinary.locate().tls(), "the redis-server binary has no TLS support");
		TestCertificates authority = TestCertificates.authority("redis-batch-reply-path-ca");
		ServerCertificate certificate = authority.issue("localhost", "dns:localhost,ip:127.0.0.1");
		int tlsPort = FreePorts.next();
		RedisProcess server = track(RedisProcess.start("--tls-port", String.valueOf(tlsPort), "--tls-cert-file",
				certificate.certificate().toString(), "--tls-key-file", certificate.privateKey().toString(),
				"--tls-ca-cert-file", authority.caCertificate().toString(), "--tls-auth-clients", "no"));
		RedisURI uri = RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(tlsPort)
			.withSsl(true)
			.withVerifyPeer(SslVerifyMode.NONE)
			.build();
		return new TlsServer(server, uri);
	}

	private record TlsServer(RedisProcess server, RedisURI uri) {
	}

	/**
	 * A server with the ACL users {@code first} (password {@code one}) and {@code second}
	 * (password {@code two}).
	 */
	private RedisProcess serverWithTwoUsers() {
		return withTwoUsers(track(RedisProcess.start()));
	}

	private static RedisProcess withTwoUsers(RedisProcess server) {
		server.call("ACL", "SETUSER", "first", "on", ">one", "~*", "+@all");
		server.call("ACL", "SETUSER", "second", "on", ">two", "~*", "+@all");
		return server;
	}

	/**
	 * Start a batch of 100 {@code INCR}s of {@code counter} on another thread, and wait
	 * until all 100 are past the proxy, awaiting their replies.
	 */
	private static CompletableFuture<BatchResults> hundredIncrsInFlight(StringBatchTemplate template, TcpProxy proxy) {
		proxy.resetPeaks();
		CompletableFuture<BatchResults> inFlight = CompletableFuture.supplyAsync(() -> template.execute((batch) -> {
			for (int i = 0; i < 100; i++) {
				batch.incr("counter");
			}
		}));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> proxy.peakOutstandingRequests() >= 100);
		return inFlight;
	}

	/**
	 * A pool whose connections go through the proxy and re-authenticate on new
	 * credentials.
	 */
	private BatchConnectionPool reauthenticating(TcpProxy proxy, StreamingCredentials credentials) {
		RedisURI uri = RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(proxy.port())
			.withAuthentication(credentials)
			.build();
		BatchConnectionPool pool = BatchConnectionPool.builder(uri)
			.reauthenticate(ReauthenticateBehavior.ON_NEW_CREDENTIALS)
			.build();
		return track(pool);
	}

	private static RedisURI uri(int port) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).build();
	}

	private <T extends AutoCloseable> T track(T resource) {
		return this.resources.track(resource);
	}

	/**
	 * Set {@code key0} to {@code key<count - 1>} on the server, through a pool of their
	 * own.
	 * @return the keys and their values, in key order
	 */
	private Map<String, String> load(RedisProcess server, int count, IntFunction<String> value) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (int i = 0; i < count; i++) {
			entries.put("key" + i, value.apply(i));
		}
		new StringBatchTemplate(track(BatchConnectionPool.builder(uri(server.port())).build())).setAll(entries, null);
		return entries;
	}

}
