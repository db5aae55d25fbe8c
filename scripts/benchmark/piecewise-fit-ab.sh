#!/usr/bin/env bash
# The piecewise fit of a long two-node trace, in process, an older build against this checkout's,
# alternated (docs/PERFORMANCE.md, "Long traces", ninth session): PiecewiseFitRun reads FILE once
# per run and fits its first pair ROUNDS times; round 1 is what one `sync` pays (the fit's code
# cold), the later rounds the fit warm. The older build's fit runs with its classes first on the
# class path (BASE_JAR: its benchmarks jar, which holds its core classes), beside this checkout's
# benchmarks jar. Prints, per round, the medians of the fit's thread CPU, the process CPU and the
# wall time of each side, the median of the run-by-run ratios of process CPU (this / base), and the
# digests of the results (they must be one: the same transform and bounds).
#
#   BASE_JAR=/tmp/s9-bench.jar scripts/benchmark/piecewise-fit-ab.sh FILE [RUNS] [ROUNDS]
#
# JVM options: the launcher's for inputs above 512 MiB (C2, ParallelGC, its Tier3 thresholds).
# Needs this checkout built (mvn -q -o -DskipTests package).
set -euo pipefail
FILE=${1:?usage: BASE_JAR=jar piecewise-fit-ab.sh FILE [RUNS] [ROUNDS]}
RUNS=${2:-6}
ROUNDS=${3:-2}
BASE=${BASE_JAR:?BASE_JAR: the benchmarks jar of the older build}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
NOW="$HERE/tracesync-benchmarks/target/benchmarks.jar"
JAVA_OPTS=(-Xmx1g -XX:+UseParallelGC -XX:TieredStopAtLevel=4 -XX:Tier3InvocationThreshold=2000
           -XX:Tier3MinInvocationThreshold=1000 -XX:Tier3CompileThreshold=20000 -XX:FreqInlineSize=250)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq "$RUNS"); do
  for side in base now; do
    cp=$NOW
    [ "$side" = base ] && cp="$BASE:$NOW"
    java "${JAVA_OPTS[@]}" -cp "$cp" org.tracesync.benchmarks.PiecewiseFitRun "$FILE" "$ROUNDS" 2>&1 \
      | grep '^round' | sed "s/^/$side /" >> "$out"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'EOF'
import collections, re, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\w+) round (\d+): fit thread ([\d.]+) s CPU, process ([\d.]+) s CPU, ([\d.]+) s wall.*digest (\w+)', line)
    runs[(m[1], int(m[2]))].append((float(m[3]), float(m[4]), float(m[5]), m[6]))
for r in sorted({k[1] for k in runs}):
    base, now = runs[('base', r)], runs[('now', r)]
    med = lambda rows, i: statistics.median(x[i] for x in rows)
    ratios = [n[1] / b[1] for b, n in zip(base, now)]
    print(f"round {r}: base fit thread {med(base, 0):.3f} s, process {med(base, 1):.3f} s, wall {med(base, 2):.3f} s"
          f" | this fit thread {med(now, 0):.3f} s, process {med(now, 1):.3f} s, wall {med(now, 2):.3f} s"
          f" | process this/base {statistics.median(ratios):.2f} run by run ({min(ratios):.2f}-{max(ratios):.2f})"
          f"; digests {sorted({x[3] for x in base + now})}")
EOF
