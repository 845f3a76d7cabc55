package dev.redisbatch.benchmarks;

import static dev.redisbatch.benchmarks.ReportFormat.per1000;
import static dev.redisbatch.benchmarks.ReportFormat.plain;
import static dev.redisbatch.benchmarks.ReportFormat.quote;

/**
 * {@code results.csv}: every number of a run, one row per benchmark, memory run,
 * connection count and {@code redis-benchmark} test.
 */
final class ResultsCsv {

	private ResultsCsv() {
	}

	static String csv(SuiteResults results) {
		StringBuilder csv = new StringBuilder();
		csv.append("kind,group,strategy,workload,n,commands,network,rtt_ms,ms_per_batch,ms_error,samples,"
				+ "commands_per_s,status,xmx_mb,peak_heap_mb,peak_live_mb,peak_omem_mb,"
				+ "new_connections_per_1000_batches,note\n");
		for (SuiteResults.Timing t : results.timings) {
			csv.append(String.join(",", "jmh", t.group(), t.strategy(), t.workload(), String.valueOf(t.n()),
					String.valueOf(t.commands()), t.network(), String.valueOf(t.rttMillis()), plain(t.msPerBatch()),
					plain(t.msError()), String.valueOf(t.samples()), plain(t.commandsPerSecond()), "OK", "", "", "", "",
					"", ""))
				.append('\n');
		}
		for (RedisBenchmarkTool.Result r : results.physical) {
			csv.append(String.join(",", "redis-benchmark", "physical", "redis-benchmark", r.test(), "", "", "direct",
					"0", "", "", "", plain(r.requestsPerSecond()), "OK", "", "", "", "", "", quote(r.command())))
				.append('\n');
		}
		for (SuiteResults.Memory m : results.memory) {
			csv.append(String.join(",", "memory", "memory", m.strategy(), "SET", String.valueOf(m.commands()),
					String.valueOf(m.recorded()), "direct", "0", plain(m.elapsedMillis()), "", "", "", m.status(),
					String.valueOf(m.heapMb()), plain(m.peakHeapMb()), plain(m.peakLiveMb()), plain(m.peakOmemMb()), "",
					quote(m.note())))
				.append('\n');
		}
		for (SuiteResults.Connections c : results.connections) {
			csv.append(String.join(",", "connections", "connections", c.strategy(), "SET",
					String.valueOf(c.batchSize()), String.valueOf(c.batchSize()), "direct", "0", "", "",
					String.valueOf(c.batches()), "", c.status(), "", "", "", "",
					"OK".equals(c.status()) ? plain(per1000(c)) : "", quote(c.note())))
				.append('\n');
		}
		for (SuiteResults.Missing m : results.missing) {
			csv.append(String.join(",", "jmh", m.group(), quote(m.benchmark()), "", "", "", "", "", "", "", "", "",
					"FAILED", "", "", "", "", "", quote(m.reason())))
				.append('\n');
		}
		return csv.toString();
	}

}
