#!/usr/bin/env bash
# CTF decoding and capture read + match against this machine's memory bandwidth, side by side in
# one run (docs/PERFORMANCE.md, "Distance to the memory bandwidth"):
#   floor    dd and MappedReadRun (a sequential 64-bit pass over the mapped files) on the page cache
#   decode   CtfReadRun: every field of every event of the CTF set (CtfTrace.read), CPU time
#   stages   TraceStageRun: the reading half (read, decode, merge, fill blocks) and the matching
#            half (TcpMatcher into the pair accumulators) apart, CPU time per event, both sets
#   sync     whole processes, alternated RUNS times: bin/tracesync sync on the CTF set and on the
#            capture set and, with BASELINE_JAR=path/to/an/older/tracesync.jar, that jar on the
#            same sets (java -Xmx1g -XX:+UseParallelGC -jar, as the launcher runs it); medians of
#            CPU (user + sys), wall and peak RSS; the result files of both versions compared.
#
#   scripts/benchmark/bandwidth.sh DIR [RUNS]
#
# DIR receives the data (never the repository): caps/ (CaptureLargeSet: 3 captures, 1.17 GB,
# 11.9 M packets) and ctf/ (the same captures through `tracesync convert --to ctf`, 776 MB).
# Needs the built CLI and benchmarks jar (mvn -q -DskipTests package). On a shared machine read
# the CPU times and the ratios of the same run; the load is printed before and after.
set -euo pipefail
. "$(dirname "$0")/times.sh"
DIR=${1:?usage: bandwidth.sh DIR [RUNS]}
RUNS=${2:-3}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
JAR=$HERE/tracesync-benchmarks/target/benchmarks.jar
[ -f "$JAR" ] || { echo "build the jars first: mvn -q -DskipTests package" >&2; exit 2; }
mkdir -p "$DIR"
if ! ls "$DIR"/caps/*.pcap > /dev/null 2>&1; then
  java -Xmx1g -cp "$JAR" org.tracesync.benchmarks.CaptureLargeSet "$DIR/caps"
fi
CAPS=("$DIR"/caps/*.pcap)
if [ ! -d "$DIR/ctf" ]; then
  "$HERE/bin/tracesync" convert --to ctf "${CAPS[@]}" --out "$DIR/ctf"
fi
CTFS=()
for c in "${CAPS[@]}"; do CTFS+=("$DIR/ctf/$(basename "$c" .pcap)"); done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1)"
echo "captures: $(du -cb "${CAPS[@]}" | tail -1 | cut -f1) bytes; CTF: $(du -cb "$DIR"/ctf/*/channel* | tail -1 | cut -f1) bytes; load $(load)"
cat "${CAPS[@]}" "$DIR"/ctf/*/channel* > /dev/null

echo "== floor: dd bs=1M of each capture from the page cache (3 passes), then a mapped sequential read"
for i in 1 2 3; do for c in "${CAPS[@]}"; do dd if="$c" of=/dev/null bs=1M 2>&1 | tail -1; done; done
java -cp "$JAR" org.tracesync.benchmarks.MappedReadRun 3 "$DIR/caps"
java -cp "$JAR" org.tracesync.benchmarks.MappedReadRun 3 "$DIR/ctf"

echo "== CTF decoding, every field (CtfTrace.read), load $(load)"
java -Xmx256m -cp "$JAR" org.tracesync.benchmarks.CtfReadRun 3 "${CTFS[@]}"

echo "== stages apart (CPU time of one thread per event), CTF set then captures, load $(load)"
java -Xmx3g -cp "$JAR" org.tracesync.formats.input.TraceStageRun 2 "${CTFS[@]}"
java -Xmx3g -cp "$JAR" org.tracesync.formats.input.TraceStageRun 2 "${CAPS[@]}"

echo "== whole processes, $RUNS alternated runs, load $(load)"
ORDER=(ctf caps)
[ -n "${BASELINE_JAR:-}" ] && ORDER+=(base-ctf base-caps)
for name in "${ORDER[@]}"; do : > "$DIR/times-$name"; done
for run in $(seq "$RUNS"); do
  for name in "${ORDER[@]}"; do
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$DIR/times-$name")
    case $name in
      ctf) "${t[@]}" "$HERE/bin/tracesync" sync "${CTFS[@]}" -o "$DIR/out-ctf.json" -q > /dev/null ;;
      caps) "${t[@]}" "$HERE/bin/tracesync" sync "${CAPS[@]}" -o "$DIR/out-caps.json" -q > /dev/null ;;
      base-ctf) "${t[@]}" java -Xmx1g -XX:+UseParallelGC -jar "$BASELINE_JAR" sync "${CTFS[@]}" -o "$DIR/out-base-ctf.json" -q > /dev/null ;;
      base-caps) "${t[@]}" java -Xmx1g -XX:+UseParallelGC -jar "$BASELINE_JAR" sync "${CAPS[@]}" -o "$DIR/out-base-caps.json" -q > /dev/null ;;
    esac
  done
done
print_medians "$DIR/times" "${ORDER[@]}"
if [ -n "${BASELINE_JAR:-}" ]; then
  for s in ctf caps; do
    cmp -s "$DIR/out-$s.json" "$DIR/out-base-$s.json" && echo "$s: both versions wrote the same result" \
      || echo "$s: the results differ"
  done
fi
echo "load after: $(load)"
