#!/usr/bin/env bash
# CTF decoding, the reading half and whole-process sync of two builds side by side, alternated in
# one call (docs/PERFORMANCE.md, "Distance to the memory bandwidth", the 2026-11-23 sessions):
#   scripts/benchmark/ctf-ab.sh CTF_SET ROUNDS OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR OLD_CLI_JAR NEW_CLI_JAR
# CTF_SET holds the trace directories n1 n2 n3 (bandwidth.sh's ctf/ set, made by `tracesync
# convert --to ctf` from CaptureLargeSet). Per round and build, after reading the set once so that
# every round starts from the same page cache: CtfReadRun (every field, CPU ns per event of runs 2
# and 3), TraceStageRun's reading half (CPU ns per event of runs 2 and 3: run 1 also pays the JIT's
# warm-up), then `sync` on the set (java -Xmx1g -XX:+UseParallelGC -jar, as the launcher runs it;
# CPU = user + sys, wall, peak RSS). At the end: per measure, the median over rounds of each build
# and the median of the per-round ratios new/old (each pair of runs shares the load of its
# moment). Prints the load before, per round and after, and whether both builds wrote the same
# result file. Seventh session: RUNS (environment, default 5) runs per benchmark process, whose
# runs 2..RUNS give the process's median.
set -euo pipefail
RUNS=${RUNS:-5}
SET=${1:?usage: ctf-ab.sh CTF_SET ROUNDS OLD_BENCH NEW_BENCH OLD_CLI NEW_CLI}
ROUNDS=$2
BENCH=("$3" "$4")
CLI=("$5" "$6")
NAME=(old new)
T=("$SET/n1" "$SET/n2" "$SET/n3")
OUT=$(mktemp -d)
. "$(dirname "$0")/times.sh"
echo "load $(load); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for r in $(seq "$ROUNDS"); do
  for k in 0 1; do
    n=${NAME[$k]}
    for dir in "${T[@]}"; do cat "$dir"/*; done > /dev/null
    d=$(java -Xmx256m -cp "${BENCH[$k]}" org.tracesync.benchmarks.CtfReadRun "$RUNS" "${T[@]}" | tail -n $((RUNS - 1)) \
      | awk '{print $11}')
    s=$(java -Xmx3g -cp "${BENCH[$k]}" org.tracesync.formats.input.TraceStageRun "$RUNS" "${T[@]}" | grep reading \
      | tail -n $((RUNS - 1)) | awk '{print $5}')
    /usr/bin/time -f "%e %U %S %M" -o "$OUT/time" java -Xmx1g -XX:+UseParallelGC -jar "${CLI[$k]}" sync "${T[@]}" \
      -o "$OUT/out-$n.json" -q > /dev/null
    w=$(awk '{printf "cpu %.2f s, wall %.2f s, RSS %.0f MB", $2 + $3, $1, $4 / 1024}' "$OUT/time")
    echo "$d" | median >> "$OUT/decode-$n"
    echo "$s" | median >> "$OUT/reading-$n"
    awk '{print $2 + $3}' "$OUT/time" >> "$OUT/sync-$n"
    echo "round $r $n: decode every field $(echo $d | tr '\n' ' ')ns/event; reading half $(echo $s | tr '\n' ' ')ns/event;" \
      "sync $w (load $(load))"
  done
done
cmp -s "$OUT/out-old.json" "$OUT/out-new.json" && echo "sync: both builds wrote the same result file" \
  || echo "sync: the result files differ"
for m in decode reading sync; do
  ratio=$(paste "$OUT/$m-new" "$OUT/$m-old" | awk '{print $1 / $2}' | median)
  echo "$m: old median $(median < "$OUT/$m-old"), new median $(median < "$OUT/$m-new"), ratio new/old (median of rounds) $ratio"
done
echo "load $(load)"
rm -rf "$OUT"
