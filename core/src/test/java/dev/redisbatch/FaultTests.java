package dev.redisbatch;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.redisbatch.testsupport.BothPaths;
import dev.redisbatch.testsupport.Closeables;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.LeakDetection;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerBinary;
import dev.redisbatch.testsupport.RespConnection;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Faults against real redis-server processes: every command is accounted for, nothing is
 * silently lost or run twice, nothing blocks forever, nothing leaks.
 */
@LeakDetection
@BothPaths
@EveryLine
class FaultTests {

	@AutoClose
	private final Closeables resources = new Closeables();

	@Test
	void aServerKilledMidBatchLeavesAnsweredChunksSucceededTheInFlightOneUnknownAndTheRestNotSent() {
		Set<Thread> threadsBefore = lettuceThreads();
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(200)));
		BatchConnectionPool pool = pool(proxy.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(100).timeout(Duration.ofSeconds(10)).build());

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			for (int i = 0; i < 200; i++) {
				batch.incr("counter:" + i);
			}
			// chunk 1 was answered before chunk 2 could go out; chunk 2 is on the wire
			// now
			server.kill();
			for (int i = 200; i < 1_000; i++) {
				batch.incr("counter:" + i);
			}
		}));

		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(100);
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(100);
		// the chunk that was waiting, and every command recorded after the stop
		assertThat(results.count(Outcome.NOT_SENT)).isEqualTo(800);
		assertThat(results.size()).isEqualTo(1000);
		// the loss was seen when the connection closed, not when the chunk's deadline
		// passed
		assertThat(results.abortReason()).contains("lost its connection").doesNotContain("timeout");
		assertThat(pool.getActive()).isZero();
		assertThat(pool.getIdle()).isZero();
		pool.close();
		// no thread of this pool's is left; one an earlier test left may end meanwhile
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(lettuceThreads()).isSubsetOf(threadsBefore));
	}

	@Test
	void afterARestartBetweenChunksLaterChunksSucceedOnAFreshConnectionAndNothingIsReplayed() {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = pool(server.port());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(100).build());

		BatchResults results;
		try (BoundBatch batch = template.bind(BatchOptions.defaults(), List.of())) {
			template.execute((first) -> {
				for (int i = 0; i < 100; i++) {
					first.incr("before:" + i);
				}
			});
			server.restart();
			template.execute((second) -> {
				for (int i = 0; i < 100; i++) {
					second.incr("after:" + i);
				}
			});
			results = batch.complete();
		}

		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(200);
		assertThat(results.chunks()).isEqualTo(2);
		// the restarted server kept nothing; each command after the restart ran exactly
		// once
		assertThat(server.call("DBSIZE")).isEqualTo(100L);
		for (int i = 0; i < 100; i++) {
			assertThat(server.call("GET", "after:" + i)).isEqualTo("1");
		}
		assertThat(pool.getCreatedCount()).isEqualTo(2);
	}

	@Test
	void aKilledBatchConnectionLeavesThePoolAndItsCommandsAreUnknown() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(300)));
		BatchConnectionPool pool = pool(proxy.port());
		StringBatchTemplate template = new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(100).build());

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			for (int i = 0; i < 100; i++) {
				batch.incr("counter:" + i);
			}
			server.call("CLIENT", "KILL", "ID", batchClientId(server));
		}));

		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(100);
		assertThat(pool.getDestroyedCount()).isEqualTo(1);
		assertThat(pool.getIdle()).isZero();
		assertThat(template.execute((batch) -> batch.incr("later")).isSuccess()).isTrue();
		assertThat(pool.getCreatedCount()).isEqualTo(2);
	}

	@Test
	void aFrozenServerTimesOutEveryChunkInFlightAndAnsweredCommandsKeepTheirResults() {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(100)));
		BatchConnectionPool pool = pool(proxy.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(200).timeout(Duration.ofSeconds(1)).build());
		template.execute((warmUp) -> warmUp.get("warm-up"));
		List<Response<Long>> answered = new ArrayList<>();
		BatchException failure;
		try (BoundBatch batch = template.bind(BatchOptions.defaults(), List.of())) {
			// a first chunk, answered before the freeze (a joined execute waits for its
			// replies)
			template.execute((first) -> {
				for (int i = 0; i < 100; i++) {
					answered.add(first.incr("counter:" + i));
				}
			});
			server.freeze();
			proxy.resetPeaks();
			// two chunks go out at once, pipelined on the batch's connection, to a
			// stopped server
			catchThrowableOfType(BatchException.class, () -> template.execute((second) -> {
				for (int i = 100; i < 300; i++) {
					second.incr("counter:" + i);
				}
			}));
			failure = catchThrowableOfType(BatchException.class, batch::complete);
		}
		finally {
			server.resume();
		}

		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(100);
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(200);
		assertThat(results.abortReason()).contains("no reply within its timeout of PT1S");
		assertThat(answered).allSatisfy((response) -> assertThat(response.get()).isEqualTo(1L));
		// both chunks were in flight at once on the one connection; each chunk's deadline
		// runs from its own write, so they wait together, not one after the other
		assertThat(proxy.peakOutstandingRequests()).isEqualTo(200);
		assertThat(pool.getCreatedCount()).isOne();
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void aFrozenServerTimesOutTheChunksInFlightOnTheBatchsOneConnectionAndNeverCostsAHandshake() {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = pool(server.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(400).timeout(Duration.ofSeconds(1)).build());
		template.execute((batch) -> batch.get("warm-up"));
		BatchException failure;
		try {
			server.freeze();
			failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
				for (int i = 0; i < 500; i++) {
					batch.incr("counter:" + i);
				}
			}));
		}
		finally {
			server.resume();
		}

		// the four chunks in flight were pipelined on the batch's one connection and
		// timed out there; no other connection was opened (no handshake with a frozen
		// server, whose connect timeout is 10 s), and the fifth chunk was never sent
		assertThat(failure.getResults().abortReason()).contains("no reply within its timeout of PT1S");
		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(400);
		assertThat(failure.getResults().count(Outcome.NOT_SENT)).isEqualTo(100);
		assertThat(pool.getCreatedCount()).isEqualTo(1);
	}

	@Test
	void aServerBusyInDebugSleepTimesTheChunkOutAndItsCommandsStillRunOnlyOnce() throws Exception {
		RedisProcess server = track(debuggableServer());
		BatchConnectionPool pool = pool(server.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(50).timeout(Duration.ofMillis(500)).build());
		template.execute((batch) -> batch.get("warm-up"));
		CompletableFuture<Object> sleep = CompletableFuture.supplyAsync(() -> server.call("DEBUG", "SLEEP", "2"));
		await().atMost(Duration.ofSeconds(10)).until(() -> !answersWithin(server, Duration.ofMillis(100)));

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			for (int i = 0; i < 50; i++) {
				batch.incr("counter:" + i);
			}
		}));

		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(50);
		sleep.get(10, TimeUnit.SECONDS);
		// UNKNOWN means "may have run": here they did, once, after the sleep
		for (int i = 0; i < 50; i++) {
			assertThat(server.call("GET", "counter:" + i)).isEqualTo("1");
		}
	}

	@Test
	void whileClientsArePausedForWritesTheAnsweredReadsKeepTheirResults() {
		RedisProcess server = track(RedisProcess.start());
		BatchConnectionPool pool = pool(server.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(100).timeout(Duration.ofMillis(500)).build());
		server.call("SET", "greeting", "hello");
		template.execute((batch) -> batch.get("warm-up"));
		server.call("CLIENT", "PAUSE", "3000", "WRITE");
		List<Response<String>> reads = new ArrayList<>();

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			for (int i = 0; i < 50; i++) {
				reads.add(batch.get("greeting"));
			}
			for (int i = 0; i < 50; i++) {
				batch.set("paused:" + i, "x");
			}
		}));

		server.call("CLIENT", "UNPAUSE");
		assertThat(failure.getResults().count(Outcome.SUCCESS)).isEqualTo(50);
		assertThat(failure.getResults().count(Outcome.UNKNOWN)).isEqualTo(50);
		assertThat(reads).allSatisfy((read) -> assertThat(read.get()).isEqualTo("hello"));
	}

	@Test
	void outOfMemoryFailsOnlyTheCommandsThatNeedMemory() {
		RedisProcess server = track(RedisProcess.start("--maxmemory-policy", "noeviction"));
		BatchConnectionPool pool = pool(server.port());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		server.call("SET", "greeting", "hello");
		server.call("CONFIG", "SET", "maxmemory", "1");

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			batch.get("greeting");
			batch.set("new", "value");
			batch.exists("greeting");
		}));

		server.call("CONFIG", "SET", "maxmemory", "0");
		BatchResults results = failure.getResults();
		assertThat(results.count(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(results.failures()).singleElement().satisfies((f) -> {
			assertThat(f.index()).isEqualTo(1);
			assertThat(f.message()).startsWith("OOM");
		});
	}

	@Test
	void underPoolPressureExcessCallersFailFastAndThePoolEndsEmpty() throws Exception {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofMillis(100)));
		BatchConnectionPool pool = track(BatchConnectionPool.builder(uri(proxy.port()))
			.maxActive(8)
			.maxIdle(8)
			.maxWait(Duration.ofMillis(150))
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool);
		ExecutorService callers = Executors.newFixedThreadPool(64);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Throwable>> outcomes = new ArrayList<>();
		try {
			for (int i = 0; i < 64; i++) {
				int n = i;
				outcomes.add(callers.submit(() -> {
					start.await();
					try {
						template.execute((batch) -> batch.incr("caller:" + n));
						return null;
					}
					catch (BatchException ex) {
						return ex.getCause();
					}
				}));
			}
			start.countDown();
			int succeeded = 0;
			int exhausted = 0;
			for (Future<Throwable> outcome : outcomes) {
				Throwable cause = outcome.get(30, TimeUnit.SECONDS);
				if (cause == null) {
					succeeded++;
				}
				else {
					assertThat(cause).isInstanceOf(BatchPoolExhaustedException.class)
						.hasMessageContaining("became free within the pool's max-wait of PT0.15S");
					exhausted++;
				}
			}
			assertThat(succeeded).isGreaterThanOrEqualTo(8);
			assertThat(exhausted).isPositive();
			assertThat(succeeded + exhausted).isEqualTo(64);
			assertThat(pool.getExhaustedCount()).isEqualTo(exhausted);
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(pool.getActive()).isZero();
		assertThat(pool.getWaiting()).isZero();
		assertThat(pool.getCreatedCount()).isLessThanOrEqualTo(8);
	}

	@Test
	void anInterruptedBatchReturnsPromptlyKeepsTheFlagAndAccountsForEveryCommand() throws Exception {
		RedisProcess server = track(RedisProcess.start());
		TcpProxy proxy = track(TcpProxy.start(server.port()).roundTrip(Duration.ofSeconds(20)));
		BatchConnectionPool pool = pool(proxy.port());
		StringBatchTemplate template = new StringBatchTemplate(pool,
				BatchOptions.builder().chunkSize(100).maxInFlightCommands(100).timeout(Duration.ofSeconds(30)).build());
		proxy.roundTrip(Duration.ZERO);
		template.execute((batch) -> batch.get("warm-up"));
		proxy.roundTrip(Duration.ofSeconds(20));
		AtomicReference<BatchException> failure = new AtomicReference<>();
		AtomicBoolean interruptedAfter = new AtomicBoolean();
		Thread worker = new Thread(() -> {
			try {
				template.execute((batch) -> {
					for (int i = 0; i < 250; i++) {
						batch.incr("counter:" + i);
					}
				});
			}
			catch (BatchException ex) {
				failure.set(ex);
			}
			interruptedAfter.set(Thread.currentThread().isInterrupted());
		});
		// read before the worker starts: its first chunk may reach the proxy at once
		long warmUpBytes = proxy.clientBytes();
		worker.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> proxy.clientBytes() > warmUpBytes && pool.getActive() == 1);

		worker.interrupt();
		worker.join(Duration.ofSeconds(5).toMillis());

		assertThat(worker.isAlive()).as("returned promptly after the interrupt").isFalse();
		assertThat(interruptedAfter).isTrue();
		BatchResults results = failure.get().getResults();
		assertThat(results.abortReason()).contains("interrupted");
		assertThat(results.count(Outcome.SUCCESS) + results.count(Outcome.UNKNOWN) + results.count(Outcome.NOT_SENT))
			.isEqualTo(results.size());
		assertThat(results.count(Outcome.UNKNOWN)).isEqualTo(100);
		assertThat(pool.getActive()).isZero();
	}

	@Test
	void anAclUserLimitedToAPrefixGetsNopermPerCommand() {
		RedisProcess server = track(RedisProcess.start());
		server.call("ACL", "SETUSER", "orders", "on", ">orders-pw", "~order:*", "+@all");
		BatchConnectionPool pool = track(BatchConnectionPool
			.builder(RedisURI.builder()
				.withHost("127.0.0.1")
				.withPort(server.port())
				.withAuthentication("orders", "orders-pw")
				.build())
			.build());
		StringBatchTemplate template = new StringBatchTemplate(pool);

		BatchException failure = catchThrowableOfType(BatchException.class, () -> template.execute((batch) -> {
			batch.set("order:1", "x");
			batch.set("invoice:1", "x");
			batch.set("order:2", "x");
		}));

		assertThat(failure.getResults().count(Outcome.SUCCESS)).as(failure.getMessage()).isEqualTo(2);
		assertThat(failure.getResults().failures()).singleElement().satisfies((f) -> {
			assertThat(f.index()).isEqualTo(1);
			assertThat(f.outcome()).isEqualTo(Outcome.FAILED);
			assertThat(f.message()).startsWith("NOPERM");
		});
		assertThat(server.call("EXISTS", "invoice:1")).isEqualTo(0L);
	}

	private RedisProcess debuggableServer() {
		return (RedisProcess.start().binary().majorVersion() >= 7)
				? RedisProcess.start("--enable-debug-command", "local") : RedisProcess.start();
	}

	private static boolean answersWithin(RedisProcess server, Duration timeout) {
		try (RespConnection connection = RespConnection.open(server.port(), timeout)) {
			return "PONG".equals(connection.call("PING"));
		}
		catch (IOException | RuntimeException ex) {
			return !(ex instanceof SocketTimeoutException || ex.getCause() instanceof SocketTimeoutException);
		}
	}

	private static String batchClientId(RedisProcess server) {
		return String.valueOf(server.call("CLIENT", "LIST"))
			.lines()
			.filter((line) -> line.contains("name=redis-batch"))
			.map((line) -> line.substring(3, line.indexOf(' ')))
			.findFirst()
			.orElseThrow();
	}

	private BatchConnectionPool pool(int port) {
		return track(BatchConnectionPool.builder(uri(port)).build());
	}

	private static RedisURI uri(int port) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).withClientName("redis-batch").build();
	}

	private <T extends AutoCloseable> T track(T resource) {
		return this.resources.track(resource);
	}

	private static Set<Thread> lettuceThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("lettuce-"))
			.collect(Collectors.toSet());
	}

}
