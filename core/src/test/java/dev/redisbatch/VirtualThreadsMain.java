package dev.redisbatch;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.redisbatch.testsupport.RespConnection;
import dev.redisbatch.testsupport.TcpProxy;
import io.lettuce.core.RedisURI;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;

/**
 * A thousand virtual threads, each running a small batch through one
 * {@link StringBatchTemplate} whose pool has eight connections, with JFR recording
 * {@code jdk.VirtualThreadPinned} at a threshold of zero. Prints one line per phase and
 * the pinned-event count, which {@link VirtualThreadsTests} asserts on.
 * <p>
 * Compiled for Java 17 like the rest of the build, so virtual threads are started through
 * reflection; {@link VirtualThreadsTests} runs it on a JDK 21 or newer. Two phases:
 * <ul>
 * <li>{@code latency}: through a proxy that adds a 5 ms round trip, so every batch waits
 * for Redis and most callers wait for a connection; the pool's maximum wait is long
 * enough for all of them;</li>
 * <li>{@code stall}: the server holds every write until all callers but the ones holding
 * the eight connections have given up after the pool's 500 ms maximum wait; then it
 * answers.</li>
 * </ul>
 * Before recording, the same code runs once (three callers on one connection, while
 * writes wait) and each pool opens its eight connections, as in an application that has
 * been running for a while. The keys and values are test data; no key or value is
 * printed.
 */
public final class VirtualThreadsMain {

	static final int CALLS = 1_000;

	static final int POOL_SIZE = 8;

	static final Duration LATENCY_MAX_WAIT = Duration.ofSeconds(5);

	static final Duration STALL_MAX_WAIT = Duration.ofMillis(500);

	/**
	 * How long the main thread waits for the callers of a phase: far longer than the
	 * pool's maximum wait plus a batch, so a caller still running then is stuck.
	 */
	private static final Duration PHASE_BOUND = Duration.ofSeconds(60);

	private static final String PINNED = "jdk.VirtualThreadPinned";

	private static final String SUBMIT_FAILED = "jdk.VirtualThreadSubmitFailed";

	private VirtualThreadsMain() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		Path directory = Files.createTempDirectory("virtual-threads-jfr");
		System.out
			.println("JVM version=" + Runtime.version() + " processors=" + Runtime.getRuntime().availableProcessors());
		System.out.println("CONTROL pinned=" + count(record(directory.resolve("control.jfr"), () -> {
			// Blocking in a class initializer pins the carrier on every JDK: proof that
			// the recording below would see pinning if there were any.
			runInVirtualThread(PinningProbe::touch);
		}), PINNED));
		try (TcpProxy proxy = TcpProxy.start(port).roundTrip(Duration.ofMillis(5));
				BatchConnectionPool slow = pool(proxy.port(), POOL_SIZE, LATENCY_MAX_WAIT);
				BatchConnectionPool stalled = pool(port, POOL_SIZE, STALL_MAX_WAIT)) {
			// Not recorded, as in an application that has run for a while: the code paths
			// run once (a virtual thread waiting for a class that another one is loading
			// is pinned: class loading runs below a native frame), and both pools open
			// their connections (Lettuce writes a JFR event as it opens one, and JFR pins
			// the thread while it writes an event, which a recording can catch).
			// The pool of two takes the same path as the recorded phases: the message of
			// an
			// exhausted pool of one is built by another string concatenation, whose first
			// run (an invokedynamic bootstrap) would pin a caller in the recording.
			try (BatchConnectionPool tiny = pool(port, 2, STALL_MAX_WAIT)) {
				stall(new Phase("warm-up", 4, 2, STALL_MAX_WAIT), tiny, port);
			}
			fill(new Phase("fill-latency", POOL_SIZE, POOL_SIZE, LATENCY_MAX_WAIT), slow, port);
			fill(new Phase("fill-stall", POOL_SIZE, POOL_SIZE, STALL_MAX_WAIT), stalled, port);
			// A batch on this platform thread reads and writes its connection's socket
			// itself; the virtual threads that lease that connection next hand its I/O
			// back to the event loop (a selector would hold their carrier).
			new StringBatchTemplate(slow).execute((batch) -> batch.set("vt:platform", "1"));
			new StringBatchTemplate(stalled).execute((batch) -> batch.set("vt:platform", "1"));
			Map<String, Integer> events = count(record(directory.resolve("batches.jfr"), () -> {
				latency(new Phase("latency", CALLS, POOL_SIZE, LATENCY_MAX_WAIT), slow, port);
				stall(new Phase("stall", CALLS, POOL_SIZE, STALL_MAX_WAIT), stalled, port);
			}));
			System.out.println("EVENTS pinned=" + events.getOrDefault(PINNED, 0) + " submitFailed="
					+ events.getOrDefault(SUBMIT_FAILED, 0));
		}
		Files.delete(directory);
	}

	/**
	 * Every caller runs its batch at once; the pool's maximum wait is long enough for all
	 * of them.
	 */
	private static void latency(Phase phase, BatchConnectionPool pool, int port) throws Exception {
		phase.start(pool);
		phase.awaitAll();
		phase.print(pool, port);
	}

	/**
	 * Writes wait (for at most a minute, should this JVM die) until every caller that got
	 * no connection has given up.
	 */
	private static void stall(Phase phase, BatchConnectionPool pool, int port) throws Exception {
		RespConnection.call(port, "CLIENT", "PAUSE", "60000", "WRITE");
		try {
			phase.start(pool);
			phase.awaitAllButConnectionHolders();
		}
		finally {
			RespConnection.call(port, "CLIENT", "UNPAUSE");
		}
		phase.awaitAll();
		phase.print(pool, port);
	}

	/**
	 * Writes wait until one caller per connection holds one, so that the pool opens all
	 * its connections.
	 */
	private static void fill(Phase phase, BatchConnectionPool pool, int port) throws Exception {
		RespConnection.call(port, "CLIENT", "PAUSE", "60000", "WRITE");
		try {
			phase.start(pool);
			Awaitility.await().atMost(PHASE_BOUND).until(() -> pool.getActive() == pool.getMaxActive());
		}
		finally {
			RespConnection.call(port, "CLIENT", "UNPAUSE");
		}
		phase.awaitAll();
		phase.print(pool, port);
	}

	private static BatchConnectionPool pool(int port, int size, Duration maxWait) {
		return BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.maxActive(size)
			.maxIdle(size)
			.maxWait(maxWait)
			.build();
	}

	/**
	 * One phase: virtual threads released at once, each running one small batch, and the
	 * tally of what happened to them.
	 */
	private static final class Phase {

		private final String name;

		private final int calls;

		private final int poolSize;

		private final Duration maxWait;

		private final String counterKey;

		private final CountDownLatch go = new CountDownLatch(1);

		private final CountDownLatch done;

		private final CountDownLatch allButHolders;

		private final AtomicInteger virtual = new AtomicInteger();

		private final AtomicInteger success = new AtomicInteger();

		private final AtomicInteger exhausted = new AtomicInteger();

		private final Map<String, Integer> otherErrors = new ConcurrentHashMap<>();

		private final AtomicLong slowestSuccessNanos = new AtomicLong();

		private final AtomicLong slowestFailureNanos = new AtomicLong();

		private final AtomicInteger peakWaiting = new AtomicInteger();

		private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

		private long startNanos;

		private long elapsedNanos;

		private @Nullable ExecutorService executor;

		Phase(String name, int calls, int poolSize, Duration maxWait) {
			this.name = name;
			this.calls = calls;
			this.poolSize = poolSize;
			this.maxWait = maxWait;
			this.done = new CountDownLatch(calls);
			this.allButHolders = new CountDownLatch(calls - poolSize);
			this.counterKey = "vt:" + name + ":applied";
		}

		void start(BatchConnectionPool pool) throws Exception {
			// a generous chunk deadline: callers end by the pool's wait or their reply
			StringBatchTemplate template = new StringBatchTemplate(pool,
					BatchOptions.builder().timeout(PHASE_BOUND).build());
			this.sampler.scheduleAtFixedRate(() -> this.peakWaiting.accumulateAndGet(pool.getWaiting(), Math::max), 0,
					1, TimeUnit.MILLISECONDS);
			ExecutorService callers = newVirtualThreadPerTaskExecutor();
			this.executor = callers;
			for (int i = 0; i < this.calls; i++) {
				int caller = i;
				callers.execute(() -> call(template, caller));
			}
			this.startNanos = System.nanoTime();
			this.go.countDown();
		}

		private void call(StringBatchTemplate template, int caller) {
			try {
				this.go.await();
				if (isVirtual(Thread.currentThread())) {
					this.virtual.incrementAndGet();
				}
				long start = System.nanoTime();
				try {
					String key = "vt:" + this.name + ":" + caller;
					String value = "value-" + caller;
					AtomicReference<Response<String>> read = new AtomicReference<>();
					template.execute((batch) -> {
						batch.set(key, value);
						batch.incr(this.counterKey);
						read.set(batch.get(key));
					});
					if (value.equals(read.get().get())) {
						this.success.incrementAndGet();
						this.slowestSuccessNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
					}
					else {
						this.otherErrors.merge("wrong value read back", 1, Integer::sum);
					}
				}
				catch (BatchException ex) {
					if (ex.getCause() instanceof BatchPoolExhaustedException) {
						this.exhausted.incrementAndGet();
						this.slowestFailureNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
					}
					else {
						this.otherErrors.merge(describe(ex), 1, Integer::sum);
					}
				}
			}
			catch (Throwable ex) {
				this.otherErrors.merge(describe(ex), 1, Integer::sum);
			}
			finally {
				this.allButHolders.countDown();
				this.done.countDown();
			}
		}

		void awaitAllButConnectionHolders() throws InterruptedException {
			this.allButHolders.await(PHASE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
		}

		void awaitAll() throws InterruptedException {
			this.done.await(PHASE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
			this.elapsedNanos = System.nanoTime() - this.startNanos;
			this.sampler.shutdownNow();
			if (this.executor != null) {
				this.executor.shutdown();
			}
		}

		void print(BatchConnectionPool pool, int port) {
			Object applied = RespConnection.call(port, "GET", this.counterKey);
			System.out.println("PHASE name=" + this.name + " calls=" + this.calls + " virtual=" + this.virtual
					+ " success=" + this.success + " exhausted=" + this.exhausted + " other="
					+ this.otherErrors.values().stream().mapToInt(Integer::intValue).sum() + " running="
					+ this.done.getCount() + " applied=" + ((applied != null) ? applied : 0) + " poolSize="
					+ this.poolSize + " peakWaiting=" + this.peakWaiting + " maxWaitMillis=" + this.maxWait.toMillis()
					+ " slowestSuccessMillis=" + millis(this.slowestSuccessNanos.get()) + " slowestFailureMillis="
					+ millis(this.slowestFailureNanos.get()) + " elapsedMillis=" + millis(this.elapsedNanos)
					+ " exhaustedCount=" + pool.getExhaustedCount() + " created=" + pool.getCreatedCount());
			new TreeMap<>(this.otherErrors).forEach(
					(error, count) -> System.out.println("OTHER phase=" + this.name + " count=" + count + " " + error));
		}

	}

	private static String describe(Throwable ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		return ex.getClass().getSimpleName() + " caused by " + cause.getClass().getName();
	}

	private static long millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	private static Path record(Path file, ThrowingRunnable action) throws Exception {
		try (Recording recording = new Recording()) {
			recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
			recording.enable(SUBMIT_FAILED);
			recording.start();
			action.run();
			recording.stop();
			recording.dump(file);
		}
		return file;
	}

	private static int count(Path file, String eventName) throws IOException {
		return count(file).getOrDefault(eventName, 0);
	}

	private static Map<String, Integer> count(Path file) throws IOException {
		Map<String, Integer> counts = new TreeMap<>();
		List<RecordedEvent> events = RecordingFile.readAllEvents(file);
		Files.delete(file);
		for (RecordedEvent event : events) {
			counts.merge(event.getEventType().getName(), 1, Integer::sum);
			if (PINNED.equals(event.getEventType().getName()) && !file.endsWith("control.jfr")) {
				System.out.println("PINNED-AT " + topFrames(event));
			}
		}
		return counts;
	}

	private static String topFrames(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return "(no stack trace)";
		}
		StringBuilder frames = new StringBuilder();
		for (RecordedFrame frame : event.getStackTrace()
			.getFrames()
			.subList(0, Math.min(8, event.getStackTrace().getFrames().size()))) {
			frames.append(frame.getMethod().getType().getName())
				.append('.')
				.append(frame.getMethod().getName())
				.append(" < ");
		}
		return frames.toString();
	}

	private static void runInVirtualThread(Runnable action) throws Exception {
		ExecutorService executor = newVirtualThreadPerTaskExecutor();
		executor.submit(action).get(PHASE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
		executor.shutdown();
	}

	/**
	 * {@code Executors.newVirtualThreadPerTaskExecutor()}, a Java 21 API, called through
	 * reflection because the build compiles for Java 17.
	 */
	private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
		return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
	}

	private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
		Method isVirtual = Thread.class.getMethod("isVirtual");
		return (Boolean) isVirtual.invoke(thread);
	}

	@FunctionalInterface
	private interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * A class whose initializer blocks for a moment: a virtual thread that initializes it
	 * cannot unmount while it waits, so it pins its carrier.
	 */
	private static final class PinningProbe {

		static {
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
		}

		static void touch() {
			// initializing the class is the point
		}

	}

}
