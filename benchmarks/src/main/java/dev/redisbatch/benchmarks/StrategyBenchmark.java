package dev.redisbatch.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One batch of {@code n} commands (a workload) sent by one strategy, timed per batch.
 * <p>
 * The suite's {@link Main} chooses the parameter combinations, passes the server's port
 * (and the proxies') to the forked JVMs, and turns the time per batch into commands per
 * second. Each trial flushes the server, then loads the keys that GET and the mixed batch
 * read, and, when the profile asks for it, sends batches on loopback first
 * ({@link Prewarm}). Every batch checks its replies and fails the benchmark if any is
 * missing, so nothing is measured that did not happen.
 *
 * @since 0.1.0
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class StrategyBenchmark {

	/**
	 * The seed of the workload's keys and values: every strategy sends the same data.
	 */
	static final long SEED = 20260601L;

	/**
	 * The strategy id (see {@code Strategies}).
	 */
	@Param({ Strategies.BATCH_TEMPLATE })
	public String strategy = Strategies.BATCH_TEMPLATE;

	/**
	 * {@code SET} (with the TTL), {@code GET} or {@code MIXED}.
	 */
	@Param({ "SET" })
	public String workload = "SET";

	/**
	 * The number of commands per batch.
	 */
	@Param({ "100000" })
	public int n = 100_000;

	/**
	 * {@code direct}, or through the latency-adding proxy: {@code rtt0}, {@code rtt1},
	 * {@code rtt5}, {@code rtt10}; or {@code cluster}, the local Redis Cluster.
	 */
	@Param({ "direct" })
	public String network = "direct";

	private Strategy subject;

	private Workload data;

	private Kind kind;

	private long expected;

	/**
	 * Create the strategy (its clients and pools, once per trial), generate the data and
	 * prepare the server.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		Endpoint endpoint = BenchmarkEnvironment.endpoint(this.network);
		this.kind = Kind.valueOf(this.workload);
		int commands = Strategies.commands(this.strategy, this.n, endpoint.rttMillis());
		this.data = Workload.create(commands, SEED);
		this.expected = (this.kind == Kind.MIXED) ? this.data.mixedCommands() : this.data.size();
		if (BenchmarkEnvironment.CLUSTER_NETWORK.equals(this.network)) {
			// the cluster's keys are loaded by the strategy itself, through every master
			this.subject = Strategies.create(this.strategy, endpoint);
			if (this.kind != Kind.SET && this.subject.set(this.data) != this.data.size()) {
				throw new IllegalStateException(this.strategy + ": could not load the keys");
			}
			return;
		}
		try (ServerControl server = new ServerControl(BenchmarkEnvironment.serverPort())) {
			server.flushAll();
			if (this.kind != Kind.SET) {
				server.load(this.data);
			}
		}
		Prewarm.onLoopback(this.strategy, this::send, this.expected);
		this.subject = Strategies.create(this.strategy, endpoint);
	}

	/**
	 * Send one batch and check its replies.
	 * @return the number of commands answered as expected
	 */
	@Benchmark
	public long batch() {
		long answered = send(this.subject);
		if (answered != this.expected) {
			throw new IllegalStateException(this.strategy + " " + this.workload + ": " + answered + " of "
					+ this.expected + " commands answered as expected");
		}
		return answered;
	}

	private long send(Strategy strategy) {
		return switch (this.kind) {
			case SET -> strategy.set(this.data);
			case GET -> strategy.get(this.data);
			case MIXED -> strategy.mixed(this.data);
		};
	}

	/**
	 * Mark the end of the iteration for {@link CpuCostProfiler}, before the trial's
	 * teardown closes the clients and their event loops.
	 */
	@TearDown(Level.Iteration)
	public void iterationEnded() {
		CpuCostProfiler.iterationEnded(this.network);
	}

	/**
	 * Close the strategy's clients.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.subject != null) {
			this.subject.close();
		}
	}

	/**
	 * The workloads.
	 */
	enum Kind {

		SET, GET, MIXED

	}

}
