#!/usr/bin/env bash
# apply on large simulated JSON-lines logs (docs/PERFORMANCE.md, "apply for JSON lines"): CPU per
# MB and peak memory of whole processes, a quarter-size set and the full set alternated RUNS times:
#   quarter, full     bin/tracesync apply RESULT h1.jsonl h2.jsonl --out OUT (the launcher's options)
#   full-annotate     the same with --annotate (the bounds field on every event)
#   full-merge        the same with --merge instead of --out (one file, both nodes)
#   q-64m, full-64m   quarter and full with TRACESYNC_JAVA_OPTS="-Xmx64m -XX:+UseSerialGC": streaming
#                     means both fit in the same small heap and their peak RSS is the same
# Each set is 2 nodes simulated with 2 clock steps (a 3-piece transform; seed 1), synced once.
#
#   scripts/benchmark/jsonl-apply.sh DIR [RUNS] [RATE] [DURATION]
#
# DIR/full and DIR/quarter are made when absent (defaults: rate 400 messages/s over 1h: 2 files of
# about 110 MB). Needs this build's launcher (mvn -q -DskipTests package). Read CPU (user + sys)
# medians and ratios of the same run on a shared machine; the load is printed with each figure.
set -euo pipefail
. "$(dirname "$0")/times.sh"
DIR=${1:?usage: jsonl-apply.sh DIR [RUNS] [RATE] [DURATION]}
RUNS=${2:-3}
RATE=${3:-400}
DURATION=${4:-1h}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
TS=$HERE/bin/tracesync
[ -x "$TS" ] && [ -f "$HERE/tracesync-cli/target/tracesync.jar" ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 2; }
seconds() { case $1 in *h) echo $((${1%h} * 3600));; *m) echo $((${1%m} * 60));; *s) echo "${1%s}";; *) echo "$1";; esac; }
QUARTER=$(( $(seconds "$DURATION") / 4 ))s
for set in full quarter; do
  d=$DURATION; [ $set = quarter ] && d=$QUARTER
  if [ ! -f "$DIR/$set/result.json" ]; then
    rm -rf "$DIR/$set"
    "$TS" simulate -o "$DIR/$set/sim" --nodes 2 --rate "$RATE" --duration "$d" --format jsonl --steps 2 --seed 1
    "$TS" sync -q "$DIR/$set/sim/h1.jsonl" "$DIR/$set/sim/h2.jsonl" -o "$DIR/$set/result.json" || [ $? -eq 1 ]
  fi
done
bytes() { du -cb "$DIR/$1/sim/h1.jsonl" "$DIR/$1/sim/h2.jsonl" | tail -1 | cut -f1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB RAM; $(java -version 2>&1 | head -1)"
echo "full: $(bytes full) bytes, quarter: $(bytes quarter) bytes; load $(load)"
T=$(mktemp -d "${TMPDIR:-/tmp}/jsonl-apply.XXXXXX")
run() { # NAME SET JAVA_OPTS|- [APPLY OPTIONS...]
  local name=$1 set=$2 opts=$3 envs=()
  shift 3
  [ "$opts" = - ] || envs=("TRACESYNC_JAVA_OPTS=$opts")
  rm -rf "$T/out" "$T/merged.jsonl"
  cat "$DIR/$set/sim/h1.jsonl" "$DIR/$set/sim/h2.jsonl" > /dev/null
  /usr/bin/time -f "%e %U %S %M" -a -o "$T/t-$name" env "${envs[@]}" "$TS" apply "$DIR/$set/result.json" \
    "$DIR/$set/sim/h1.jsonl" "$DIR/$set/sim/h2.jsonl" "$@" > /dev/null
}
SMALL="-Xmx64m -XX:+UseSerialGC"
for i in $(seq "$RUNS"); do
  run quarter quarter - --out "$T/out"
  run full full - --out "$T/out"
  run full-annotate full - --out "$T/out" --annotate
  run full-merge full - --merge "$T/merged.jsonl"
  run q-64m quarter "$SMALL" --out "$T/out"
  run full-64m full "$SMALL" --out "$T/out"
  echo "round $i done, load $(load)"
done
print_medians "$T/t" quarter full full-annotate full-merge q-64m full-64m
for name in quarter full full-annotate full-merge q-64m full-64m; do
  set=full; [ "${name#q}" != "$name" ] && set=quarter
  cpu=$(awk '{print $2 + $3}' "$T/t-$name" | median)
  awk -v b="$(bytes $set)" -v c="$cpu" -v n="$name" 'BEGIN {printf "%-13s %6.1f MB/s of CPU (input MB / median CPU s)\n", n, b / 1e6 / c}'
done
rm -rf "$T"
