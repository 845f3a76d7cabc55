package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that measures what each command costs in CPU, client and server: it runs
 * in the benchmark's JVM, reads {@link CpuClock} and the server's {@code INFO cpu}
 * ({@link Server}) before and after each iteration, and divides by the commands the
 * iteration sent (its operations, every thread's, times the commands of one operation).
 * The results are JMH secondary results:
 * <ul>
 * <li>{@value #CALLER}, {@value #LOOP}, {@value #OTHER}: the client's CPU time per
 * command on the calling threads, on the event loops, and in the rest of the JVM (GC,
 * JIT, other threads);</li>
 * <li>{@value #CLIENT}: the client's whole process, per command;</li>
 * <li>{@value #SERVER}: the Redis server's, per command;</li>
 * <li>{@value #SERVER_SHARE} and {@value #CLIENT_SHARE}: the CPU of the server and of the
 * client during the iteration, in percent of one core;</li>
 * <li>{@value #BATCHES}: the operations per second of wall time, over every thread.</li>
 * </ul>
 * The server is the run's ({@link BenchmarkEnvironment#serverPort()}). The latency proxy
 * runs in the runner's JVM, so its CPU is in neither figure.
 * <p>
 * JMH runs a benchmark's trial teardown, which closes its clients and so ends their event
 * loops, before it calls {@link #afterIteration} for the last iteration: the CPU time of
 * threads that died would be lost from their role. So a benchmark marks the end of each
 * iteration itself, from its iteration teardown ({@link #iterationEnded()}), which JMH
 * runs first; without that mark the profiler reads at {@code afterIteration}.
 *
 * @since 0.1.0
 */
public final class CpuCostProfiler implements InternalProfiler {

	static final String CALLER = "cpu.caller.ns/cmd";

	static final String LOOP = "cpu.loop.ns/cmd";

	static final String OTHER = "cpu.other.ns/cmd";

	static final String CLIENT = "cpu.client.ns/cmd";

	static final String SERVER = "cpu.server.ns/cmd";

	static final String SERVER_SHARE = "server.cpu.pct";

	static final String CLIENT_SHARE = "client.cpu.pct";

	static final String BATCHES = "batches/s";

	/**
	 * The clock of this JVM, shared by the profiler and the benchmarks' marks.
	 */
	private static final CpuClock CLOCK = new CpuClock();

	/**
	 * The end of the current iteration, as its benchmark marked it.
	 */
	private static final AtomicReference<@Nullable Sample> ENDED = new AtomicReference<>();

	/**
	 * Whether a profiler runs in this JVM: without one, the marks cost nothing.
	 */
	private static volatile boolean active;

	private @Nullable Sample start;

	/**
	 * Created by JMH in the benchmark's JVM.
	 */
	public CpuCostProfiler() {
		active = true;
	}

	@Override
	public String getDescription() {
		return "CPU time per command of the client (calling threads, event loops, the rest) and of the Redis server";
	}

	/**
	 * Mark the end of an iteration, from the benchmark's iteration teardown (before JMH's
	 * trial teardown closes the clients). Does nothing unless the profiler runs.
	 */
	static void iterationEnded() {
		if (active) {
			ENDED.set(sample());
		}
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		ENDED.set(null);
		this.start = sample();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		Sample marked = ENDED.getAndSet(null);
		Sample end = (marked != null) ? marked : sample();
		Sample begin = this.start;
		long operations = result.getMetadata().getAllOps();
		if (begin == null || operations <= 0 || end.wall() <= begin.wall()) {
			return List.of();
		}
		long wall = end.wall() - begin.wall();
		String n = benchmarkParams.getParam("n");
		double commands = (double) operations * ((n != null) ? Integer.parseInt(n) : 1);
		CpuClock.Spent spent = CLOCK.spent(begin.cpu(), end.cpu());
		List<Result> results = new ArrayList<>();
		results.add(result(CALLER, spent.caller() / commands, "ns/cmd"));
		results.add(result(LOOP, spent.loop() / commands, "ns/cmd"));
		results.add(result(OTHER, spent.other() / commands, "ns/cmd"));
		results.add(result(CLIENT, spent.process() / commands, "ns/cmd"));
		results.add(result(CLIENT_SHARE, 100.0 * spent.process() / wall, "%"));
		results.add(result(BATCHES, operations * 1e9 / wall, "ops/s"));
		double serverNanos = (end.serverSeconds() - begin.serverSeconds()) * 1e9;
		results.add(result(SERVER, serverNanos / commands, "ns/cmd"));
		results.add(result(SERVER_SHARE, 100.0 * serverNanos / wall, "%"));
		return results;
	}

	private static ScalarResult result(String label, double value, String unit) {
		return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
	}

	private static Sample sample() {
		double serverSeconds = serverSeconds();
		long wall = System.nanoTime();
		return new Sample(wall, CLOCK.read(), serverSeconds);
	}

	private static double serverSeconds() {
		return BenchmarkEnvironment.server().cpuSeconds();
	}

	/**
	 * The clocks at one moment.
	 *
	 * @param wall {@link System#nanoTime()}
	 * @param cpu the client's CPU time
	 * @param serverSeconds the server's CPU time
	 */
	private record Sample(long wall, CpuClock.Reading cpu, double serverSeconds) {

	}

}
