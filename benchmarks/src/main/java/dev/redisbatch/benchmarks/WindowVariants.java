package dev.redisbatch.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.redisbatch.BatchTemplate;

import static dev.redisbatch.benchmarks.ReportFormat.count;

/**
 * The strategies of the rtt group as the report's tables and charts list them: the named
 * strategies, and the BatchTemplate variants of the window (the defaults, two chunks, the
 * byte windows and the sweep's chunk × window cells) with the commands each keeps in
 * flight.
 */
final class WindowVariants {

	private WindowVariants() {
	}

	/**
	 * The strategies of the rtt group with cells of this workload and size, in report
	 * order: the named strategies, then the window variants. BatchTemplate with its
	 * defaults is in both lists.
	 * @param windows whether to list the BatchTemplate window variants (the pre-window
	 * limit, the byte windows and the defaults, by commands in flight) instead of the
	 * strategies
	 */
	static List<String> rttStrategies(SuitePlan.Group group, String workload, int n, boolean windows) {
		List<String> inGroup = group.cells()
			.stream()
			.filter((cell) -> cell.workload().equals(workload) && cell.n() == n)
			.map(SuitePlan.Cell::strategy)
			.distinct()
			.toList();
		List<String> ids = new ArrayList<>();
		for (Strategies.Descriptor d : Strategies.all()) {
			if (inGroup.contains(d.id())) {
				ids.add(d.id());
			}
		}
		for (String id : inGroup) {
			if (!ids.contains(id)) {
				ids.add(id);
			}
		}
		if (!windows) {
			return ids.stream().filter((id) -> id.equals(Strategies.BATCH_TEMPLATE) || !isWindowVariant(id)).toList();
		}
		List<String> variants = new ArrayList<>(ids.stream().filter(WindowVariants::isWindowVariant).toList());
		variants.sort(Comparator.comparingLong((id) -> inFlight(id, workload, Integer.MAX_VALUE)));
		return variants;
	}

	static boolean isWindowVariant(String id) {
		return Strategies.windowBytes(id) > 0 || id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS)
				|| id.equals(Strategies.BATCH_TEMPLATE);
	}

	/**
	 * The most commands of one batch a BatchTemplate variant keeps in flight: the whole
	 * chunks that fit in its windows (at least one).
	 */
	static long inFlight(String id, String workload, int n) {
		int chunk = (Strategies.sweepChunkSize(id) > 0) ? Strategies.sweepChunkSize(id)
				: BatchTemplate.DEFAULT_CHUNK_SIZE;
		long bytes = (Strategies.windowBytes(id) > 0) ? Strategies.windowBytes(id)
				: BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES;
		long commands = (Strategies.windowBytes(id) > 0) ? Strategies.UNBOUNDED_COMMANDS
				: id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS) ? Strategies.TWO_CHUNKS
						: BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS;
		long chunkBytes = (long) chunk * Workload.requestBytes(workload);
		long chunks = Math.max(1, Math.min(bytes / chunkBytes, commands / chunk));
		return Math.min(n, chunks * chunk);
	}

	static String windowLabel(String id) {
		if (id.equals(Strategies.BATCH_TEMPLATE)) {
			return "defaults (" + Strategies.size(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_BYTES) + ", "
					+ count(BatchTemplate.DEFAULT_MAX_IN_FLIGHT_COMMANDS) + " commands)";
		}
		if (id.equals(Strategies.BATCH_TEMPLATE_TWO_CHUNKS)) {
			return "two chunks (before the window)";
		}
		return "window " + Strategies.size(Strategies.windowBytes(id));
	}

	static void sweepAxes(List<SuiteResults.Timing> rows, List<Integer> chunkSizes, List<Long> windows) {
		for (SuiteResults.Timing t : rows) {
			int chunk = Strategies.sweepChunkSize(t.strategy());
			long window = Strategies.windowBytes(t.strategy());
			if (chunk > 0 && !chunkSizes.contains(chunk)) {
				chunkSizes.add(chunk);
			}
			if (window > 0 && !windows.contains(window)) {
				windows.add(window);
			}
		}
		chunkSizes.sort(Integer::compare);
		windows.sort(Long::compare);
	}

	static List<Integer> sizesOf(SuitePlan.Group group, String strategy, String workload) {
		return group.cells()
			.stream()
			.filter((cell) -> cell.strategy().equals(strategy) && cell.workload().equals(workload))
			.map(SuitePlan.Cell::n)
			.distinct()
			.toList();
	}

}
