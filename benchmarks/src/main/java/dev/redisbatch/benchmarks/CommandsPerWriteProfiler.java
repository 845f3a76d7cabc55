package dev.redisbatch.benchmarks;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that gives the commands per write of auto-batching in each iteration
 * ({@value #COMMANDS_PER_WRITE}): the benchmark's auto-batching hears of every write
 * through a {@code WriteListener} that counts here. Nothing for a strategy without
 * auto-batching. As {@link CpuCostProfiler}, it reads the end of an iteration as the
 * benchmark marked it, before the trial's teardown closes the clients.
 *
 * @since 0.1.0
 */
public final class CommandsPerWriteProfiler implements InternalProfiler {

	static final String COMMANDS_PER_WRITE = "auto.commands/write";

	private static final LongAdder WRITES = new LongAdder();

	private static final LongAdder COMMANDS = new LongAdder();

	private static final AtomicReference<long @Nullable []> ENDED = new AtomicReference<>();

	private long[] start = new long[2];

	/**
	 * Created by JMH in the benchmark's JVM.
	 */
	public CommandsPerWriteProfiler() {
	}

	/**
	 * Count one write of auto-batching.
	 * @param commands the commands it carried
	 */
	static void written(int commands) {
		WRITES.increment();
		COMMANDS.add(commands);
	}

	/**
	 * Mark the end of an iteration, from the benchmark's iteration teardown.
	 */
	static void iterationEnded() {
		ENDED.set(read());
	}

	@Override
	public String getDescription() {
		return "Commands per write of auto-batching";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		ENDED.set(null);
		this.start = read();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long[] marked = ENDED.getAndSet(null);
		long[] end = (marked != null) ? marked : read();
		long writes = end[0] - this.start[0];
		long commands = end[1] - this.start[1];
		if (writes <= 0) {
			return List.of();
		}
		return List
			.of(new ScalarResult(COMMANDS_PER_WRITE, (double) commands / writes, "cmd/write", AggregationPolicy.AVG));
	}

	private static long[] read() {
		return new long[] { WRITES.sum(), COMMANDS.sum() };
	}

}
