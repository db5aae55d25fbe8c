#!/usr/bin/env bash
# Same results as an older build: runs `sync` with BASE_JAR and with this checkout's built CLI on
# every input of ../shared/data (the 12 LTTV unit-test files, three-hosts' messages and captures,
# the scp CTF pair) and on any extra FILEs given, and compares the result files byte for byte and
# the summaries and exit codes (the output file's own name aside).
#
#   scripts/benchmark/same-results.sh BASE_JAR [FILE...]
#
# With NOW_BIN=bin/tracesync (or any launcher), this checkout's side runs through that launcher and
# so with the JVM options it chooses (C1 alone and G1 for small inputs), instead of java -jar.
set -uo pipefail
BASE=${1:?usage: same-results.sh BASE_JAR [FILE...]}; shift
HERE=$(cd "$(dirname "$0")/../.." && pwd)
D=$HERE/../shared/data
# without OUT the outputs go to a temporary directory, removed when every input gave the same
[ -z "${OUT:-}" ] && { OUT=$(mktemp -d); TEMP_OUT=yes; }
# a given OUT that does not exist yet is made (else every input would show as DIFFER)
mkdir -p "$OUT" || { echo "same-results.sh: cannot make the output directory $OUT" >&2; exit 2; }
inputs=()
for k in $(seq 1 12); do inputs+=("$D/lttv-text/test$k.txt"); done
inputs+=("$D/pcap/three-hosts/messages.txt" "$D/pcap/three-hosts/h1.pcap $D/pcap/three-hosts/h2.pcap $D/pcap/three-hosts/h3.pcap"
         "$D/ctf/scp_src $D/ctf/scp_dest")
for f in "$@"; do inputs+=("$f"); done
differ=0
i=0
for args in "${inputs[@]}"; do
  i=$((i + 1))
  for who in base now; do
    jar=$BASE; [ $who = now ] && jar=$HERE/tracesync-cli/target/tracesync.jar
    # shellcheck disable=SC2086
    if [ $who = now ] && [ -n "${NOW_BIN:-}" ]; then
      "$NOW_BIN" sync $args -o "$OUT/$i-$who.json" > "$OUT/$i-$who.out" 2>&1
    else
      java -Xmx1g -XX:+UseParallelGC -jar "$jar" sync $args -o "$OUT/$i-$who.json" > "$OUT/$i-$who.out" 2>&1
    fi
    echo "exit $?" >> "$OUT/$i-$who.out"
    sed -i "s|$OUT/$i-$who.json|RESULT|" "$OUT/$i-$who.out"
  done
  if cmp -s "$OUT/$i-base.json" "$OUT/$i-now.json" && cmp -s "$OUT/$i-base.out" "$OUT/$i-now.out"; then
    echo "same    ($(tail -1 "$OUT/$i-now.out")): $args"
  else
    echo "DIFFER: $args (see $OUT/$i-*)"; differ=1
  fi
done
if [ $differ = 0 ] && [ -n "${TEMP_OUT:-}" ]; then rm -rf "$OUT"; else echo "outputs in $OUT"; fi
exit $differ
