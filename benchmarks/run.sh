#!/usr/bin/env bash
# Runs one profile of the benchmarks against a fresh redis-server (and the latency proxies it needs) and writes
# benchmarks/target/results/PROFILE.csv (every number), PROFILE.md (the report) and, for paired,
# ratio-vs-n.svg and ratio-vs-rtt.svg. Run it on a quiet machine; the times are those of 2 quiet cores.
#
#   benchmarks/run.sh --profile paired        # BatchTemplate against Jedis in pairs: N = 1 to 100,000 on loopback,
#                                             # 100 to 100,000 at 1, 5 and 10 ms, the variants at 100 and 10,000 (~53 min)
#   benchmarks/run.sh --profile peers         # every peer alone, N = 1 to 100,000 on loopback (~10 min)
#   benchmarks/run.sh --profile distance      # every peer alone, N = 10,000 at 0, 1, 5 and 10 ms (~13 min)
#   benchmarks/run.sh --profile concurrency   # 1 to 256 threads, one command each, on loopback and at 1 ms (~23 min)
#   benchmarks/run.sh --profile memory        # 10,000,000 SETs in -Xmx128m per peer, and connections per batch (~3 min)
#   benchmarks/run.sh --profile polite        # GET latency during a backfill, uncapped and capped (~1 min)
#   benchmarks/run.sh --profile exactly-once  # exactly-once against the plain batch of the same template in pairs:
#                                             # N = 10,000 and 100,000 SETs on loopback and at 1 ms, with the server's
#                                             # CPU per command; then the markers' memory for chunks of 100 and 1,000
#                                             # INCRs and SETs (~6 min)
#   benchmarks/run.sh --profile spring-batch  # Spring Batch's RedisItemWriter, RedisBatchItemWriter and the same
#                                             # exactly-once: chunks of 1,000 items (SET key value) written as a
#                                             # chunk-oriented step writes them, on loopback and at 1 ms (~3 min)
#   benchmarks/run.sh --profile smoke         # every suite at tiny sizes: proves the chain, measures nothing (~4 min)
#
# Options:
#   --quick                 one fork of three short iterations per cell, no pre-warm: proves a profile's chain
#   --jvm PATH              the java of the forked JVMs (JDK 21 or later adds virtual threads to concurrency)
#   --prof NAME[:OPTIONS]   one more JMH profiler (gc, stack, async:libPath=...)
#   --charts FILE.csv       draw the paired charts of a CSV next to it, for example docs/performance/paired.csv
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
args=()
for arg in "$@"; do
	case "$arg" in
		*.csv) args+=("$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")") ;;
		*) args+=("$arg") ;;
	esac
done
cd "$root"
exec ./mvnw -B -q -pl benchmarks -am -DskipTests -Pbenchmark verify "-Dbenchmark.args=${args[*]:-}"
