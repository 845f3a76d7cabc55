package dev.redisbatch.benchmarks;

import static dev.redisbatch.benchmarks.ReportFormat.per1000;
import static dev.redisbatch.benchmarks.ReportFormat.plain;
import static dev.redisbatch.benchmarks.ReportFormat.quote;

/**
 * {@code results.csv}: every number of a run, one row per benchmark, memory run,
 * connection count and {@code redis-benchmark} test. The columns after {@code note} are
 * those of the benchmarks measured with costs (the reply path): the confidence level of
 * {@code ms_error} and the interval, the forks and each fork's mean, the threads, the
 * percentiles per batch, the throughput, and the CPU and allocation per command.
 */
final class ResultsCsv {

	private static final String DETAIL_COLUMNS = "ci_level,ci_low_ms,ci_high_ms,forks,fork_means_ms,threads,p50_ms,p99_ms,"
			+ "batches_per_s,cpu_caller_ns_per_cmd,cpu_loop_ns_per_cmd,cpu_other_ns_per_cmd,cpu_client_ns_per_cmd,"
			+ "cpu_server_ns_per_cmd,server_cpu_pct,client_cpu_pct,alloc_bytes_per_cmd";

	private static final String NO_DETAIL = ",".repeat(DETAIL_COLUMNS.split(",").length);

	private ResultsCsv() {
	}

	static String csv(SuiteResults results) {
		StringBuilder csv = new StringBuilder();
		csv.append("kind,group,strategy,workload,n,commands,network,rtt_ms,ms_per_batch,ms_error,samples,"
				+ "commands_per_s,status,xmx_mb,peak_heap_mb,peak_live_mb,peak_omem_mb,"
				+ "new_connections_per_1000_batches,note," + DETAIL_COLUMNS + "\n");
		for (SuiteResults.Timing t : results.timings) {
			csv.append(String.join(",", "jmh", t.group(), t.strategy(), t.workload(), String.valueOf(t.n()),
					String.valueOf(t.commands()), t.network(), String.valueOf(t.rttMillis()), plain(t.msPerBatch()),
					plain(t.msError()), String.valueOf(t.samples()), plain(t.commandsPerSecond()), "OK", "", "", "", "",
					"", ""))
				.append(detail(t))
				.append('\n');
		}
		for (RedisBenchmarkTool.Result r : results.physical) {
			csv.append(String.join(",", "redis-benchmark", "physical", "redis-benchmark", r.test(), "", "", "direct",
					"0", "", "", "", plain(r.requestsPerSecond()), "OK", "", "", "", "", "", quote(r.command())))
				.append(NO_DETAIL)
				.append('\n');
		}
		for (SuiteResults.Memory m : results.memory) {
			csv.append(String.join(",", "memory", "memory", m.strategy(), "SET", String.valueOf(m.commands()),
					String.valueOf(m.recorded()), "direct", "0", plain(m.elapsedMillis()), "", "", "", m.status(),
					String.valueOf(m.heapMb()), plain(m.peakHeapMb()), plain(m.peakLiveMb()), plain(m.peakOmemMb()), "",
					quote(m.note())))
				.append(NO_DETAIL)
				.append('\n');
		}
		for (SuiteResults.Connections c : results.connections) {
			csv.append(String.join(",", "connections", "connections", c.strategy(), "SET",
					String.valueOf(c.batchSize()), String.valueOf(c.batchSize()), "direct", "0", "", "",
					String.valueOf(c.batches()), "", c.status(), "", "", "", "",
					"OK".equals(c.status()) ? plain(per1000(c)) : "", quote(c.note())))
				.append(NO_DETAIL)
				.append('\n');
		}
		for (SuiteResults.Missing m : results.missing) {
			csv.append(String.join(",", "jmh", m.group(), quote(m.benchmark()), "", "", "", "", "", "", "", "", "",
					"FAILED", "", "", "", "", "", quote(m.reason())))
				.append(NO_DETAIL)
				.append('\n');
		}
		return csv.toString();
	}

	private static String detail(SuiteResults.Timing t) {
		SuiteResults.Detail d = t.detail();
		if (d == null) {
			return "," + SuiteResults.Interval.CONFIDENCE_JMH + NO_DETAIL.substring(1);
		}
		SuiteResults.Cost c = d.cost();
		return "," + String.join(",", String.valueOf(SuiteResults.Interval.CONFIDENCE), plain(d.msPerBatch().lower()),
				plain(d.msPerBatch().upper()), String.valueOf(d.forks()),
				String.join(";", d.forkMeansMs().stream().map(ReportFormat::plain).toList()),
				String.valueOf(d.threads()), plain(d.p50Ms()), plain(d.p99Ms()), plain(d.batchesPerSecond().mean()),
				plain(c.callerNs()), plain(c.loopNs()), plain(c.otherNs()), plain(c.clientNs()), plain(c.serverNs()),
				plain(c.serverPercent()), plain(c.clientPercent()), plain(c.allocBytes()));
	}

}
