package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static dev.redisbatch.benchmarks.ReportFormat.count;
import static dev.redisbatch.benchmarks.ReportFormat.rttLabel;

/**
 * The targets of the reply path (issue 22), judged per cell from one run: BatchTemplate
 * (defaults) against Jedis Pipeline in every cell of the reply-path groups, and the
 * concurrent scenario against the Jedis pool.
 * <ul>
 * <li>Speed: the ratio of the rates (Jedis's time per batch ÷ BatchTemplate's) at least
 * {@value #REQUIRED_RATIO}×, and the lower end of its interval at least
 * {@value #REQUIRED_LOWER}×. The ratio's interval comes from the two cells' intervals:
 * lower = Jedis's lower bound ÷ BatchTemplate's upper bound, upper = Jedis's upper ÷
 * BatchTemplate's lower.</li>
 * <li>A cell where Jedis keeps the server at {@value #SERVER_BOUND_PERCENT}% of a core or
 * more is server-bound: parity within the interval passes (its upper end at least
 * 1.0×).</li>
 * <li>Client CPU per command (the whole client process) below Jedis's.</li>
 * <li>The event loops under {@value #LOOP_SHARE_PERCENT}% of BatchTemplate's client CPU
 * in plaintext from N = {@value #LOOP_TARGET_FROM_N}; below that it is reported.</li>
 * </ul>
 */
final class ReplyPathCells {

	static final double REQUIRED_RATIO = 1.0;

	static final double REQUIRED_LOWER = 0.95;

	static final double SERVER_BOUND_PERCENT = 90;

	static final double LOOP_SHARE_PERCENT = 5;

	static final int LOOP_TARGET_FROM_N = 1_000;

	private ReplyPathCells() {
	}

	/**
	 * Every cell of the plan's single-thread reply-path groups, by round trip, workload
	 * and N.
	 * @param results the run
	 * @param plan the plan
	 * @return the cells, measured or not
	 */
	static List<Cell> cells(SuiteResults results, SuitePlan plan) {
		List<Cell> cells = new ArrayList<>();
		for (SuitePlan.Group group : plan.groups()) {
			if (!group.measure().costs() || group.measure().concurrent()) {
				continue;
			}
			for (SuitePlan.Cell cell : group.cells()) {
				if (!cell.strategy().equals(Strategies.BATCH_TEMPLATE)) {
					continue;
				}
				cells.add(new Cell(group.name(), cell.workload(), cell.n(), cell.network(),
						measured(results, Strategies.BATCH_TEMPLATE, cell), measured(results, Strategies.JEDIS, cell)));
			}
		}
		cells.sort(Comparator.comparingInt((Cell c) -> BenchmarkEnvironment.rttMillis(c.network()))
			.thenComparing((Cell c) -> !c.workload().equals("SET"))
			.thenComparingInt(Cell::n));
		return cells;
	}

	/**
	 * The concurrent scenario's result for a strategy.
	 * @param results the run
	 * @param strategy the strategy of the scenario
	 * @return its timing, if measured
	 */
	static Optional<SuiteResults.Timing> concurrent(SuiteResults results, String strategy) {
		return results.timings.stream()
			.filter((t) -> t.strategy().equals(strategy) && t.detail() != null && t.detail().threads() > 1)
			.findFirst();
	}

	private static Optional<SuiteResults.Timing> measured(SuiteResults results, String strategy, SuitePlan.Cell cell) {
		return results.timings.stream()
			.filter((t) -> t.detail() != null && t.strategy().equals(strategy) && t.workload().equals(cell.workload())
					&& t.n() == cell.n() && t.network().equals(cell.network()))
			.findFirst();
	}

	/**
	 * The ratio of two rates with its interval: {@code ours ÷ theirs}, from two intervals
	 * of the same quantity, higher being better.
	 * @param ours our interval
	 * @param theirs theirs
	 * @return the ratio: mean, lower, upper
	 */
	static SuiteResults.Interval ratioOfRates(SuiteResults.Interval ours, SuiteResults.Interval theirs) {
		return new SuiteResults.Interval(ours.mean() / theirs.mean(), ours.lower() / theirs.upper(),
				ours.upper() / theirs.lower(), Math.min(ours.samples(), theirs.samples()));
	}

	/**
	 * The ratio of the rates of two intervals of time: {@code theirs ÷ ours}.
	 * @param ours our time
	 * @param theirs their time
	 * @return the ratio of our rate to theirs: mean, lower, upper
	 */
	static SuiteResults.Interval ratioOfTimes(SuiteResults.Interval ours, SuiteResults.Interval theirs) {
		return new SuiteResults.Interval(theirs.mean() / ours.mean(), theirs.lower() / ours.upper(),
				theirs.upper() / ours.lower(), Math.min(ours.samples(), theirs.samples()));
	}

	/**
	 * One cell: BatchTemplate and Jedis with the same workload, N and round trip.
	 *
	 * @param group the group
	 * @param workload SET or GET
	 * @param n commands per batch
	 * @param network the network
	 * @param ours BatchTemplate's result
	 * @param jedis Jedis's result
	 */
	record Cell(String group, String workload, int n, String network, Optional<SuiteResults.Timing> ours,
			Optional<SuiteResults.Timing> jedis) {

		String name() {
			return this.workload + " " + count(this.n) + ", " + rttLabel(this.network);
		}

		String shortName() {
			return this.workload + " " + count(this.n) + " RTT " + BenchmarkEnvironment.rttMillis(this.network);
		}

		boolean measured() {
			return this.ours.isPresent() && this.jedis.isPresent();
		}

		SuiteResults.Detail oursDetail() {
			return this.ours.orElseThrow().detail();
		}

		SuiteResults.Detail jedisDetail() {
			return this.jedis.orElseThrow().detail();
		}

		/**
		 * BatchTemplate's rate ÷ Jedis's, with its interval.
		 * @return the ratio
		 */
		SuiteResults.Interval ratio() {
			return ratioOfTimes(oursDetail().msPerBatch(), jedisDetail().msPerBatch());
		}

		/**
		 * Whether Jedis kept the server at {@value #SERVER_BOUND_PERCENT}% of a core or
		 * more.
		 * @return whether the cell is server-bound
		 */
		boolean serverBound() {
			return jedisDetail().cost().serverPercent() >= SERVER_BOUND_PERCENT;
		}

		/**
		 * The speed target: at least 1.0× with the interval's lower end at least 0.95×;
		 * where server-bound, the interval reaches 1.0×.
		 * @return whether it is met
		 */
		boolean speedMet() {
			SuiteResults.Interval ratio = ratio();
			if (serverBound()) {
				return ratio.upper() >= REQUIRED_RATIO;
			}
			return ratio.mean() >= REQUIRED_RATIO && ratio.lower() >= REQUIRED_LOWER;
		}

		/**
		 * The client CPU target: BatchTemplate's client process spends less CPU per
		 * command than Jedis's.
		 * @return whether it is met
		 */
		boolean clientCpuMet() {
			return oursDetail().cost().clientNs() < jedisDetail().cost().clientNs();
		}

		/**
		 * Whether the event loop target applies (plaintext, N at least
		 * {@value #LOOP_TARGET_FROM_N}); below it the share is reported.
		 * @return whether it applies
		 */
		boolean loopTargetApplies() {
			return this.n >= LOOP_TARGET_FROM_N;
		}

		boolean loopMet() {
			return oursDetail().cost().loopShare() * 100 < LOOP_SHARE_PERCENT;
		}

	}

}
