#!/usr/bin/env bash
# Capture read + match of this build against main at issue #17's round start (e6c5d02), side by
# side in one process, with the floor measured in the same run (docs/PERFORMANCE.md, "Captures,
# sixth session"). e6c5d02 has no TraceStageRun: both builds run CaptureReadMatchRun on one thread
# (-DreaderThread=false: read, decode, merge, match into the pair accumulators, as sync does before
# estimation) through ReadMatchAlternation, CPU time of that thread per packet, rounds alternated.
#   floor    MappedReadRun (captures mapped, summed as 64-bit words), runs 2..3, CPU time
#   distance closed = 1 - (now - floor) / (start - floor)
#
#   [NOW_BENCH_JAR=a copy of this build's benchmarks jar, so that a rebuild during the run cannot change it] \
#   ROUNDSTART_BENCH_JAR=/tmp/cap4-base/tracesync-benchmarks/target/benchmarks.jar \
#     scripts/benchmark/capture-roundstart.sh DIR [ROUNDS]
#
# Making the round-start jar (offline; e6c5d02's protobuf 4.29.3 parent POM is not in the local
# repository, so its version is raised to the current build's 4.35.1, which touches no capture code):
#   git worktree add --detach /tmp/cap4-base e6c5d02 && cd /tmp/cap4-base &&
#   sed -i 's|<version>4.29.3</version>|<version>4.35.1</version>|' pom.xml &&
#   mvn -B -q -o -DskipTests package -pl tracesync-benchmarks -am
# DIR/caps holds the captures (CaptureLargeSet; made when absent, with EXCHANGES=true the set whose
# exchanges complete).
set -euo pipefail
DIR=${1:?usage: capture-roundstart.sh DIR [ROUNDS]}
ROUNDS=${2:-5}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
JAR=${NOW_BENCH_JAR:-$HERE/tracesync-benchmarks/target/benchmarks.jar}
OLD=${ROUNDSTART_BENCH_JAR:-/tmp/cap4-base/tracesync-benchmarks/target/benchmarks.jar}
[ -f "$JAR" ] || { echo "build the jars first: mvn -q -DskipTests package" >&2; exit 2; }
[ -f "$OLD" ] || { echo "no round-start benchmarks jar at $OLD (see the header)" >&2; exit 2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
mkdir -p "$DIR/caps"
if ! ls "$DIR"/caps/*.pcap > /dev/null 2>&1; then
  java -Xmx1g -Dexchanges="${EXCHANGES:-false}" -cp "$JAR" org.tracesync.benchmarks.CaptureLargeSet "$DIR/caps"
fi
CAPS=("$DIR"/caps/*.pcap)
BYTES=$(du -cb "${CAPS[@]}" | tail -1 | cut -f1)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(java -version 2>&1 | head -1)"
echo "captures: $BYTES bytes; load $(load)"
cat "${CAPS[@]}" > /dev/null
echo "== floor: mapped sequential read, load $(load)"
floor=$(java -cp "$JAR" org.tracesync.benchmarks.MappedReadRun 3 "${CAPS[@]}")
echo "$floor"
echo "== read + match, round start (old) and this build (new) alternated in one process, load $(load)"
out=$(java -Xmx4g -DreaderThread=false -cp "$JAR" org.tracesync.benchmarks.ReadMatchAlternation "$ROUNDS" "$OLD" "$JAR" "${CAPS[@]}")
echo "$out"
# floor in ns per packet: CPU seconds of MappedReadRun's runs 2..3 (mean) over the packets counted
packets=$(echo "$out" | sed -n 's/.*; packets \([0-9]*\)$/\1/p')
echo "$floor" | awk -v p="$packets" '/^run [23]:/ {s += $6; n++} END {printf "floor: %.1f ns CPU per packet (%d packets)\n", s / n * 1e9 / p, p}' > "$DIR/floor.txt"
cat "$DIR/floor.txt"
f=$(awk '{print $2}' "$DIR/floor.txt")
echo "$out" | awk -v f="$f" '/^read \+ match, rounds/ {
  for (i = 1; i <= NF; i++) { if ($i == "old" && o == "") o = $(i + 1); if ($i == "new" && n == "") n = $(i + 1) }
  printf "distance closed since the round start: 1 - (%.1f - %.1f) / (%.1f - %.1f) = %.0f %%\n", n, f, o, f, 100 * (1 - (n - f) / (o - f)) }'
echo "load after: $(load)"
