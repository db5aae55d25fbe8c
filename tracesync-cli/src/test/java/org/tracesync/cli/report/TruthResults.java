package org.tracesync.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.core.transform.ClockTransform;

/**
 * Builds a plausible {@link SyncResult} straight from a simulation's true clocks (node 0, whose
 * clock is perfect, as reference; bounds ±{@code halfWidth} ns), so the report can be tested
 * without the synchronization engine.
 */
final class TruthResults {

    private TruthResults() {
    }

    static SyncResult fromTruth(SimulationConfig config, double halfWidth) {
        int n = config.nodeCount();
        long[] first = new long[n];
        long[] last = new long[n];
        java.util.Arrays.fill(first, Long.MAX_VALUE);
        java.util.Arrays.fill(last, Long.MIN_VALUE);
        long[][] counts = new long[n][n];
        new ClusterSimulator(config).run((s, r, ts, tr) -> {
            first[s] = Math.min(first[s], ts);
            last[s] = Math.max(last[s], ts);
            first[r] = Math.min(first[r], tr);
            last[r] = Math.max(last[r], tr);
            counts[s][r]++;
        });
        List<ClockModel> clocks = config.clocks();
        String ref = clocks.get(0).name();
        List<NodeResult> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ClockModel c = clocks.get(i);
            if (i == 0) {
                nodes.add(new NodeResult(ref, "sim", ref, Quality.REFERENCE, ClockTransform.identity(first[0]),
                        NodeBounds.NONE, List.of(ref), first[0], last[0], ""));
                continue;
            }
            long origin = first[i];
            double offset = clocks.get(0).local(c.trueTime(origin)) - origin;
            double drift = 1 / (1 + c.beta()) - 1;
            List<BoundRow> rows = new ArrayList<>();
            for (int k = 0; k <= 4; k++) {
                long t = first[i] + (last[i] - first[i]) / 4 * k;
                double w = halfWidth * (1 + Math.abs(k - 2) * 0.5);
                rows.add(new BoundRow(t, w, w * 1.2));
            }
            nodes.add(new NodeResult(c.name(), "sim", ref, Quality.ACCURATE, ClockTransform.linear(origin, offset, drift),
                    NodeBounds.ofRows(rows), List.of(c.name(), ref), first[i], last[i], ""));
        }
        List<PairResult> pairs = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (counts[a][b] + counts[b][a] == 0) {
                    continue;
                }
                // b's clock as a function of a's: y = x + offset + drift (x − origin)
                long origin = first[a];
                ClockModel ca = clocks.get(a);
                ClockModel cb = clocks.get(b);
                double offset = cb.local(ca.trueTime(origin)) - origin;
                double drift = (1 + cb.beta()) / (1 + ca.beta()) - 1;
                pairs.add(new PairResult(ca.name(), cb.name(), Quality.ACCURATE, counts[a][b], counts[b][a], 7, 6,
                        drift - 1e-7, drift + 1e-7, offset, drift, origin, 2 * halfWidth, 0, 0, ""));
            }
        }
        return new SyncResult(ref, nodes, pairs, Map.of("messages", 1), List.of());
    }
}
