#!/usr/bin/env bash
# The whole testbed loop: real captures (capture.sh), per-host clocks applied (tracesync skew),
# synchronization, evaluation against the truth.
#
#   scripts/testbed/loop.sh OUTDIR [REQUESTS]
#
# Clock models (override with H2_CLOCK / H3_CLOCK = ALPHA,BETA,DELTA): h1 is the true clock.
set -euo pipefail
OUT=${1:?usage: loop.sh OUTDIR [REQUESTS]}
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${TRACESYNC_JAR:-$HERE/../../tracesync-cli/target/tracesync.jar}
[ -f "$JAR" ] || { echo "loop.sh: build first (mvn -q package -DskipTests): $JAR missing" >&2; exit 2; }
TS() { java -jar "$JAR" "$@"; }
"$HERE/capture.sh" "$OUT/raw" "${2:-300}"
NA=()
while IFS= read -r line; do NA+=(--node-address "$line"); done < "$OUT/raw/addresses"
TS skew "$OUT"/raw/h1.pcap "$OUT"/raw/h2.pcap "$OUT"/raw/h3.pcap --out "$OUT/skewed" --truth "$OUT/truth.json" \
  --clock "h2=${H2_CLOCK:-250000000,-3.5e-5,0}" --clock "h3=${H3_CLOCK:--730000000,6.1e-5,0}"
TS sync "$OUT"/skewed/h1.pcap "$OUT"/skewed/h2.pcap "$OUT"/skewed/h3.pcap "${NA[@]}" -o "$OUT/result.json"
TS eval "$OUT/result.json" "$OUT"/skewed/h1.pcap "$OUT"/skewed/h2.pcap "$OUT"/skewed/h3.pcap "${NA[@]}" \
  --truth "$OUT/truth.json"
TS apply "$OUT/result.json" --out "$OUT/synchronized" --merge "$OUT/merged.pcapng"
