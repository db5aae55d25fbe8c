#!/usr/bin/env bash
# Start-up benchmark (docs/PERFORMANCE.md, "Start"): how long the CLI takes when it has almost
# nothing to do, JVM start included. Alternated runs, in one run of this script, of
#   floor     java -Xshare:auto -version (the JVM alone)
#   version   bin/tracesync --version
#   sync2     bin/tracesync sync TWO -o OUT -q, TWO an LTTV text file of two messages
# and, with BASELINE_JAR=path/to/an/older/tracesync.jar, the same two commands on that jar run as
# its launcher ran it (java -XX:SharedArchiveFile=… $BASELINE_OPTS -jar, the start jar beside it if
# there is one; the archive is always made here by the build's training run, for the copy's class path),
# for a before/after. BASELINE_OPTS defaults to bin/tracesync's options since 2026-11-23 (the heap,
# ParallelGC, the raised Tier3 thresholds); give "-Xmx1g -XX:+UseParallelGC" for older jars.
# Or, with BASELINE_BIN=path/to/another/checkout/bin/tracesync, the same two commands through that
# built checkout's own launcher, its start jar and archive where its build made them (a JDK 17 archive
# is valid only for the class path it was trained on: copied elsewhere, it is silently not used).
# Prints the median wall and user+sys time of each, and the load before and after.
#
#   scripts/benchmark/start.sh [RUNS]
#
# Needs the built CLI (mvn -q -DskipTests package). WORK (default /tmp/tracesync-start-bench) holds
# the files it writes.
set -euo pipefail
. "$(dirname "$0")/times.sh"
RUNS=${1:-11}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-start-bench}
mkdir -p "$WORK"
TWO=$WORK/two.txt
printf '2\n0 1 1700000000.000487243 1700000000.080661399\n1 0 1700000000.080700000 1700000000.000600000\n' > "$TWO"
ORDER=(floor version sync2)
BASELINE_OPTS=${BASELINE_OPTS:--Xmx1g -XX:+UseParallelGC -XX:TieredStopAtLevel=4 -XX:Tier3InvocationThreshold=2000 -XX:Tier3MinInvocationThreshold=1000 -XX:Tier3CompileThreshold=20000}
# the jar a launcher starts: the start jar beside JAR when there is one (bin/tracesync), else JAR
started() { if [ -f "${1%.jar}-start.jar" ]; then echo "${1%.jar}-start.jar"; else echo "$1"; fi; }
if [ -n "${BASELINE_BIN:-}" ]; then
  mkdir -p "$WORK/base"
  ln -sfn "$(cd "$(dirname "$BASELINE_BIN")" && pwd)/$(basename "$BASELINE_BIN")" "$WORK/base/tracesync" # the launcher follows links
  ORDER+=(base-version base-sync2)
elif [ -n "${BASELINE_JAR:-}" ]; then
  base=$WORK/base/tracesync.jar
  if [ ! -f "$base" ] || ! cmp -s "$BASELINE_JAR" "$base"; then
    mkdir -p "$WORK/base"
    rm -f "$WORK/base/tracesync.jsa" "$WORK/base/tracesync-start.jar"
    cp -p "$BASELINE_JAR" "$base"
    # a build with a start jar (Class-Path: tracesync.jar): its launcher starts that one
    if [ "${BASELINE_JAR%.jar}-start.jar" -nt "$BASELINE_JAR" ]; then
      cp "${BASELINE_JAR%.jar}-start.jar" "$WORK/base/tracesync-start.jar"
    fi
    # the training run of tracesync-cli/pom.xml, here: an archive is valid only for the class path it
    # was trained on, so one lying beside the original jar would be silently refused for the copy
    java -XX:ArchiveClassesAtExit="$WORK/base/tracesync.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off \
      -XX:TieredStopAtLevel=1 -jar "$(started "$base")" sync "$HERE/examples/cluster-3/text/messages.txt" \
      -o "$WORK/base-training.json" -q || true
  fi
  base=$(started "$base")
  # its launcher's command line
  printf '#!/bin/sh\nexec java -XX:SharedArchiveFile=%s -Xlog:cds=off -Xlog:cds+dynamic=off %s -jar %s "$@"\n' \
    "$WORK/base/tracesync.jsa" "$BASELINE_OPTS" "$base" > "$WORK/base/tracesync"
  chmod +x "$WORK/base/tracesync"
  ORDER+=(base-version base-sync2)
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1)"
echo "load before: $(load); $RUNS runs each after one warm-up, alternated"
for name in "${ORDER[@]}"; do : > "$WORK/times-$name"; done
for run in $(seq 0 "$RUNS"); do
  for name in "${ORDER[@]}"; do
    out=$WORK/times-$name
    [ "$run" = 0 ] && out=$WORK/warm-up
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$out")
    case $name in
      floor) "${t[@]}" java -Xshare:auto -version 2> /dev/null ;;
      version) "${t[@]}" "$HERE/bin/tracesync" --version > /dev/null ;;
      sync2) "${t[@]}" "$HERE/bin/tracesync" sync "$TWO" -o "$WORK/two.json" -q ;;
      base-version) "${t[@]}" "$WORK/base/tracesync" --version > /dev/null ;;
      base-sync2) "${t[@]}" "$WORK/base/tracesync" sync "$TWO" -o "$WORK/two-base.json" -q ;;
    esac
  done
done
print_medians "$WORK/times" "${ORDER[@]}"
if [ -n "${BASELINE_JAR:-}${BASELINE_BIN:-}" ]; then
  cmp -s "$WORK/two.json" "$WORK/two-base.json" && echo "sync2 and base-sync2 wrote the same result" \
    || echo "sync2 and base-sync2 results differ"
fi
echo "load after: $(load)"
