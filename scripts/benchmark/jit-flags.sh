#!/usr/bin/env bash
# JIT flags side by side (docs/PERFORMANCE.md, "Synchronization engine", fourth round): alternated
# whole-process runs of `bin/tracesync sync INPUT... -o OUT -q`, once per NAME=JAVA_OPTS (the
# launcher's TRACESYNC_JAVA_OPTS, which replaces its defaults: repeat them; `default` runs the
# launcher as it is), then the median wall, CPU (user + sys) and peak RSS of each, and whether
# every variant wrote the first one's result.
#
#   scripts/benchmark/jit-flags.sh RUNS "INPUT..." default "c1=-Xmx1g -XX:+UseParallelGC -XX:TieredStopAtLevel=1" ...
set -euo pipefail
. "$(dirname "$0")/times.sh"
RUNS=${1:?usage: jit-flags.sh RUNS "INPUT..." NAME=JAVA_OPTS|default ...}
INPUTS=$2
shift 2
HERE=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tracesync-jit-flags}
mkdir -p "$WORK"
names=()
for spec in "$@"; do names+=("${spec%%=*}"); : > "$WORK/times-${spec%%=*}"; done
echo "inputs: $INPUTS; load before: $(load)"
for run in $(seq "$RUNS"); do
  for spec in "$@"; do
    name=${spec%%=*}
    t=(/usr/bin/time -f "%e %U %S %M" -a -o "$WORK/times-$name")
    # shellcheck disable=SC2086
    if [ "$spec" = default ]; then
      "${t[@]}" "$HERE/bin/tracesync" sync $INPUTS -o "$WORK/out-$name.json" -q > /dev/null || true
    else
      TRACESYNC_JAVA_OPTS="${spec#*=}" "${t[@]}" "$HERE/bin/tracesync" sync $INPUTS -o "$WORK/out-$name.json" -q > /dev/null || true
    fi
  done
done
print_medians "$WORK/times" "${names[@]}"
for name in "${names[@]}"; do
  cmp -s "$WORK/out-${names[0]}.json" "$WORK/out-$name.json" || echo "$name wrote another result than ${names[0]}"
done
echo "load after: $(load)"
