#!/usr/bin/env bash
# tracesync testbed: real captures of real traffic between network namespaces.
#
#   scripts/testbed/capture.sh OUTDIR [REQUESTS]
#
# Builds three hosts h1, h2, h3 (namespaces) behind a router namespace, each on its own veth
# link (10.250.N.1/24, router 10.250.N.254), plus a shared segment (a bridge in the router
# namespace, 10.251.0.N/24) for UDP broadcast. netem is not available in this kernel: a tbf rate
# limiter on the router's link toward h2 gives real, load-dependent, asymmetric queueing delay.
# Traffic: request/response between every pair, a bulk transfer h1 -> h2, broadcasts from every
# host; all bounded. tcpdump runs on every host (-i any: Linux cooked SLL2 frames, ns
# timestamps, snaplen 128); traffic starts only after each tcpdump printed "listening on".
# All captures use the one kernel clock: scripts/testbed/loop.sh then skews them.
#
# Environment: BULK_BYTES (default 4000000) sizes the bulk transfer.
# Writes OUTDIR/h1.pcap, h2.pcap, h3.pcap and OUTDIR/addresses (NODE=ADDR,ADDR lines).
# Needs root and 'ip netns'; installs tcpdump/iproute2 with apt-get if missing. Only touches
# namespaces and addresses it creates (names tsb<PID>-*), and removes them on exit.
set -euo pipefail

OUT=${1:?usage: capture.sh OUTDIR [REQUESTS]}
REQUESTS=${2:-300}
HERE=$(cd "$(dirname "$0")" && pwd)
P="tsb$$"
HOSTS=(h1 h2 h3)
PIDS=()

if [ "$(id -u)" != 0 ]; then echo "capture.sh: needs root" >&2; exit 77; fi
if ! command -v tcpdump >/dev/null || ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
  apt-get install -y tcpdump iproute2 >/dev/null 2>&1 || { echo "capture.sh: cannot install tcpdump/iproute2" >&2; exit 77; }
fi
PY=$(command -v python3)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cleanup() {
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  for h in "${HOSTS[@]}" r; do ip netns del "$P-$h" 2>/dev/null || true; done
}
trap cleanup EXIT

ip netns add "$P-r"
ip netns exec "$P-r" ip link set lo up
ip netns exec "$P-r" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$P-r" ip link add br0 type bridge
ip netns exec "$P-r" ip link set br0 up
: > "$OUT/addresses"
i=0
for h in "${HOSTS[@]}"; do
  i=$((i + 1))
  ns="$P-$h"
  ip netns add "$ns"
  ip netns exec "$ns" ip link set lo up
  # routed link
  ip link add "$P$h" type veth peer name "$P${h}r"
  ip link set "$P$h" netns "$ns"
  ip link set "$P${h}r" netns "$P-r"
  ip netns exec "$ns" ip link set "$P$h" name eth0
  ip netns exec "$P-r" ip link set "$P${h}r" name "to$h"
  ip netns exec "$ns" ip addr add "10.250.$i.1/24" dev eth0
  ip netns exec "$ns" ip link set eth0 up
  ip netns exec "$ns" ip route add 10.250.0.0/16 via "10.250.$i.254"
  ip netns exec "$P-r" ip addr add "10.250.$i.254/24" dev "to$h"
  ip netns exec "$P-r" ip link set "to$h" up
  # shared segment
  ip link add "$P${h}b" type veth peer name "$P${h}p"
  ip link set "$P${h}b" netns "$ns"
  ip link set "$P${h}p" netns "$P-r"
  ip netns exec "$ns" ip link set "$P${h}b" name eth1
  ip netns exec "$ns" ip addr add "10.251.0.$i/24" brd 10.251.0.255 dev eth1
  ip netns exec "$ns" ip link set eth1 up
  ip netns exec "$P-r" ip link set "$P${h}p" master br0
  ip netns exec "$P-r" ip link set "$P${h}p" up
  echo "$h=10.250.$i.1,10.251.0.$i" >> "$OUT/addresses"
done
# asymmetric queueing: rate-limit the router's link toward h2 only
ip netns exec "$P-r" tc qdisc add dev toh2 root tbf rate 40mbit burst 16kb latency 100ms

# tcpdump on every host; wait for "listening on"
for h in "${HOSTS[@]}"; do
  ip netns exec "$P-$h" tcpdump -i any -s 128 -n -U --time-stamp-precision=nano -w "$OUT/$h.pcap" \
    2> "$OUT/$h.tcpdump.log" &
  PIDS+=($!)
done
for h in "${HOSTS[@]}"; do
  for _ in $(seq 100); do grep -q "listening on" "$OUT/$h.tcpdump.log" && break; sleep 0.1; done
  grep -q "listening on" "$OUT/$h.tcpdump.log" || { echo "capture.sh: tcpdump on $h did not start" >&2; cat "$OUT/$h.tcpdump.log" >&2; exit 1; }
done

run() { ip netns exec "$P-$1" "$PY" "$HERE/traffic.py" "${@:2}"; }
# servers (they stop by themselves once their clients have left)
SERVERS=()
for h in "${HOSTS[@]}"; do ip netns exec "$P-$h" "$PY" "$HERE/traffic.py" serve 7000 & SERVERS+=($!); done
ip netns exec "$P-h2" "$PY" "$HERE/traffic.py" sink 7100 & SINK=$!
SERVERS+=($SINK)
sleep 0.3
# request/response between every pair, bulk h1 -> h2, broadcasts from everyone
CL=()
run h1 client 10.250.2.1 7000 "$REQUESTS" 1 & CL+=($!)
run h1 client 10.250.3.1 7000 "$REQUESTS" 2 & CL+=($!)
run h2 client 10.250.3.1 7000 "$REQUESTS" 3 & CL+=($!)
run h3 client 10.250.1.1 7000 "$((REQUESTS / 2))" 4 & CL+=($!)
(sleep 0.5; run h1 bulk 10.250.2.1 7100 "${BULK_BYTES:-4000000}") & CL+=($!)
i=0
for h in "${HOSTS[@]}"; do
  i=$((i + 1))
  run "$h" bcast "10.251.0.$i" 10.251.0.255 9999 40 "$h" & CL+=($!)
done
for pid in "${CL[@]}"; do wait "$pid"; done
for pid in "${SERVERS[@]}"; do wait "$pid" || true; done
sleep 0.3
for pid in "${PIDS[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
PIDS=()
for h in "${HOSTS[@]}"; do
  echo "$h: $(grep -Eo '[0-9]+ packets captured' "$OUT/$h.tcpdump.log")"
done
