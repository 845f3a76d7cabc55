package dev.redisbatch.benchmarks;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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

	private static void timing(SuiteResults results, String group, String strategy, String workload, int n,
			String network, double ms) {
		int rtt = BenchmarkEnvironment.rttMillis(network);
		results.timings.add(new SuiteResults.Timing(group, strategy, workload, n, Strategies.commands(strategy, n, rtt),
				network, rtt, ms, ms / 10, 3));
	}

}
