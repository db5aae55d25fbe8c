#!/usr/bin/env bash
# Whole-process A/B of a 2-message `sync` between two built checkouts (docs/PERFORMANCE.md, "Start"):
# each one's bin/tracesync, so each runs with its own start jar and archive, alternated A, B, A, B...;
# CPU (user + sys of the process) to the millisecond from bash's `time`, one warm-up pair dropped.
# Prints the load, the medians of each, the median of the pair-by-pair ratios A/B, and whether
# both wrote the same result file.
#
#   scripts/benchmark/sync2-ab.sh A/bin/tracesync B/bin/tracesync [PAIRS]
set -euo pipefail
A=$1
B=$2
N=${3:-41}
WORK=${WORK:-/tmp/tracesync-sync2-ab}
mkdir -p "$WORK"
TWO=$WORK/two.txt
printf '2\n0 1 1700000000.000487243 1700000000.080661399\n1 0 1700000000.080700000 1700000000.000600000\n' > "$TWO"
TIMEFORMAT='%3R %3U %3S'
: > "$WORK/a.txt"
: > "$WORK/b.txt"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $N pairs after one warm-up pair, alternated"
for i in $(seq 0 "$N"); do
  { time "$A" sync "$TWO" -o "$WORK/a.json" -q ; } 2>> "$WORK/a.txt"
  { time "$B" sync "$TWO" -o "$WORK/b.json" -q ; } 2>> "$WORK/b.txt"
done
sed -i 1d "$WORK/a.txt"
sed -i 1d "$WORK/b.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -n | awk '{r[NR]=$1} END{print r[int((NR+1)/2)]}'; }
echo "A: cpu $(awk '{print $2+$3}' "$WORK/a.txt" | med) s, wall $(awk '{print $1}' "$WORK/a.txt" | med) s (medians)"
echo "B: cpu $(awk '{print $2+$3}' "$WORK/b.txt" | med) s, wall $(awk '{print $1}' "$WORK/b.txt" | med) s"
echo "A/B pair by pair (medians): cpu $(paste "$WORK/a.txt" "$WORK/b.txt" | awk '{print ($2+$3)/($5+$6)}' | med)," \
  "wall $(paste "$WORK/a.txt" "$WORK/b.txt" | awk '{print $1/$4}' | med)"
cmp -s "$WORK/a.json" "$WORK/b.json" && echo "A and B wrote the same result" || echo "A and B results differ"
