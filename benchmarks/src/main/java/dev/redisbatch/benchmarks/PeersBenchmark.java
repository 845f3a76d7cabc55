package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;

/**
 * One batch of {@code n} SETs or GETs sent by one strategy, timed per batch: the peers
 * side by side, by batch size and by round trip. The runner adds {@link CpuCostProfiler}
 * (client CPU per command) and {@link ConnectionsProfiler} (new connections per batch).
 * <p>
 * A Spring Batch item writer ({@link SpringBatchWriterStrategy}) writes its {@code n}
 * items per invocation the way a chunk-oriented step does, a chunk per
 * {@code write(Chunk)}: with {@code n} the chunk size, one chunk per invocation.
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class PeersBenchmark extends BatchBenchmark {

	private Strategy subject;

	/**
	 * Prepare the server and open the strategy's client.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		this.subject = open(this.strategy).get(0);
	}

	/**
	 * Send one batch and check its replies.
	 * @return the number of commands answered as expected
	 */
	@Benchmark
	public long batch() {
		return checked(this.strategy, send(this.subject), this.n);
	}

	/**
	 * The numbers of a cell: time per batch, commands per second, client CPU per command
	 * and new connections per 1,000 batches.
	 * @param cell the cell
	 * @param run its result
	 * @return the rows
	 */
	static List<Row> rows(Cell cell, RunResult run) {
		List<Double> millis = Row.samples(run, null);
		return List.of(Row.of(Suite.PEERS, cell, Metric.MS_PER_BATCH, millis),
				Row.of(Suite.PEERS, cell, Metric.COMMANDS_PER_S,
						millis.stream().map((ms) -> cell.n() * 1000 / ms).toList()),
				Row.of(Suite.PEERS, cell, Metric.CPU_NS_PER_COMMAND, Row.samples(run, CpuCostProfiler.CLIENT)),
				Row.of(Suite.PEERS, cell, Metric.CONNECTIONS_PER_1000,
						Row.samples(run, ConnectionsProfiler.PER_1000_BATCHES)));
	}

	/**
	 * The numbers of a Spring Batch writer's cell, whose {@code n} items (one {@code SET}
	 * each) are written in chunks of up to {@value SpringBatchWriterStrategy#CHUNK}: time
	 * per chunk, items per second, and the client's and the server's CPU per item.
	 * @param cell the cell
	 * @param run its result
	 * @return the rows
	 */
	static List<Row> writerRows(Cell cell, RunResult run) {
		int chunks = (cell.n() + SpringBatchWriterStrategy.CHUNK - 1) / SpringBatchWriterStrategy.CHUNK;
		List<Double> millis = Row.samples(run, null);
		return List.of(
				Row.of(Suite.SPRING_BATCH, cell, Metric.MS_PER_CHUNK,
						millis.stream().map((ms) -> ms / chunks).toList()),
				Row.of(Suite.SPRING_BATCH, cell, Metric.ITEMS_PER_S,
						millis.stream().map((ms) -> cell.n() * 1000 / ms).toList()),
				Row.of(Suite.SPRING_BATCH, cell, Metric.CPU_NS_PER_COMMAND, Row.samples(run, CpuCostProfiler.CLIENT)),
				Row.of(Suite.SPRING_BATCH, cell, Metric.SERVER_CPU_NS_PER_COMMAND,
						Row.samples(run, CpuCostProfiler.SERVER)));
	}

}
