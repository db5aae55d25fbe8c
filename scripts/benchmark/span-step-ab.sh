#!/usr/bin/env bash
# apply's cost on span files, before/after in one run (docs/PERFORMANCE.md, "Spans around a clock
# step"): the simulated shop (StepShop.java, Zipkin, TRACES traces at 2 ms) once linear and once
# with the checkout host's clock stepping back by 4 ms halfway, each synchronized once with the
# built CLI, then `apply RESULT FILE --out DIR` alternately with
#   base   BASELINE_JAR (an older tracesync.jar)
#   now    the built CLI (bin/tracesync)
# and the median wall, user+sys time and peak RSS of each, the median of the run-by-run CPU
# ratios now/base, and the callees before their callers in each corrected copy (`inspect`).
# On the linear shop both copies must be the same bytes (checked).
#
#   BASELINE_JAR=path/to/tracesync.jar scripts/benchmark/span-step-ab.sh [RUNS] [TRACES]
#
# Needs the built CLI (mvn -q -DskipTests package).
set -euo pipefail
RUNS=${1:-3}
TRACES=${2:-20000}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-span-step-bench}
TS="$HERE/bin/tracesync"
JAR="$HERE/tracesync-cli/target/tracesync.jar"
: "${BASELINE_JAR:?set BASELINE_JAR to the jar to compare with}"
. "$HERE/scripts/benchmark/times.sh"
mkdir -p "$WORK"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(java -version 2>&1 | head -1)"
for shop in linear step; do
  f="$WORK/$shop-$TRACES.json"
  [ -f "$f" ] || java -cp "$JAR" "$HERE/scripts/benchmark/StepShop.java" "$f" 1 "$TRACES" "$shop"
  "$TS" sync "$f" -o "$WORK/$shop-result.json" -q > /dev/null || true
  echo "== $shop shop ($(du -h "$f" | cut -f1)); load before: $(load)"
  for name in base now; do : > "$WORK/spanab-$shop-$name"; done
  for run in $(seq 0 "$RUNS"); do # run 0 warms the page cache; not counted
    for name in base now; do
      out="$WORK/spanab-$shop-$name"
      [ "$run" = 0 ] && out=/dev/null
      rm -rf "$WORK/out-$name"
      t=(/usr/bin/time -f "%e %U %S %M" -a -o "$out")
      case $name in
        base) "${t[@]}" java -Xmx1g -XX:+UseParallelGC -jar "$BASELINE_JAR" apply "$WORK/$shop-result.json" "$f" --out "$WORK/out-base" > /dev/null ;;
        now) "${t[@]}" "$TS" apply "$WORK/$shop-result.json" "$f" --out "$WORK/out-now" > /dev/null ;;
      esac
    done
  done
  echo "load after: $(load)"
  for name in base now; do
    echo "$name copy: $("$TS" inspect "$WORK/out-$name/$(basename "$f")" | grep -m1 'violated as recorded')"
  done
  if [ $shop = linear ]; then
    cmp -s "$WORK/out-base/$(basename "$f")" "$WORK/out-now/$(basename "$f")" && echo "same copy written" || echo "COPIES DIFFER"
  fi
  print_medians "$WORK/spanab-$shop" base now
  paste "$WORK/spanab-$shop-now" "$WORK/spanab-$shop-base" | awk '{print ($2 + $3) / ($6 + $7)}' | median | xargs printf 'now/base cpu %.3f (median of run-by-run ratios)\n'
done
