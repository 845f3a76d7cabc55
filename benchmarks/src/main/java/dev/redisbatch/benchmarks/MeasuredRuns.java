package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * Turns the result of one JMH benchmark into the suite's {@link SuiteResults.Timing}: the
 * JMH score, or, for a group measured with costs, the interval over every iteration of
 * every fork, the percentiles per batch, the throughput and the costs per command.
 */
final class MeasuredRuns {

	/**
	 * The label of JMH's {@code gc} profiler for the bytes allocated per operation.
	 */
	static final String ALLOCATION = "gc.alloc.rate.norm";

	private MeasuredRuns() {
	}

	static SuiteResults.Timing timing(SuitePlan.Group group, SuitePlan.Cell cell, RunResult run) {
		int rtt = BenchmarkEnvironment.rttMillis(cell.network());
		int commands = Strategies.commands(cell.strategy(), cell.n(), rtt);
		Result<?> primary = run.getPrimaryResult();
		if (!group.measure().costs()) {
			return new SuiteResults.Timing(group.name(), cell.strategy(), cell.workload(), cell.n(), commands,
					cell.network(), rtt, primary.getScore(), primary.getScoreError(), primary.getStatistics().getN());
		}
		SuiteResults.Detail detail = detail(run, group.measure(), commands);
		SuiteResults.Interval time = detail.msPerBatch();
		return new SuiteResults.Timing(group.name(), cell.strategy(), cell.workload(), cell.n(), commands,
				cell.network(), rtt, time.mean(), time.halfWidth(), time.samples(), detail);
	}

	/**
	 * The detail of a benchmark measured with costs.
	 * @param run the JMH result, every fork
	 * @param measure how it was measured
	 * @param commands the commands of one batch
	 * @return the detail
	 */
	static SuiteResults.Detail detail(RunResult run, SuitePlan.Measure measure, int commands) {
		List<Double> iterationMs = new ArrayList<>();
		List<Double> forkMeansMs = new ArrayList<>();
		List<Double> batchesPerSecond = new ArrayList<>();
		for (BenchmarkResult fork : run.getBenchmarkResults()) {
			forkMeansMs.add(fork.getPrimaryResult().getScore());
			for (IterationResult iteration : fork.getIterationResults()) {
				iterationMs.add(iteration.getPrimaryResult().getScore());
				Result<?> rate = iteration.getSecondaryResults().get(CpuCostProfiler.BATCHES);
				if (rate != null) {
					batchesPerSecond.add(rate.getScore());
				}
			}
		}
		double p50 = Double.NaN;
		double p99 = Double.NaN;
		double p999 = Double.NaN;
		if (measure.mode() == Mode.SampleTime) {
			p50 = run.getPrimaryResult().getStatistics().getPercentile(50);
			p99 = run.getPrimaryResult().getStatistics().getPercentile(99);
			p999 = run.getPrimaryResult().getStatistics().getPercentile(99.9);
		}
		Map<String, Result> secondary = run.getSecondaryResults();
		SuiteResults.Cost cost = new SuiteResults.Cost(score(secondary, CpuCostProfiler.CALLER),
				score(secondary, CpuCostProfiler.LOOP), score(secondary, CpuCostProfiler.OTHER),
				score(secondary, CpuCostProfiler.CLIENT), score(secondary, CpuCostProfiler.SERVER),
				score(secondary, CpuCostProfiler.SERVER_SHARE), score(secondary, CpuCostProfiler.CLIENT_SHARE),
				score(secondary, ALLOCATION) / commands);
		return new SuiteResults.Detail(measure.threads(), forkMeansMs.size(), SuiteResults.Interval.of(iterationMs),
				List.copyOf(forkMeansMs), p50, p99, SuiteResults.Interval.of(batchesPerSecond), cost, p999,
				score(secondary, CommandsPerWriteProfiler.COMMANDS_PER_WRITE));
	}

	private static double score(Map<String, Result> results, String label) {
		Result<?> result = results.get(label);
		return (result != null) ? result.getScore() : Double.NaN;
	}

}
