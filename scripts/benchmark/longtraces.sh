#!/usr/bin/env bash
# The 24 h two-node benchmark of docs/PERFORMANCE.md ("Long traces"): a day of 98 messages/s each
# way, once with linear clocks and once with wandering ones (frequency random walk, NTP-like rate
# corrections, two 500 ppm slews per clock), synchronized with the default options, alternating:
#   wander   bin/tracesync sync WANDER -o OUT -q      (must stay piecewise, 0 steps, no repair pass)
#   linear   bin/tracesync sync LINEAR -o OUT -q
#   base     with BASELINE_JAR=path/to/an/older/tracesync.jar: that jar on the linear file, as its
#            launcher ran it (java -Xmx1g -XX:+UseParallelGC -jar), for a before/after in one run
#   base-w   the same jar on the wandering file
#            (BASELINE_OPTS: the baseline's JVM options, default "-Xmx1g -XX:+UseParallelGC"; give the
#            launcher's, printed below, for a like-for-like before/after: then wander/base-w compares)
#            or BASELINE_BIN=path/to/an/older/checkout/bin/tracesync: that launcher instead (its own
#            JVM options and class-data archive, as users run it)
# and the median wall, user+sys time and peak RSS of each, and the median of the run-by-run ratios
# wander/linear (and linear/base). Then the wandering result is checked against its truth (eval).
#
#   scripts/benchmark/longtraces.sh [RUNS]
#
# Needs the built CLI (mvn -q -DskipTests package) and about 1.6 GB free in $WORK.
set -euo pipefail
RUNS=${1:-3}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-longtraces-bench}
TS="$HERE/bin/tracesync"
mkdir -p "$WORK"
common=(--nodes 2 --rate 98 --duration 24h --format text --min-latency 40us --min-latency-back 50us --seed 11 --force)
[ -f "$WORK/linear/messages.txt" ] || "$TS" simulate -o "$WORK/linear" "${common[@]}"
[ -f "$WORK/wander/messages.txt" ] || "$TS" simulate -o "$WORK/wander" "${common[@]}" --walk 0.01 --ntp 1 --slews 2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1)"
echo "files: $(stat -c %s "$WORK/linear/messages.txt") and $(stat -c %s "$WORK/wander/messages.txt") bytes; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$WORK/linear/messages.txt" "$WORK/wander/messages.txt" > /dev/null
ORDER=(wander linear)
[ -n "${BASELINE_JAR:-}${BASELINE_BIN:-}" ] && ORDER+=(base base-w)
for name in "${ORDER[@]}"; do : > "$WORK/times-$name"; done
opts=${BASELINE_OPTS:-"-Xmx1g -XX:+UseParallelGC"}
echo "launcher's JVM options: chosen by bin/tracesync from the input's size (these files are above its 512 MiB line: $(grep -o '"-Xmx1g -XX:+UseParallelGC -XX:TieredStopAtLevel=4[^"]*"' "$TS") with its Tier3 thresholds$([ -f "$HERE/bin/jit-directives.json" ] && echo " and the compiler directives of bin/jit-directives.json")); baseline's: $(if [ -n "${BASELINE_BIN:-}" ]; then echo "$BASELINE_BIN's own"; else echo "$opts"; fi)"
for run in $(seq 0 "$RUNS"); do # run 0 warms the page cache and the CDS archive; not counted
  for name in "${ORDER[@]}"; do
    out="$WORK/times-$name"
    [ "$run" = 0 ] && out="$WORK/warmup-$name"
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$out")
    case $name in
      wander) "${t[@]}" "$TS" sync "$WORK/wander/messages.txt" -o "$WORK/wander.json" -q > /dev/null || true ;;
      linear) "${t[@]}" "$TS" sync "$WORK/linear/messages.txt" -o "$WORK/linear.json" -q > /dev/null ;;
      base) if [ -n "${BASELINE_BIN:-}" ]; then "${t[@]}" "$BASELINE_BIN" sync "$WORK/linear/messages.txt" -o "$WORK/base.json" -q > /dev/null
            else "${t[@]}" java $opts -jar "$BASELINE_JAR" sync "$WORK/linear/messages.txt" -o "$WORK/base.json" -q > /dev/null; fi ;;
      base-w) if [ -n "${BASELINE_BIN:-}" ]; then "${t[@]}" "$BASELINE_BIN" sync "$WORK/wander/messages.txt" -o "$WORK/base-w.json" -q > /dev/null || true
              else "${t[@]}" java $opts -jar "$BASELINE_JAR" sync "$WORK/wander/messages.txt" -o "$WORK/base-w.json" -q > /dev/null || true; fi ;;
    esac
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK" "${ORDER[@]}" <<'EOF'
import statistics, sys
work, names = sys.argv[1], sys.argv[2:]
rows = {}
for n in names:
    rows[n] = [list(map(float, l.split())) for l in open(f"{work}/times-{n}") if l.strip()]
    wall = statistics.median(r[0] for r in rows[n])
    cpu = statistics.median(r[1] + r[2] for r in rows[n])
    rss = statistics.median(r[3] for r in rows[n]) / 1024
    print(f"{n:8s} wall {wall:7.2f} s  cpu {cpu:7.2f} s  peak RSS {rss:7.1f} MiB  ({len(rows[n])} runs)")
def ratio(a, b):
    if a in rows and b in rows:
        cpu = statistics.median((x[1] + x[2]) / (y[1] + y[2]) for x, y in zip(rows[a], rows[b]))
        wall = statistics.median(x[0] / y[0] for x, y in zip(rows[a], rows[b]))
        print(f"{a}/{b}: cpu {cpu:.2f}, wall {wall:.2f} (median of run-by-run ratios)")
ratio("wander", "linear")
ratio("linear", "base")
ratio("base-w", "base")
ratio("wander", "base-w")
EOF
"$TS" sync "$WORK/wander/messages.txt" -o "$WORK/wander.json" 2>&1 | grep -E "piecewise|step|repair|controlled" | cut -c1-200 || true
"$TS" eval "$WORK/wander.json" "$WORK/wander/messages.txt" --truth "$WORK/wander/truth.json" | tail -5 || true
