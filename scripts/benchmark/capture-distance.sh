#!/usr/bin/env bash
# Capture read + match against this machine's memory bandwidth, this build side by side with an
# older one in one run (docs/PERFORMANCE.md, "Distance to the memory bandwidth", captures):
#   floor    MappedReadRun: the captures mapped and summed as 64-bit words in file order (CPU time)
#   stages   TraceStageRun, alternated with the baseline's: the reading half (read, decode, merge,
#            fill blocks) and the matching half (TcpMatcher into the pair accumulators), CPU ns of
#            one thread per packet, runs 2..REPEAT of each process (run 1 includes the JIT warm-up)
#   same     with BASELINE_BENCH_JAR: StageAlternation, both builds' TraceStageRun in one process
#            (a class loader each), RUNS + 2 rounds, round 1 left out: the steadier ratio under load
#   sync     whole processes alternated RUNS times: bin/tracesync sync on the captures and the
#            baseline CLI jar on the same files (java -Xmx1g -XX:+UseParallelGC -jar, as the
#            launcher runs it); CPU (user + sys), wall, peak RSS; the result files compared.
#
#   BASELINE_BENCH_JAR=old/benchmarks.jar BASELINE_JAR=old/tracesync.jar \
#     scripts/benchmark/capture-distance.sh DIR [RUNS] [REPEAT]
#
# DIR/caps holds the captures (CaptureLargeSet: 3 captures, 1.17 GB, 11.9 M packets; made when
# absent; EXCHANGES=true makes the set whose pairs have one connection each, so that exchanges
# complete: CaptureLargeSet -Dexchanges=true). Needs this build's jars (mvn -q -DskipTests
# package). On a shared machine read the CPU times and the ratios of the same run; the load is
# printed with each figure.
set -euo pipefail
. "$(dirname "$0")/times.sh"
DIR=${1:?usage: capture-distance.sh DIR [RUNS] [REPEAT]}
RUNS=${2:-3}
REPEAT=${3:-4}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
JAR=$HERE/tracesync-benchmarks/target/benchmarks.jar
[ -f "$JAR" ] || { echo "build the jars first: mvn -q -DskipTests package" >&2; exit 2; }
mkdir -p "$DIR/caps"
if ! ls "$DIR"/caps/*.pcap > /dev/null 2>&1; then
  java -Xmx1g -Dexchanges="${EXCHANGES:-false}" -cp "$JAR" org.tracesync.benchmarks.CaptureLargeSet "$DIR/caps"
fi
CAPS=("$DIR"/caps/*.pcap)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1)"
echo "captures: $(du -cb "${CAPS[@]}" | tail -1 | cut -f1) bytes; load $(load)"
cat "${CAPS[@]}" > /dev/null

echo "== floor: mapped sequential read, load $(load)"
java -cp "$JAR" org.tracesync.benchmarks.MappedReadRun 3 "$DIR/caps"

echo "== stages apart (CPU ns of one thread per packet, runs 2..$REPEAT), alternated"
STAGE_JARS=("$JAR")
[ -n "${BASELINE_BENCH_JAR:-}" ] && STAGE_JARS+=("$BASELINE_BENCH_JAR")
for run in $(seq "$RUNS"); do
  for j in "${STAGE_JARS[@]}"; do
    name=this; [ "$j" = "$JAR" ] || name=baseline
    out=$(java -Xmx3g -cp "$j" org.tracesync.formats.input.TraceStageRun "$REPEAT" "${CAPS[@]}" | grep -v 'run 1:')
    r=$(echo "$out" | awk '/reading half/ {printf "%s ", $5}')
    m=$(echo "$out" | awk '/matching half/ {printf "%s ", $5}')
    echo "$name: reading $r| matching $m| load $(load)"
  done
done

if [ -n "${BASELINE_BENCH_JAR:-}" ]; then
  echo "== same process, baseline (old) and this build (new) alternated, load $(load)"
  java -Xmx4g -cp "$JAR" org.tracesync.benchmarks.StageAlternation $((RUNS + 2)) "$BASELINE_BENCH_JAR" "$JAR" "${CAPS[@]}"
fi

echo "== whole processes, $RUNS alternated runs, load $(load)"
ORDER=(caps)
[ -n "${BASELINE_JAR:-}" ] && ORDER+=(base-caps)
for name in "${ORDER[@]}"; do : > "$DIR/times-$name"; done
for run in $(seq "$RUNS"); do
  for name in "${ORDER[@]}"; do
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$DIR/times-$name")
    case $name in
      caps) "${t[@]}" "$HERE/bin/tracesync" sync "${CAPS[@]}" -o "$DIR/out-caps.json" -q > /dev/null ;;
      base-caps) "${t[@]}" java -Xmx1g -XX:+UseParallelGC -jar "$BASELINE_JAR" sync "${CAPS[@]}" -o "$DIR/out-base-caps.json" -q > /dev/null ;;
    esac
  done
done
print_medians "$DIR/times" "${ORDER[@]}"
if [ -n "${BASELINE_JAR:-}" ]; then
  cmp -s "$DIR/out-caps.json" "$DIR/out-base-caps.json" && echo "both versions wrote the same result" \
    || echo "the results differ"
fi
echo "load after: $(load)"
