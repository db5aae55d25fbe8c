#!/usr/bin/env bash
# CTF decoding against the round's start (issue #17 goal 3), on this machine, side by side in one
# call (docs/PERFORMANCE.md, "Distance to the memory bandwidth", sixth session):
#   scripts/benchmark/ctf-roundstart.sh CTF_SET ROUNDS START_BENCH_JAR NOW_BENCH_JAR
# START_BENCH_JAR: the benchmarks jar of main at e6c5d02 (the round's start, just before the first
# goal-3 commit 52d80d7) with today's CtfReadRun, TraceStageRun and MappedReadRun added (they
# compile against that API unchanged); `build` makes it in /tmp/ctf-roundstart (a detached
# worktree of this repository, offline; protobuf-java pinned to 4.35.1 as main does, since 4.29.3's
# parent pom is not in the offline repository — no code of the formats changes) and uses it.
# CTF_SET holds the trace directories n1 n2 n3 (bandwidth.sh's ctf/ set, made by `tracesync convert
# --to ctf` from CaptureLargeSet). Per round, after reading the set once (same page cache for all):
# the floor (MappedReadRun: the files mapped and summed as 64-bit words, CPU ns per event of runs
# 2-3), then for each build, in an order that alternates between rounds: CtfReadRun (every field
# decoded, CPU ns per event, mean of runs 2-3) and TraceStageRun's reading half (read, decode, merge,
# fill blocks for matching; CPU ns per event, mean of runs 2-3). At the end, per measure: medians
# over rounds, the median of the per-round ratios now/start, and the distance closed per round,
# 1 - (now - floor) / (start - floor), with that round's floor. CPU time of the measuring thread.
# Seventh session: each process makes RUNS runs (environment, default 5) and gives the median of
# runs 2..RUNS (run 1 pays the JIT's warm-up); the end adds each build's spread over rounds (min-max)
# and the distance closed at the medians, which is the figure to quote (use ROUNDS >= 5: one round's
# figure moves by up to 30 % with the machine's load, see docs/PERFORMANCE.md).
set -euo pipefail
RUNS=${RUNS:-5}
SET=${1:?usage: ctf-roundstart.sh CTF_SET ROUNDS START_BENCH_JAR|build NOW_BENCH_JAR}
ROUNDS=$2
START=$3
NOW=$4
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/times.sh"
if [ "$START" = build ]; then
  B=/tmp/ctf-roundstart
  REPO=$(git -C "$HERE" rev-parse --show-toplevel)
  if [ ! -d "$B" ]; then
    git -C "$REPO" worktree add --detach "$B" e6c5d02
  fi
  sed -i 's|<version>4.29.3</version>|<version>4.35.1</version>|' "$B/pom.xml"
  for f in benchmarks/CtfReadRun.java benchmarks/MappedReadRun.java formats/input/TraceStageRun.java; do
    cp "$REPO/tracesync-benchmarks/src/main/java/org/tracesync/$f" "$B/tracesync-benchmarks/src/main/java/org/tracesync/$f"
  done
  (cd "$B" && mvn -B -q -o -DskipTests package -pl tracesync-benchmarks -am)
  START=$B/tracesync-benchmarks/target/benchmarks.jar
fi
JAR=("$START" "$NOW")
NAME=(start now)
T=("$SET/n1" "$SET/n2" "$SET/n3")
OUT=$(mktemp -d)
echo "load $(load); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for r in $(seq "$ROUNDS"); do
  for dir in "${T[@]}"; do cat "$dir"/*; done > /dev/null
  # the floor: CPU s of runs 2-3 (per event below, with the events that CtfReadRun counts)
  f=$(java -Xmx256m -cp "$NOW" org.tracesync.benchmarks.MappedReadRun "$RUNS" "${T[@]}" | tail -n $((RUNS - 1)) | awk '{print $6}' | median)
  order=(0 1)
  if [ $((r % 2)) = 0 ]; then order=(1 0); fi
  line="round $r:"
  for k in "${order[@]}"; do
    n=${NAME[$k]}
    d=$(java -Xmx256m -cp "${JAR[$k]}" org.tracesync.benchmarks.CtfReadRun "$RUNS" "${T[@]}")
    echo "$d" | head -1 | awk '{print $3}' > "$OUT/events-$n"
    echo "$d" | grep -o 'checksum [0-9a-f]*' | sort -u > "$OUT/checksum-$n"
    dv=$(echo "$d" | tail -n $((RUNS - 1)) | awk '{print $11}' | median)
    s=$(java -Xmx3g -cp "${JAR[$k]}" org.tracesync.formats.input.TraceStageRun "$RUNS" "${T[@]}" | grep reading \
      | tail -n $((RUNS - 1)) | awk '{print $5}' | median)
    echo "$dv" >> "$OUT/decode-$n"
    echo "$s" >> "$OUT/reading-$n"
    line="$line $n: every field $dv, reading half $s ns/event;"
  done
  ev=$(cat "$OUT/events-now")
  fl=$(echo "$f" | awk -v e="$ev" '{print $1 * 1e9 / e}')
  echo "$fl" >> "$OUT/floor"
  echo "$line floor $fl ns/event (load $(load))"
done
cmp -s "$OUT/checksum-start" "$OUT/checksum-now" && cmp -s "$OUT/events-start" "$OUT/events-now" \
  && echo "both builds decoded the same events (count and timestamp checksum)" || echo "the builds' events DIFFER"
echo "floor: median $(median < "$OUT/floor") ns/event"
for m in decode reading; do
  ratio=$(paste "$OUT/$m-now" "$OUT/$m-start" | awk '{print $1 / $2}' | median)
  closed=$(paste "$OUT/$m-now" "$OUT/$m-start" "$OUT/floor" | awk '{printf "%.0f%%\n", 100 * (1 - ($1 - $3) / ($2 - $3))}')
  echo "$m: start median $(median < "$OUT/$m-start"), now median $(median < "$OUT/$m-now") ns/event;" \
    "ratio now/start (median of rounds) $ratio; distance closed per round: $(echo $closed)"
  at=$(echo "$(median < "$OUT/$m-now") $(median < "$OUT/$m-start") $(median < "$OUT/floor")" \
    | awk '{printf "%.0f%%", 100 * (1 - ($1 - $3) / ($2 - $3))}')
  echo "$m: spread over rounds, start $(sort -n "$OUT/$m-start" | sed -n '1p;$p' | paste -sd-)," \
    "now $(sort -n "$OUT/$m-now" | sed -n '1p;$p' | paste -sd-) ns/event; distance closed at the medians: $at"
done
echo "load $(load)"
rm -rf "$OUT"
