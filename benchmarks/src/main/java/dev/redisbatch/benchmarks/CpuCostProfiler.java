package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

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
 * ({@link ServerCpu}) before and after each iteration, and divides by the commands the
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
 * The server is the suite's ({@link BenchmarkEnvironment#serverPort()}); on the cluster
 * network its CPU is not read. The latency proxy runs in the suite's main JVM, so its CPU
 * is in neither figure.
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

	private final CpuClock clock = new CpuClock();

	private @Nullable ServerCpu server;

	private CpuClock.@Nullable Reading start;

	private double serverStart = Double.NaN;

	private long wallStart;

	@Override
	public String getDescription() {
		return "CPU time per command of the client (calling threads, event loops, the rest) and of the Redis server";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.serverStart = serverSeconds(benchmarkParams);
		this.wallStart = System.nanoTime();
		this.start = this.clock.read();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		CpuClock.Reading end = this.clock.read();
		long wall = System.nanoTime() - this.wallStart;
		double serverEnd = serverSeconds(benchmarkParams);
		long operations = result.getMetadata().getAllOps();
		CpuClock.Reading begin = this.start;
		if (begin == null || operations <= 0 || wall <= 0) {
			return List.of();
		}
		double commands = (double) operations * commandsPerOperation(benchmarkParams);
		CpuClock.Spent spent = this.clock.spent(begin, end);
		List<Result> results = new ArrayList<>();
		results.add(result(CALLER, spent.caller() / commands, "ns/cmd"));
		results.add(result(LOOP, spent.loop() / commands, "ns/cmd"));
		results.add(result(OTHER, spent.other() / commands, "ns/cmd"));
		results.add(result(CLIENT, spent.process() / commands, "ns/cmd"));
		results.add(result(CLIENT_SHARE, 100.0 * spent.process() / wall, "%"));
		results.add(result(BATCHES, operations * 1e9 / wall, "ops/s"));
		if (!Double.isNaN(this.serverStart) && !Double.isNaN(serverEnd)) {
			double serverNanos = (serverEnd - this.serverStart) * 1e9;
			results.add(result(SERVER, serverNanos / commands, "ns/cmd"));
			results.add(result(SERVER_SHARE, 100.0 * serverNanos / wall, "%"));
		}
		return results;
	}

	private static ScalarResult result(String label, double value, String unit) {
		return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
	}

	private double serverSeconds(BenchmarkParams params) {
		if (BenchmarkEnvironment.CLUSTER_NETWORK.equals(params.getParam("network"))) {
			return Double.NaN;
		}
		if (this.server == null) {
			this.server = new ServerCpu(BenchmarkEnvironment.serverPort());
		}
		return this.server.seconds();
	}

	/**
	 * The commands of one operation of a benchmark: its {@code n}, or fewer for the loop
	 * with one command per round trip ({@link Strategies#commands(String, int, int)}).
	 */
	static int commandsPerOperation(BenchmarkParams params) {
		String n = params.getParam("n");
		if (n == null) {
			return 1;
		}
		String network = params.getParam("network");
		int rtt = (network != null) ? BenchmarkEnvironment.rttMillis(network) : 0;
		String strategy = params.getParam("strategy");
		return (strategy != null) ? Strategies.commands(strategy, Integer.parseInt(n), rtt) : Integer.parseInt(n);
	}

}
