package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static dev.redisbatch.benchmarks.ReportFormat.count;
import static dev.redisbatch.benchmarks.ReportFormat.label;
import static dev.redisbatch.benchmarks.WindowVariants.rttStrategies;
import static dev.redisbatch.benchmarks.WindowVariants.sweepAxes;
import static dev.redisbatch.benchmarks.WindowVariants.windowLabel;

/**
 * The SVG plots of a run: commands per second by strategy, against the round trip, by
 * window, and the defaults sweep.
 */
final class ReportCharts {

	private final SuiteResults results;

	private final SuitePlan plan;

	ReportCharts(SuiteResults results, SuitePlan plan) {
		this.results = results;
		this.plan = plan;
	}

	String perStrategyChart() {
		int n = this.plan.headlineSize();
		List<String> categories = new ArrayList<>();
		List<Double> set = new ArrayList<>();
		List<Double> get = new ArrayList<>();
		for (Strategies.Descriptor d : Strategies.all()) {
			categories.add(d.label());
			set.add(timing(d.id(), "SET", n, "direct").map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
			get.add(timing(d.id(), "GET", n, "direct").map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
		}
		if (!this.results.physical.isEmpty()) {
			categories.add("redis-benchmark -P 1000 -c 1 (SET EX / GET)");
			set.add(this.results.physical("SET EX 3600")
				.map(RedisBenchmarkTool.Result::requestsPerSecond)
				.orElse(Double.NaN));
			get.add(this.results.physical("GET").map(RedisBenchmarkTool.Result::requestsPerSecond).orElse(Double.NaN));
		}
		return Charts.bars(
				"Commands per second, batches of " + count(n) + " on loopback (" + this.results.profile + " profile, "
						+ this.results.environment.getOrDefault("date", "") + ")",
				"commands per second", categories,
				List.of(new Charts.Series("SET with TTL", set), new Charts.Series("GET", get)));
	}

	String rttChart() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		List<String> panels = new ArrayList<>();
		if (group.isPresent()) {
			List<String> colors = new ArrayList<>();
			for (String workload : group.get().workloads()) {
				for (int n : group.get().sizes()) {
					rttStrategies(group.get(), workload, n, false).stream()
						.filter((id) -> !colors.contains(id))
						.forEach(colors::add);
				}
			}
			for (String workload : group.get().workloads()) {
				for (int n : group.get().sizes()) {
					panels.add(rttPanel(workload + ", batches of " + count(n), group.get().networks(), workload, n,
							rttStrategies(group.get(), workload, n, false), List.of(), colors, false));
				}
			}
		}
		if (panels.isEmpty()) {
			panels.add(rttPanel("not measured", List.of("direct"), "SET", 0, List.of(), List.of(), List.of(), false));
		}
		return Charts.panels("Commands per second against the added round trip (log scale)", panels);
	}

	String windowChart() {
		Optional<SuitePlan.Group> group = this.plan.group("rtt");
		int n = this.plan.headlineSize();
		List<String> panels = new ArrayList<>();
		if (group.isPresent()) {
			List<String> colors = new ArrayList<>();
			for (String workload : group.get().workloads()) {
				rttStrategies(group.get(), workload, n, true).stream()
					.filter((id) -> !colors.contains(id))
					.forEach(colors::add);
			}
			colors.add(Strategies.JEDIS);
			for (String workload : group.get().workloads()) {
				panels.add(rttPanel("BatchTemplate " + workload + ", batches of " + count(n) + ", by window",
						group.get().networks(), workload, n, rttStrategies(group.get(), workload, n, true),
						List.of(Strategies.JEDIS), colors, true));
			}
		}
		if (panels.isEmpty()) {
			panels.add(rttPanel("not measured", List.of("direct"), "SET", 0, List.of(), List.of(), List.of(), false));
		}
		return Charts.panels("The in-flight window at a distance (log scale)", panels);
	}

	/**
	 * One panel of commands/s against the round trip.
	 * @param colors the ids in colour order, so that a strategy has the same colour in
	 * every panel
	 * @param byWindow whether to name the lines by their window
	 */
	private String rttPanel(String title, List<String> networks, String workload, int n, List<String> ids,
			List<String> references, List<String> colors, boolean byWindow) {
		List<Charts.Series> series = new ArrayList<>();
		for (String id : ids) {
			series.add(new Charts.Series(byWindow ? windowLabel(id) : label(id), rates(id, workload, n, networks),
					false, colors.indexOf(id)));
		}
		for (String id : references) {
			series.add(new Charts.Series(label(id), rates(id, workload, n, networks), true, colors.indexOf(id)));
		}
		return Charts.lines(title, "added round trip (ms; 0 = loopback, no proxy)", "commands per second (log)",
				networks.stream().map((network) -> String.valueOf(BenchmarkEnvironment.rttMillis(network))).toList(),
				series, true);
	}

	private List<Double> rates(String id, String workload, int n, List<String> networks) {
		List<Double> values = new ArrayList<>();
		for (String network : networks) {
			values.add(timing(id, workload, n, network).map(SuiteResults.Timing::commandsPerSecond).orElse(Double.NaN));
		}
		return values;
	}

	String sweepChart() {
		List<SuiteResults.Timing> rows = select((t) -> t.group().equals("sweep"));
		List<Integer> chunkSizes = new ArrayList<>();
		List<Long> windows = new ArrayList<>();
		sweepAxes(rows, chunkSizes, windows);
		List<Charts.Series> series = new ArrayList<>();
		for (long w : windows) {
			List<Double> values = new ArrayList<>();
			for (int c : chunkSizes) {
				values.add(rows.stream()
					.filter((r) -> r.strategy().equals(Strategies.sweepId(c, w)))
					.findFirst()
					.map(SuiteResults.Timing::commandsPerSecond)
					.orElse(Double.NaN));
			}
			series.add(new Charts.Series("BatchTemplate, window " + Strategies.size(w), values));
		}
		int n = rows.isEmpty() ? 0 : rows.get(0).n();
		for (String reference : List.of(Strategies.LETTUCE, Strategies.JEDIS)) {
			timing(reference, "SET", n, "direct").ifPresent((t) -> series.add(new Charts.Series(label(reference),
					chunkSizes.stream().map((c) -> t.commandsPerSecond()).toList(), true)));
		}
		return Charts.lines("BatchTemplate.setAll of " + count(n) + " keys with TTL: chunk size and byte window",
				"chunk size (commands)", "commands per second", chunkSizes.stream().map(String::valueOf).toList(),
				series, false);
	}

	private List<SuiteResults.Timing> select(Predicate<SuiteResults.Timing> filter) {
		return this.results.timings.stream().filter(filter).toList();
	}

	private Optional<SuiteResults.Timing> timing(String strategy, String workload, int n, String network) {
		return this.results.timing(strategy, workload, n, network);
	}

}
