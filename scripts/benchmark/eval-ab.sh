#!/usr/bin/env bash
# eval's cost on a piecewise result, before/after in one run (docs/PERFORMANCE.md, "Long traces"):
# the 24 h wandering two-node trace of longtraces.sh (332 segments, no step), synchronized once
# with the built CLI, then `eval RESULT MESSAGES` alternately with
#   base   BASELINE_JAR (an older tracesync.jar, run as its launcher ran it)
#   now    the built CLI (bin/tracesync)
# and the median wall, user+sys time and peak RSS of each, and the median of the run-by-run CPU
# ratios now/base. Both must print the same evaluation (checked).
#
#   BASELINE_JAR=path/to/tracesync.jar scripts/benchmark/eval-ab.sh [RUNS]
#
# Needs the built CLI (mvn -q -DskipTests package) and about 800 MB free in $WORK.
set -euo pipefail
RUNS=${1:-3}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-longtraces-bench}
TS="$HERE/bin/tracesync"
: "${BASELINE_JAR:?set BASELINE_JAR to the jar to compare with}"
. "$HERE/scripts/benchmark/times.sh"
mkdir -p "$WORK"
common=(--nodes 2 --rate 98 --duration 24h --format text --min-latency 40us --min-latency-back 50us --seed 11 --force)
[ -f "$WORK/wander/messages.txt" ] || "$TS" simulate -o "$WORK/wander" "${common[@]}" --walk 0.01 --ntp 1 --slews 2
"$TS" sync "$WORK/wander/messages.txt" -o "$WORK/eval-ab.json" -q > /dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(java -version 2>&1 | head -1)"
echo "load before: $(load)"
for name in base now; do : > "$WORK/evalab-$name"; done
for run in $(seq 0 "$RUNS"); do # run 0 warms the page cache; not counted
  for name in base now; do
    out="$WORK/evalab-$name"
    [ "$run" = 0 ] && out=/dev/null
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$out")
    case $name in
      base) "${t[@]}" java -Xmx1g -XX:+UseParallelGC -jar "$BASELINE_JAR" eval "$WORK/eval-ab.json" "$WORK/wander/messages.txt" > "$WORK/evalab-base.txt" || true ;;
      now) "${t[@]}" "$TS" eval "$WORK/eval-ab.json" "$WORK/wander/messages.txt" > "$WORK/evalab-now.txt" || true ;;
    esac
  done
done
echo "load after: $(load)"
cmp -s "$WORK/evalab-base.txt" "$WORK/evalab-now.txt" && echo "same evaluation printed" || echo "EVALUATIONS DIFFER"
print_medians "$WORK/evalab" base now
paste "$WORK/evalab-now" "$WORK/evalab-base" | awk '{print ($2 + $3) / ($6 + $7)}' | median | xargs printf 'now/base cpu %.3f (median of run-by-run ratios)\n'
