#!/usr/bin/env bash
# Issue #13's acceptance grid for long 2-node traces (docs/PERFORMANCE.md, "Long traces",
# "Acceptance grid"): each clock behaviour (quadratic drift, frequency random walk, NTP-like rate
# corrections + two 500 ppm slews per clock, two steps) x message rate x minimum latency x
# duration, simulated with simulate's clock models, synchronized in-process by the default
# pipeline and scored against the true clocks. One line per case: inversions, truth inside the
# bounds, max error against the minimum latency, the floors under any estimator at the slews
# (bridges up to 1,000 ppm; bridges no faster than the simulated 500 ppm slew, "floor500"),
# steps found. Accuracy only: nothing here is timed.
#
#   scripts/benchmark/long-grid.sh [BEHAVIOURS] [RATES] [LATENCIES_US] [HOURS] [SEED] [MAX_SLEW_RATE_PPM]
#
# Each argument is a comma-separated list, "-" for the default (all behaviours; 2,5,50 msg/s;
# 30,60 us; 2,6,12 h; seed 1; no slew-rate bound). MAX_SLEW_RATE_PPM synchronizes as
# `sync --max-slew-rate PPM` does. GRID_JAVA_OPTS adds JVM options (-Dgrid.floors=false skips the
# floors, which do not depend on the fit). The full grid (72 cases, up to 4.3 M messages each) takes about
# 4 minutes of CPU and 3 GB of heap for the 12 h cases at 50 msg/s.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
JAR="$HERE/tracesync-benchmarks/target/benchmarks.jar"
if [ ! -f "$JAR" ]; then
  (cd "$HERE" && mvn -B -q -o -pl tracesync-benchmarks -am package -DskipTests)
fi
exec java -Xmx3g ${GRID_JAVA_OPTS:-} -cp "$JAR" org.tracesync.benchmarks.LongTraceGridRun "$@"
