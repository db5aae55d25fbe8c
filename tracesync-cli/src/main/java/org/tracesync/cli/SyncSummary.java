package org.tracesync.cli;

import java.util.List;
import java.util.Locale;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.LinearSegment;

/** The human-readable summary `sync` prints: pairs, then nodes, then warnings. */
public final class SyncSummary {

    private SyncSummary() {
    }

    public static String format(SyncResult r, List<String> inputWarnings) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d nodes, %s messages, reference %s%n", r.nodes().size(),
                r.stats().getOrDefault("messages", "?"), r.reference()));
        sb.append(String.format(Locale.ROOT, "%nPairs%n  %-12s %-12s %8s %8s %11s  %-10s  %-27s  %s%n",
                "a", "b", "a->b", "b->a", "hull pts", "quality", "drift range [min, max]", "mean accuracy"));
        for (PairResult p : r.pairs()) {
            sb.append(String.format(Locale.ROOT, "  %-12s %-12s %8d %8d %11s  %-10s  %-27s  %s%n",
                    p.a(), p.b(), p.messagesAToB(), p.messagesBToA(), p.hullAToB() + "/" + p.hullBToA(),
                    p.pieces() > 1 ? p.quality().label() + " " + p.pieces() : p.quality().label(),
                    p.pieces() > 1 ? "(" + p.steps().size() + " step" + (p.steps().size() == 1 ? ")" : "s)")
                            : "[" + drift(p.driftMin()) + ", " + drift(p.driftMax()) + "]",
                    duration(p.meanAccuracy())));
        }
        sb.append(String.format(Locale.ROOT, "%nNodes%n  %-12s %-12s %-10s %18s %14s  %-24s  %s%n",
                "node", "reference", "quality", "offset", "drift", "bounds at start (-/+)", "bounds at end (-/+)"));
        for (NodeResult n : r.nodes()) {
            LinearSegment s = n.transform().segments().get(0);
            String offset = n.transform().isLinear() ? duration(s.offset()) : "piecewise";
            String drift = n.transform().isLinear() ? drift(s.drift()) : "";
            sb.append(String.format(Locale.ROOT, "  %-12s %-12s %-10s %18s %14s  %-24s  %s%n",
                    n.name(), n.reference(), n.quality().label(), offset, drift,
                    boundsAt(n, n.start()), boundsAt(n, n.end())));
        }
        boolean header = false;
        for (String w : concat(inputWarnings, r.warnings())) {
            if (!header) {
                sb.append(String.format("%nWarnings%n"));
                header = true;
            }
            sb.append("  - ").append(w).append(System.lineSeparator());
        }
        return sb.toString();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        java.util.ArrayList<String> l = new java.util.ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    /** Bounds at local time t, interpolated/extrapolated from the rows. */
    static String boundsAt(NodeResult n, long t) {
        if (!n.synchronizedToOther()) {
            return n.quality().label().equals("reference") ? "exact (reference)" : "-";
        }
        if (n.bounds().isEmpty()) {
            return "unknown";
        }
        double[] mp = n.bounds().at(t);
        return duration(mp[0]) + " / " + duration(mp[1]);
    }

    static String drift(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        if (Double.isInfinite(d)) {
            return d < 0 ? "-inf" : "+inf";
        }
        return String.format(Locale.ROOT, "%.4g", d);
    }

    /** A duration in ns as a readable string: 12 ns, 3.40 us, 1.234 ms, 2.000001 s. */
    public static String duration(double ns) {
        if (Double.isNaN(ns)) {
            return "-";
        }
        if (Double.isInfinite(ns)) {
            return "unbounded";
        }
        double a = Math.abs(ns);
        if (a < 1e3) {
            return String.format(Locale.ROOT, "%.1f ns", ns);
        }
        if (a < 1e6) {
            return String.format(Locale.ROOT, "%.3f us", ns / 1e3);
        }
        if (a < 1e9) {
            return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.6f s", ns / 1e9);
    }
}
