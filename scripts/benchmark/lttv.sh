#!/usr/bin/env bash
# End-to-end LTTV text benchmark, side by side with the original C implementation in one run
# (docs/PERFORMANCE.md, "Synchronization engine"): alternated runs of
#   C      the LTTV sync unittest (giraldeau/lttv, lttv/lttv/sync), gcc -O2, g_debug compiled out
#   ts     bin/tracesync sync FILE -o OUT -q (the launcher's defaults; JVM start included; since
#          2026-11-23's fifth session they depend on the input's size: C1 alone below 512 MiB)
#   ts-c1  the same with C1 only (TRACESYNC_JAVA_OPTS=... -XX:TieredStopAtLevel=1, without the
#          launcher's raised Tier3 thresholds)
#   cat    cat FILE > /dev/null (reading the file from the page cache: the floor)
#   base   with BASELINE_JAR=path/to/an/older/tracesync.jar: that jar through a launcher (this
#          checkout's bin/tracesync, or BASELINE_LAUNCHER) beside a copy of it, with a class-data
#          archive of its own made by the build's training run: as `bin/tracesync` runs that build
#          (run with `java -jar` alone, without its archive, it pays about 0.1 s of CPU more). For a
#          build before the size-chosen options, give its own launcher: BASELINE_LAUNCHER=FILE, e.g.
#          from `git show ce1625c:bin/tracesync > FILE` (this checkout's would choose C1 for it too)
# and the median wall, user+sys time and peak RSS of each.
#
#   scripts/benchmark/lttv.sh LTTV_CHECKOUT [MESSAGES] [RUNS]
#
# LTTV_CHECKOUT is a checkout of the public giraldeau/lttv repository (only lttv/lttv/sync is
# compiled, into $WORK; nothing of it enters this repository). Needs gcc, pkg-config and glib's
# headers (Debian: apt-get install gcc pkg-config libglib2.0-dev), the built CLI
# (mvn -q -DskipTests package) and the benchmarks jar for the input file.
set -euo pipefail
. "$(dirname "$0")/times.sh"
SRC=${1:?usage: lttv.sh LTTV_CHECKOUT [MESSAGES] [RUNS]}/lttv/lttv/sync
MESSAGES=${2:-4000000}
RUNS=${3:-5}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-lttv-bench}
mkdir -p "$WORK"
[ -f "$SRC/sync_chain_unittest.c" ] || { echo "no LTTV sync sources in $SRC" >&2; exit 2; }
pkg-config --exists glib-2.0 || { echo "glib headers missing: apt-get install gcc pkg-config libglib2.0-dev" >&2; exit 2; }

# The C original as its Makefile.am's unittest target builds it, without GLPK (config.h empty),
# with g_debug compiled out: as published, 90% of its time formats debug messages it then discards.
echo '/* no GLPK */' > "$WORK/config.h"
printf '#include <glib.h>\n#undef g_debug\n#define g_debug(...) ((void) 0)\n' > "$WORK/nodebug.h"
(cd "$SRC" && gcc -O2 -w -D_GNU_SOURCE -I"$WORK" -include "$WORK/nodebug.h" $(pkg-config --cflags glib-2.0) \
  data_structures.c graph_functions.c sync_chain.c sync_chain_unittest.c event_processing_text.c \
  event_matching_broadcast.c event_matching_distributor.c event_matching_tcp.c event_analysis_chull.c \
  event_analysis_eval.c event_analysis_linreg.c factor_reduction_accuracy.c \
  -o "$WORK/unittest" $(pkg-config --libs glib-2.0) -lm)

FILE=$WORK/lttv-$MESSAGES.txt
if [ ! -f "$FILE" ]; then
  java -cp "$HERE/tracesync-benchmarks/target/benchmarks.jar" org.tracesync.benchmarks.LttvLargeFile "$FILE" "$MESSAGES"
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1); $(gcc --version | head -1)"
echo "file: $FILE, $(stat -L -c %s "$FILE") bytes; load before: $(load)"
cat "$FILE" > /dev/null
opts="-Xmx1g -XX:+UseParallelGC"
ORDER=(C ts ts-c1 cat)
if [ -n "${BASELINE_JAR:-}" ]; then
  # the baseline as its build runs: launcher, jar and an archive from the same training run as
  # tracesync-cli/pom.xml's (absolute paths: the archive is ignored, silently, when they differ)
  B=$WORK/base
  rm -rf "$B" && mkdir -p "$B/bin" "$B/tracesync-cli/target"
  cp "${BASELINE_LAUNCHER:-$HERE/bin/tracesync}" "$B/bin/tracesync"
  cp "$BASELINE_JAR" "$B/tracesync-cli/target/tracesync.jar"
  java -XX:ArchiveClassesAtExit="$B/tracesync-cli/target/tracesync.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
    -XX:TieredStopAtLevel=1 -jar "$B/tracesync-cli/target/tracesync.jar" sync "$HERE/examples/cluster-3/text/messages.txt" \
    -o "$WORK/base-training.json" > /dev/null
  ORDER+=(base)
fi
for name in "${ORDER[@]}"; do : > "$WORK/times-$name"; done
for run in $(seq "$RUNS"); do
  for name in "${ORDER[@]}"; do
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$WORK/times-$name")
    case $name in
      C) "${t[@]}" "$WORK/unittest" "$FILE" > /dev/null ;;
      ts) "${t[@]}" "$HERE/bin/tracesync" sync "$FILE" -o "$WORK/out.json" -q > /dev/null ;;
      ts-c1) TRACESYNC_JAVA_OPTS="$opts -XX:TieredStopAtLevel=1" "${t[@]}" "$HERE/bin/tracesync" sync "$FILE" -o "$WORK/out-c1.json" -q > /dev/null ;;
      cat) "${t[@]}" cat "$FILE" > /dev/null ;;
      base) "${t[@]}" "$WORK/base/bin/tracesync" sync "$FILE" -o "$WORK/out-base.json" -q > /dev/null ;;
    esac
  done
done
print_medians "$WORK/times" "${ORDER[@]}"
cmp -s "$WORK/out.json" "$WORK/out-c1.json" && echo "ts and ts-c1 wrote the same result" || echo "ts and ts-c1 results differ"
if [ -n "${BASELINE_JAR:-}" ]; then
  cmp -s "$WORK/out.json" "$WORK/out-base.json" && echo "ts and base wrote the same result" || echo "ts and base results differ"
  # pair by pair (run k of ts against run k of base): the median of the ratios, wall and CPU
  paste "$WORK/times-ts" "$WORK/times-base" | awk '{printf "%.3f %.3f\n", $1 / $5, ($2 + $3) / ($6 + $7)}' > "$WORK/ratios"
  echo "ts / base, median of the run-by-run ratios: wall $(cut -d' ' -f1 "$WORK/ratios" | median), CPU $(cut -d' ' -f2 "$WORK/ratios" | median)"
fi
echo "load after: $(load)"
