package dev.redisbatch.benchmarks;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report turns results into Markdown, CSV and well-formed SVG, and checks the targets
 * from the numbers of the run. The numbers here are made up for the test.
 */
class ReportTests {

	@TempDir
	Path dir;

	@Test
	void writesTablesCsvAndPlotsAndJudgesTheTargets() throws Exception {
		SuitePlan plan = SuitePlan.of("standard");
		SuiteResults results = new SuiteResults();
		results.environment.put("date", "2026-01-01 00:00 UTC");
		timing(results, "peers", Strategies.BATCH_TEMPLATE, "SET", 100_000, "direct", 100);
		timing(results, "peers", Strategies.BATCH_TEMPLATE_TWO_CHUNKS, "SET", 100_000, "direct", 125);
		timing(results, "peers", Strategies.JEDIS, "SET", 100_000, "direct", 110);
		timing(results, "peers", Strategies.PIPELINED_BOOT, "SET", 100_000, "direct", 400);
		timing(results, "peers", Strategies.ROUND_TRIP, "SET", 100_000, "direct", 900);
		timing(results, "peers", Strategies.REDIS_BATCH_METHOD, "SET", 100_000, "direct", 150);
		timing(results, "peers", Strategies.BATCH_TEMPLATE, "GET", 100_000, "direct", 100);
		timing(results, "peers", Strategies.JEDIS, "GET", 100_000, "direct", 50);
		timing(results, "sizes", Strategies.BATCH_TEMPLATE, "SET", 10_000, "direct", 10);
		timing(results, "sizes", Strategies.JEDIS, "SET", 10_000, "direct", 10);
		timing(results, "rtt", Strategies.BATCH_TEMPLATE, "SET", 10_000, "rtt10", 30);
		timing(results, "rtt", Strategies.JEDIS, "SET", 10_000, "rtt10", 40);
		timing(results, "rtt", Strategies.BATCH_TEMPLATE, "SET", 100_000, "rtt10", 200);
		timing(results, "rtt", Strategies.JEDIS, "SET", 100_000, "rtt10", 100);
		timing(results, "rtt", Strategies.BATCH_TEMPLATE_TWO_CHUNKS, "SET", 100_000, "rtt10", 510);
		timing(results, "rtt", Strategies.windowId(1 << 20), "SET", 100_000, "rtt10", 140);
		timing(results, "rtt", Strategies.ROUND_TRIP, "SET", 100_000, "rtt10", 1100);
		timing(results, "sweep", Strategies.sweepId(1000, 1 << 20), "SET", 100_000, "direct", 90);
		timing(results, "sweep", Strategies.sweepId(10_000, 1 << 20), "SET", 100_000, "direct", 130);
		timing(results, "sweep", Strategies.sweepId(1000, 16 << 20), "SET", 100_000, "direct", 100);
		results.physical.add(new RedisBenchmarkTool.Result("SET EX 3600", 1_000_000, "redis-benchmark ..."));
		results.memory.add(new SuiteResults.Memory(Strategies.BATCH_TEMPLATE, 128, "OK", 10_000_000, 10_000_000, 20_000,
				60, 30, 1.5, "all ran"));
		results.memory.add(new SuiteResults.Memory(Strategies.JEDIS, 128, "OOM", 10_000_000, 2_000_000, 0, 127, 120, 15,
				"OutOfMemoryError: the JVM exited"));
		results.connections.add(new SuiteResults.Connections(Strategies.BATCH_TEMPLATE, "OK", 1000, 100, 0, ""));
		results.missing.add(new SuiteResults.Missing("peers", "redissonBatch SET n=100000 direct", "failed"));

		Report.write(results, plan, this.dir);

		String md = Files.readString(this.dir.resolve("results.md"));
		assertThat(md)
			.contains("| BatchTemplate (defaults) SET 100,000 ÷ fastest Java peer (Jedis Pipeline) | 1.10× | ≥ 1.00× "
					+ "| met |")
			.contains("| BatchTemplate (defaults) GET 100,000 ÷ fastest Java peer (Jedis Pipeline) | 0.50× | ≥ 1.00× "
					+ "| **missed** |")
			.contains("÷ executePipelined, Boot defaults (pooled) | 4.00× | ≥ 2.50× | met |")
			.contains("SET EX 3600 | 1.00× | ≥ 0.60× | met |")
			.contains("| no regression on loopback: BatchTemplate (defaults) ÷ Jedis Pipeline, SET 100,000 (before the "
					+ "window: 0.84×) | 1.10×; two chunks in flight, same run: 0.88× | ≥ 0.84× | met |")
			.contains("| BatchTemplate (defaults) ÷ Jedis Pipeline, SET 10,000, RTT 0 ms (loopback) | 1.00× | ≥ 1.00× "
					+ "| met |")
			.contains("| BatchTemplate (defaults) ÷ Jedis Pipeline, SET 10,000, RTT 10 ms | 1.33× | ≥ 1.00× | met |")
			.contains("| BatchTemplate (defaults) ÷ Jedis Pipeline, SET 100,000, RTT 10 ms | 0.50× | ≥ 1.00× "
					+ "| **missed** |")
			.contains("| BatchTemplate (defaults) ÷ Jedis Pipeline, GET 10,000, RTT 5 ms | not measured |")
			.contains("| @RedisBatch method ÷ BatchTemplate (defaults), SET 100,000, loopback | 0.67× | ≥ 0.90× "
					+ "| **missed** |")
			.contains("| BatchTemplate (defaults): one batch of 10,000,000 SET in `-Xmx128m` | completes in 20.0 s; "
					+ "peak heap 60 MB, live 30 MB, server omem 2 MB | completes | met |")
			.contains("| Jedis Pipeline | 128 MB | **no** (OOM) |")
			.contains("| two chunks (before the window) | 2,000 | ")
			.contains("| window 1 MB | 8,000 | ")
			.contains("| defaults (4 MB, 100,000 commands) | 32,000 | ")
			.contains("| 10,000 | 769,231 (130 ± 13.0) ¹ |")
			.contains("N=100")
			.contains("redissonBatch SET n=100000 direct");
		assertThat(Files.readString(this.dir.resolve("results.csv")))
			.startsWith("kind,group,strategy,workload,n,commands")
			.contains("jmh,peers,batchTemplate,SET,100000,100000,direct,0,100.000,")
			.contains("memory,memory,jedisPipeline,SET,10000000,2000000,direct,0,0.000,,,,OOM,128,127.000,");
		for (String svg : new String[] { Report.PER_STRATEGY_SVG, Report.RTT_SVG, Report.WINDOW_SVG,
				Report.SWEEP_SVG }) {
			byte[] bytes = Files.readAllBytes(this.dir.resolve(svg));
			assertThat(bytes.length).isLessThan(200 * 1024);
			DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
			assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("<svg");
		}
	}

	@Test
	void judgesTheReplyPathCellsWithTheirIntervalsAndTheServerBoundRule() throws Exception {
		SuitePlan plan = SuitePlan.of("reply-path");
		SuiteResults results = new SuiteResults();
		results.profile = plan.profile();
		results.environment.put("date", "2026-01-01 00:00 UTC");
		// SET 100 on loopback: 1.20× [1.05–1.39], less client CPU, event loop 20%
		// (reported below N = 1,000)
		detailed(results, Strategies.BATCH_TEMPLATE, "SET", 100, "direct", time(0.10, 0.09, 0.11),
				cost(3000, 1000, 1000, 5000, 800, 60));
		detailed(results, Strategies.JEDIS, "SET", 100, "direct", time(0.12, 0.115, 0.125),
				cost(5500, 0, 500, 6000, 900, 70));
		// GET 1,000 on loopback: 0.90× and server-bound, but its interval stays below
		// 1.00×; more client CPU,
		// event loop 10%
		detailed(results, Strategies.BATCH_TEMPLATE, "GET", 1_000, "direct", time(1.0, 0.98, 1.02),
				cost(1500, 300, 1200, 3000, 700, 50));
		detailed(results, Strategies.JEDIS, "GET", 1_000, "direct", time(0.9, 0.88, 0.92),
				cost(2000, 0, 500, 2500, 900, 95));
		// GET 10,000 at 1 ms: 0.98× [0.90–1.07], server-bound, so parity within the
		// interval passes; loop 3%
		detailed(results, Strategies.BATCH_TEMPLATE, "GET", 10_000, "rtt1", time(10, 9.5, 10.5),
				cost(1000, 30, 970, 1000, 700, 88));
		detailed(results, Strategies.JEDIS, "GET", 10_000, "rtt1", time(9.8, 9.4, 10.2),
				cost(1500, 0, 500, 2000, 900, 92));
		// the concurrent scenario: 1.11× [1.04–1.18] the Jedis pool's throughput, p99 12
		// ms against 15 ms
		concurrent(results, ConcurrentReaders.BATCH_TEMPLATE, new SuiteResults.Interval(5000, 4800, 5200, 6), 12);
		concurrent(results, ConcurrentReaders.JEDIS, new SuiteResults.Interval(4500, 4400, 4600, 6), 15);
		results.memory.add(new SuiteResults.Memory(Strategies.BATCH_TEMPLATE, 128, "OK", 10_000_000, 10_000_000, 20_000,
				60, 30, 0, "all ran"));
		results.connections.add(new SuiteResults.Connections(Strategies.BATCH_TEMPLATE, "OK", 1000, 100, 0, ""));

		Report.write(results, plan, this.dir);

		String md = Files.readString(this.dir.resolve("results.md"));
		assertThat(md).doesNotContain("Smoke profile")
			.doesNotContain("fastest Java peer")
			.doesNotContain("## SET and GET, N = ")
			.doesNotContain("redis-benchmark -P 1000")
			.contains("| SET 100, RTT 0 ms (loopback) | 0.100 [0.090–0.110] | 0.120 [0.115–0.125] "
					+ "| 1.20× [1.05–1.39] | 70% | met |")
			.contains("| GET 1,000, RTT 0 ms (loopback) | 1.00 [0.98–1.02] | 0.900 [0.880–0.920] | 0.90× [0.86–0.94] "
					+ "| 95% (server-bound) | **missed** |")
			.contains("| GET 10,000, RTT 1 ms | 10.0 [9.5–10.5] | 9.80 [9.40–10.20] | 0.98× [0.90–1.07] "
					+ "| 92% (server-bound) | met |")
			.contains("| SET 100, RTT 10 ms | — | — | | | not measured |")
			.contains("| SET 100, RTT 0 ms (loopback) | 3,000 | 1,000 | 1,000 | **5,000** | 5,500 | 0 | 500 "
					+ "| **6,000** | 0.83× | met | 20% | reported |")
			.contains("| GET 1,000, RTT 0 ms (loopback) | 1,500 | 300 | 1,200 | **3,000** | 2,000 | 0 | 500 "
					+ "| **2,500** | 1.20× | **missed** | 10% | **missed** |")
			.contains("| GET 10,000, RTT 1 ms | 1,000 | 30 | 970 | **1,000** | 1,500 | 0 | 500 | **2,000** | 0.50× "
					+ "| met | 3% | met |")
			.contains("| SET 100, RTT 0 ms (loopback) | 800 | 900 | 60% | 70% |")
			.contains("| SET 100, RTT 0 ms (loopback) | 50.0 | 150 | 60.0 | 180 | 1.20× | 1.20× |")
			.contains("| BatchTemplate, pool of 32, getAll | 5,000 [4,800–5,200] | 500,000 | 5.00 | 12.0 |")
			.contains("| throughput ≥ the Jedis pool's | 1.11× [1.04–1.18] | met |")
			.contains("| p99 ≤ the Jedis pool's p99 | 12.0 ms against 15.0 ms | met |")
			.contains(
					"| BatchTemplate (defaults) ≥ 1.00× Jedis Pipeline in every reply-path cell, the lower end of the "
							+ "interval ≥ 0.95× (server-bound cells: parity within the interval) | met in 2 of 3 cells; "
							+ "2 server-bound; 33 not measured; missed: GET 1,000 RTT 0 0.90× [0.86–0.94], server-bound "
							+ "| every cell | **missed** |")
			.contains("| BatchTemplate's client CPU per command below Jedis's in every reply-path cell | met in 2 of 3 "
					+ "cells; 33 not measured; missed: GET 1,000 RTT 0 1.20× | every cell | **missed** |")
			.contains(
					"| BatchTemplate's event loops < 5% of its client CPU, plaintext, N ≥ 1,000 | met in 1 of 2 cells; "
							+ "22 not measured; missed: GET 1,000 RTT 0 10% | every cell | **missed** |")
			.contains("| BatchTemplate's event loops, share of its client CPU, N < 1,000 (reported) | 20% to 20% "
					+ "| reported | reported |")
			.contains("under TLS (reported) | not measured: the suite runs no TLS server")
			.contains("| BatchTemplate throughput ÷ the Jedis pool's, concurrent scenario (32 threads × batches of 100 "
					+ "GETs, 32 connections each) | 1.11× [1.04–1.18] | ≥ 1.00× | met |")
			.contains("| BatchTemplate (defaults): one batch of 10,000,000 SET in `-Xmx128m` | completes in 20.0 s")
			.contains("| BatchTemplate, defaults: new connections per 1,000 batches | 0 | 0 | met |")
			.contains("| `lettuceSharedMget` | MGET on Lettuce's shared connection |");
		assertThat(Files.exists(this.dir.resolve(Report.PER_STRATEGY_SVG))).isFalse();
		assertThat(Files.readString(this.dir.resolve("results.csv")))
			.contains("note,ci_level,ci_low_ms,ci_high_ms,forks,fork_means_ms,threads,p50_ms,p99_ms,batches_per_s,"
					+ "cpu_caller_ns_per_cmd,cpu_loop_ns_per_cmd,cpu_other_ns_per_cmd,cpu_client_ns_per_cmd,"
					+ "cpu_server_ns_per_cmd,server_cpu_pct,client_cpu_pct,alloc_bytes_per_cmd\n")
			.contains("jmh,reply-path,batchTemplate,SET,100,100,direct,0,0.100,0.010,15,1000000.000,OK,,,,,,,"
					+ "0.95,0.090,0.110,3,0.095;0.100;0.105,1,0.050,0.150,9000.000,3000.000,1000.000,1000.000,"
					+ "5000.000,800.000,60.000,100.000,300.000\n")
			.contains("jmh,concurrent,batchTemplatePool32,GET,100,100,direct,0,");
	}

	@Test
	void anIntervalStartsAtZeroAndARatioOverZeroHasNoUpperEnd() {
		SuiteResults.Interval wide = SuiteResults.Interval.of(List.of(1.0, 9.0, 2.0));
		assertThat(wide.mean()).isEqualTo(4.0);
		assertThat(wide.lower()).isZero();
		assertThat(wide.upper()).isGreaterThan(9.0);
		SuiteResults.Interval narrow = SuiteResults.Interval.of(List.of(4.0, 4.2, 3.8));
		assertThat(narrow.lower()).isGreaterThan(3.0).isLessThan(4.0);
		SuiteResults.Interval ratio = ReplyPathCells.ratioOfTimes(wide, narrow);
		assertThat(ratio.lower()).isEqualTo(narrow.lower() / wide.upper());
		assertThat(ratio.upper()).isInfinite();
		assertThat(ReplyPathReport.ratioCell(ratio))
			.isEqualTo("1.00× [" + String.format(java.util.Locale.ROOT, "%.2f", ratio.lower()) + "–∞]");
		assertThat(SuiteResults.Interval.of(List.of(1.0, 2.0)).lower()).isNaN();
	}

	private static SuiteResults.Interval time(double mean, double lower, double upper) {
		return new SuiteResults.Interval(mean, lower, upper, 15);
	}

	private static SuiteResults.Cost cost(double caller, double loop, double other, double client, double server,
			double serverPercent) {
		return new SuiteResults.Cost(caller, loop, other, client, server, serverPercent, 100, 300);
	}

	private static void detailed(SuiteResults results, String strategy, String workload, int n, String network,
			SuiteResults.Interval time, SuiteResults.Cost cost) {
		int rtt = BenchmarkEnvironment.rttMillis(network);
		SuiteResults.Detail detail = new SuiteResults.Detail(1, 3, time,
				List.of(time.mean() * 0.95, time.mean(), time.mean() * 1.05), time.mean() / 2, time.mean() * 1.5,
				new SuiteResults.Interval(9000, 8000, 10_000, 15), cost);
		results.timings.add(new SuiteResults.Timing((n < 100) ? "reply-path-small" : "reply-path", strategy, workload,
				n, n, network, rtt, time.mean(), time.halfWidth(), time.samples(), detail));
	}

	private static void concurrent(SuiteResults results, String strategy, SuiteResults.Interval batchesPerSecond,
			double p99) {
		SuiteResults.Interval time = new SuiteResults.Interval(6, 5.5, 6.5, 6);
		SuiteResults.Detail detail = new SuiteResults.Detail(32, 3, time, List.of(6.0, 6.0, 6.0), 5, p99,
				batchesPerSecond, new SuiteResults.Cost(10_000, 2_000, 1_000, 13_000, 900, 99, 190, 400));
		results.timings.add(new SuiteResults.Timing("concurrent", strategy, "GET", 100, 100, "direct", 0, time.mean(),
				time.halfWidth(), time.samples(), detail));
	}

	private static void timing(SuiteResults results, String group, String strategy, String workload, int n,
			String network, double ms) {
		int rtt = BenchmarkEnvironment.rttMillis(network);
		results.timings.add(new SuiteResults.Timing(group, strategy, workload, n, Strategies.commands(strategy, n, rtt),
				network, rtt, ms, ms / 10, 3));
	}

}
