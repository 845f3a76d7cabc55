package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the benchmarks of one batch of {@code n} SETs or GETs share: their parameters,
 * their data (every client sends the same), the server's preparation and the check of
 * every batch's replies.
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
public abstract class BatchBenchmark {

	/**
	 * The seed of the workload's keys and values.
	 */
	static final long SEED = 20260601L;

	/**
	 * The strategy id (see {@code Strategies}).
	 */
	@Param({ Strategies.BATCH_TEMPLATE })
	public String strategy = Strategies.BATCH_TEMPLATE;

	/**
	 * {@code SET} (with the TTL) or {@code GET}.
	 */
	@Param({ "SET" })
	public String workload = "SET";

	/**
	 * The commands per batch.
	 */
	@Param({ "100" })
	public int n = 100;

	/**
	 * {@code direct}, or through the latency proxy: {@code rtt1}, {@code rtt5},
	 * {@code rtt10}.
	 */
	@Param({ BenchmarkEnvironment.DIRECT })
	public String network = BenchmarkEnvironment.DIRECT;

	/**
	 * The clients of the trial, closed at its end.
	 */
	final List<Strategy> clients = new ArrayList<>();

	private Workload data;

	private boolean get;

	/**
	 * Generate the data, empty the server and write the keys that GET reads, pre-warm
	 * each strategy on loopback when asked ({@link Prewarm}), then open its client.
	 * @param strategies the strategies of the trial
	 * @return their clients, in the same order
	 */
	List<Strategy> open(String... strategies) {
		if (!"GET".equals(this.workload) && !"SET".equals(this.workload)) {
			throw new IllegalArgumentException("GET or SET, not " + this.workload);
		}
		this.get = "GET".equals(this.workload);
		this.data = Workload.create(this.n, SEED);
		BenchmarkEnvironment.server().reset(this.get ? this.data : null);
		for (String id : strategies) {
			Prewarm.onLoopback(id, this::send, this.n);
		}
		for (String id : strategies) {
			this.clients.add(Strategies.create(id, BenchmarkEnvironment.endpoint(this.network)));
		}
		return this.clients;
	}

	/**
	 * Send one batch.
	 * @param client the client
	 * @return the number of commands answered as expected
	 */
	long send(Strategy client) {
		return this.get ? client.get(this.data) : client.set(this.data);
	}

	/**
	 * Fail unless every command of a batch answered as expected.
	 * @param client who sent it
	 * @param answered how many commands answered as expected
	 * @param n how many it sent
	 * @return {@code answered}
	 */
	static long checked(String client, long answered, int n) {
		if (answered != n) {
			throw new IllegalStateException(client + ": " + answered + " of " + n + " commands answered as expected");
		}
		return answered;
	}

	/**
	 * Mark the end of the iteration for {@link CpuCostProfiler}, before the trial's
	 * teardown closes the clients and their event loops.
	 */
	@TearDown(Level.Iteration)
	public void iterationEnded() {
		CpuCostProfiler.iterationEnded();
	}

	/**
	 * Close the trial's clients.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		this.clients.forEach(Strategy::close);
		this.clients.clear();
	}

}
