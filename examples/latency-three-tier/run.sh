#!/usr/bin/env bash
# Runs examples/latency-three-tier across three network namespaces (the testbed's hosts):
# client on h1, server on h2, backend on h3, behind a router namespace; probe traces to OUTDIR/probe.
#
#   examples/latency-three-tier/run.sh OUTDIR [REQUESTS]
#
# Needs root and 'ip netns' (exit 77 otherwise), Java 17, and the probe jar (build it with
# 'mvn -q -DskipTests package' at the repository root; PROBE_JAR overrides its path, a jar or a
# classes directory). The router's link toward h2 is rate-limited (tbf) as in
# scripts/testbed/capture.sh, for asymmetric delays.
# Only creates (and always removes) its own namespaces tsl<PID>-*.
set -euo pipefail

OUT=${1:?usage: run.sh OUTDIR [REQUESTS]}
REQUESTS=${2:-500}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${PROBE_JAR:-$(ls "$ROOT"/tracesync-probe/target/tracesync-probe-*.jar 2>/dev/null | head -1)}
P="tsl$$"
HOSTS=(h1 h2 h3)
PIDS=()

if [ "$(id -u)" != 0 ]; then echo "run.sh: needs root" >&2; exit 77; fi
if ! command -v ip >/dev/null || ! command -v tc >/dev/null; then echo "run.sh: needs iproute2 (ip, tc)" >&2; exit 77; fi
if [ -z "$JAR" ] || [ ! -e "$JAR" ]; then echo "run.sh: probe jar missing; run 'mvn -q -DskipTests package' first" >&2; exit 2; fi
mkdir -p "$OUT/probe"
OUT=$(cd "$OUT" && pwd)

cleanup() {
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  for h in "${HOSTS[@]}" r; do ip netns del "$P-$h" 2>/dev/null || true; done
}
trap cleanup EXIT

ip netns add "$P-r" || exit 77
ip netns exec "$P-r" ip link set lo up
ip netns exec "$P-r" sysctl -qw net.ipv4.ip_forward=1
i=0
for h in "${HOSTS[@]}"; do
  i=$((i + 1))
  ns="$P-$h"
  ip netns add "$ns"
  ip netns exec "$ns" ip link set lo up
  ip link add "$P$h" type veth peer name "$P${h}r"
  ip link set "$P$h" netns "$ns"
  ip link set "$P${h}r" netns "$P-r"
  ip netns exec "$ns" ip link set "$P$h" name eth0
  ip netns exec "$P-r" ip link set "$P${h}r" name "to$h"
  ip netns exec "$ns" ip addr add "10.252.$i.1/24" dev eth0
  ip netns exec "$ns" ip link set eth0 up
  ip netns exec "$ns" ip route add 10.252.0.0/16 via "10.252.$i.254"
  ip netns exec "$P-r" ip addr add "10.252.$i.254/24" dev "to$h"
  ip netns exec "$P-r" ip link set "to$h" up
done
ip netns exec "$P-r" tc qdisc add dev toh2 root tbf rate 40mbit burst 16kb latency 100ms

java_in() { local h=$1; shift; ip netns exec "$P-$h" java -Xmx256m -cp "$JAR" "$HERE/ThreeTier.java" "$@"; }
java_in h3 backend 7300 "$OUT/probe" h3 > "$OUT/h3.log" 2>&1 & PIDS+=($!)
java_in h2 server 7200 10.252.3.1 7300 "$OUT/probe" h2 > "$OUT/h2.log" 2>&1 & PIDS+=($!)
for _ in $(seq 300); do grep -q "listening" "$OUT/h3.log" 2>/dev/null && grep -q "listening" "$OUT/h2.log" 2>/dev/null && break; sleep 0.1; done
java_in h1 client 10.252.2.1 7200 "$REQUESTS" "$OUT/probe" h1 > "$OUT/h1.log" 2>&1
for pid in "${PIDS[@]}"; do wait "$pid"; done
PIDS=()
cat "$OUT/h1.log"
ls "$OUT/probe"
