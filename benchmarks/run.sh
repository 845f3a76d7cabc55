#!/usr/bin/env bash
# Runs the whole benchmark suite against one fresh redis-server and writes
# benchmarks/target/results/{results.md,results.csv,ops-per-strategy.svg,ops-vs-rtt.svg,window-vs-rtt.svg,sweep.svg}.
# The standard profile (147 JMH benchmarks, 15 memory runs) takes about 28 minutes on two cores.
# Run it on a quiet machine.
#
# Usage (from anywhere):
#   benchmarks/run.sh                          # standard profile
#   benchmarks/run.sh --profile full           # two forks, longer iterations (about three times as long)
#   benchmarks/run.sh --profile smoke          # tiny: proves the chain works, measures nothing
#   benchmarks/run.sh --profile reply-path     # the reply-path cells of issue 22: 3 forks, CPU and allocation
#                                              # per command (docs/performance.md, "How the reply-path cells are measured")
#   benchmarks/run.sh --profile reply-path-smoke   # the same chain at tiny sizes
#   benchmarks/run.sh --profile reply-path-loopback   # only N = 1 to 1,000 on loopback, 3 forks: about 5 minutes,
#                                              # to compare two builds on one machine the same day
#   benchmarks/run.sh --profile reply-path-small   # N = 1, 10 on loopback and 100, 1,000 at RTT 0, 1, 10 ms,
#                                              # 3 forks, CPU per command: about 15 minutes
#   benchmarks/run.sh --profile reply-path-steady   # the same cells (BatchTemplate and Jedis) and the concurrent
#                                              # scenario, each trial pre-warmed on loopback (up to 20,000 batches or
#                                              # 10 s), then 8 s of warmup (20 s for 32 threads): about 40 minutes
#   benchmarks/run.sh --profile paired        # BatchTemplate and Jedis in pairs in one JVM (PairedBenchmark): N = 1, 10,
#                                              # 100, 1,000, GET and SET, 3 forks; --sizes 1,10 --networks direct,rtt1 pick
#                                              # the cells; writes target/results/paired.md: about 10 minutes on loopback;
#                                              # --floor adds a plain NIO socket with and without the check on borrow
#                                              # --concurrent measures only the concurrent scenario, in pairs
#                                              # (PairedConcurrentBenchmark: 32 threads alternating the two clients)
#   benchmarks/run.sh --profile auto-batching --jvm /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
#                                              # issue 23: 1-256 platform and 256/1,024 virtual threads (JDK 21+),
#                                              # one GET or SET at a time, 3 forks (docs/auto-batching.md)
#   benchmarks/run.sh --profile auto-batching-smoke   # the same chain at 1 and 16 threads, tiny iterations
#   benchmarks/run.sh --groups peers,physical  # only some groups: peers sweep mixed sizes sizes-1m rtt cluster spring-batch physical memory connections polite
#                                              # (reply-path profiles: reply-path reply-path-small concurrent memory connections)
#                                              # (auto-batching profiles: auto-batching-1 -16 -64 -256 -v256 -v1024)
#   benchmarks/run.sh --jvm /usr/lib/jvm/temurin-25-jdk-amd64/bin/java   # JDK of the benchmark JVMs
#   benchmarks/run.sh --prof gc                # add a JMH profiler (gc, stack, jfr, ...); with --profile paired too, and
#                                              # with options: --prof 'async:libPath=/path/libasyncProfiler.so;event=cpu'
#   benchmarks/run.sh --native-epoll           # Netty's epoll transport on the classpath (Lettuce picks it), as in a
#                                              # Spring WebFlux application on Linux
#   benchmarks/run.sh --publish                # also copy the report into docs/performance/ (reply-path: docs/performance/reply-path/,
#                                              # auto-batching: docs/performance/auto-batching/)
#
# It is the same as: ./mvnw -B -pl benchmarks -am -DskipTests -Pbenchmark verify -Dbenchmark.args="..."
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
args=()
profiles=benchmark
while [[ $# -gt 0 ]]; do
	case "$1" in
		--publish) args+=(--publish "$root/docs/performance") ;;
		--native-epoll) profiles=benchmark,native-epoll ;;
		*) args+=("$1") ;;
	esac
	shift
done
cd "$root"
exec ./mvnw -B -q -pl benchmarks -am -DskipTests "-P$profiles" verify "-Dbenchmark.args=${args[*]:-}"
