#!/usr/bin/env bash
# Capture read+match benchmark, side by side with tshark in one run (docs/PERFORMANCE.md,
# "Packet captures"), on every *.pcap of DIR. Generates the simulated set if DIR has none
# (6 M segments, about 1.1 GB); CaptureReplicatedSet builds one from real captures instead.
#
#   scripts/benchmark/captures.sh DIR [SEGMENTS]
#
# tshark is slow on this set (TCP analysis state per frame): each file gets at most
# TSHARK_SECONDS (default 120) and its rate is taken over the packets it printed by then.
#
# Needs the built benchmarks jar (mvn -q -pl tracesync-benchmarks -am package -DskipTests).
set -euo pipefail
DIR=${1:?usage: captures.sh DIR [SEGMENTS]}
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=$HERE/../../tracesync-benchmarks/target/benchmarks.jar
[ -f "$JAR" ] || { echo "build the benchmarks jar first" >&2; exit 2; }
if ! ls "$DIR"/*.pcap >/dev/null 2>&1; then
  java -Xmx1g -cp "$JAR" org.tracesync.benchmarks.CaptureLargeSet "$DIR" "${2:-6000000}"
fi
FILES=("$DIR"/*.pcap)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM, load $(cut -d' ' -f1-3 /proc/loadavg)"
du -ch "${FILES[@]}" | tail -1
cat "${FILES[@]}" > /dev/null   # page cache warm for both tools
# sync's default (a reading thread when there is a second processor), then everything on one
# thread: what a single core, or a machine whose other cores are busy, gets
for mode in true false; do
  echo "== tracesync read + match into the pair accumulators (3 runs, -Xmx256m, readerThread=$mode), load $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "max RSS %M KB, %e s wall" java -Xmx256m -DreaderThread=$mode -cp "$JAR" \
    org.tracesync.benchmarks.CaptureReadMatchRun 3 "${FILES[@]}"
done
echo "== tshark -n -r FILE -T fields -e frame.time_epoch (read only, no matching), at most ${TSHARK_SECONDS:=120} s per file"
total=0
secs=0
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "${FILES[@]}"; do
  start=$(date +%s.%N)
  n=$(timeout "$TSHARK_SECONDS" tshark -n -r "$f" -T fields -e frame.time_epoch 2>/dev/null | wc -l || true)
  end=$(date +%s.%N)
  el=$(echo "$end - $start" | bc)
  echo "tshark $(basename "$f"): $n packets in $el s"
  total=$((total + n))
  secs=$(echo "$secs + $el" | bc)
done
echo "tshark: $total packets in $secs s = $(echo "scale=4; $total / $secs / 1000000" | bc) M packets/s"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
