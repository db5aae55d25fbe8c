package org.tracesync.cli;

import java.util.List;
import org.tracesync.cli.report.Notes;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.LinearSegment;

/**
 * The human-readable summary `sync` prints: pairs, then nodes, then warnings. Columns and numbers by
 * {@link PlainFormat}, which prints what {@code String.format(Locale.ROOT, …)} printed here before,
 * without the locale data a Formatter loads for its first number (docs/PERFORMANCE.md, "Start").
 */
public final class SyncSummary {

    /** What {@code %n} printed. */
    private static final String NL = System.lineSeparator();

    private SyncSummary() {
    }

    public static String format(SyncResult r, List<String> inputWarnings) {
        return format(r, inputWarnings, false);
    }

    /** At most this many pair rows unless {@code allPairs}: a 100-node mesh has 4,950 pairs. */
    static final int MAX_PAIR_ROWS = 30;

    /**
     * The summary. Units as in the HTML report: durations in ns/µs/ms/s, drifts in ppm, offsets
     * at each node's first message; "bound width" is minus + plus of the bounds.
     *
     * @param allPairs every pair's row, however many (else the {@link #MAX_PAIR_ROWS} weakest)
     */
    public static String format(SyncResult r, List<String> inputWarnings, boolean allPairs) {
        StringBuilder sb = new StringBuilder();
        sb.append(count(r.nodes().size(), "node")).append(", ").append(r.stats().getOrDefault("messages", "?"))
                .append(" messages, reference ").append(r.reference()).append(NL);
        List<PairResult> pairs = r.pairs();
        sb.append(NL).append("Pairs").append(NL);
        if (!allPairs && pairs.size() > MAX_PAIR_ROWS) {
            java.util.Map<String, Long> byQuality = new java.util.TreeMap<>();
            for (PairResult p : pairs) {
                byQuality.merge(p.quality().label(), 1L, Long::sum);
            }
            sb.append("  ").append(pairs.size()).append(" pairs (")
                    .append(String.join(", ", byQuality.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).toList()))
                    .append("); the ").append(MAX_PAIR_ROWS)
                    .append(" weakest below (--all-pairs for every pair; the result file holds them all)").append(NL);
            pairs = pairs.stream().sorted(java.util.Comparator
                            .comparing((PairResult p) -> p.quality() == org.tracesync.core.model.Quality.ACCURATE)
                            .thenComparing(java.util.Comparator.comparingDouble(
                                    (PairResult p) -> Double.isNaN(p.meanAccuracy()) ? Double.MAX_VALUE : p.meanAccuracy())
                                    .reversed()))
                    .limit(MAX_PAIR_ROWS).toList();
        }
        pairRow(sb, "a", "b", "a->b", "b->a", "hull pts", "quality", "drift range [min, max]", "mean bound width");
        for (PairResult p : pairs) {
            pairRow(sb, p.a(), p.b(), String.valueOf(p.messagesAToB()), String.valueOf(p.messagesBToA()),
                    p.hullAToB() + "/" + p.hullBToA(),
                    p.pieces() > 1 ? p.quality().label() + " " + p.pieces() : p.quality().label(),
                    p.pieces() > 1 ? "(" + p.steps().size() + " step" + (p.steps().size() == 1 ? ")" : "s)")
                            : "[" + drift(p.driftMin()) + ", " + drift(p.driftMax()) + "]",
                    duration(p.meanAccuracy()));
        }
        regression(sb, pairs);
        sb.append(NL).append("Nodes").append(NL);
        nodeRow(sb, "node", "reference", "quality", "offset at start", "drift", "bounds at start (-/+)", "bounds at end (-/+)");
        for (NodeResult n : r.nodes()) {
            LinearSegment s = n.transform().segments().get(0);
            String offset = duration(n.transform().correction(n.start()));
            String drift = n.transform().isLinear() ? drift(s.drift()) : "piecewise";
            nodeRow(sb, n.name(), n.reference(), n.quality().label(), offset, drift, boundsAt(n, n.start()),
                    boundsAt(n, n.end()));
        }
        List<String> all = concat(inputWarnings, r.warnings());
        all.addAll(implausibleDrifts(r));
        Notes notes = Notes.of(all);
        section(sb, "Statistics", notes.statistics());
        section(sb, "Warnings", notes.warnings());
        return sb.toString();
    }

    /**
     * One line per pair whose line is a regression: its samples, the drift and the offset (at the
     * pair's origin) with their confidence half-widths and standard errors, the residual standard
     * error. Statistical figures, printed apart from the strict bounds.
     */
    static void regression(StringBuilder sb, List<PairResult> pairs) {
        boolean header = false;
        for (PairResult p : pairs) {
            RegressionStatistics r = p.regression();
            if (r == null) {
                continue;
            }
            if (!header) {
                sb.append(NL).append("Regression (statistical: ± is a confidence interval, not a bound)").append(NL);
                header = true;
            }
            String samples = RegressionStatistics.EXCHANGES.equals(r.samplesFrom()) ? "exchanges"
                    : "replies paired with requests";
            sb.append("  ").append(p.a()).append('/').append(p.b()).append(": ").append(r.samples()).append(' ')
                    .append(samples).append(" (").append(r.rejected()).append(" rejected), drift ").append(drift(p.drift()))
                    .append(" ± ").append(drift(r.driftInterval())).append(" (standard error ")
                    .append(drift(r.driftStandardError())).append("), offset ").append(duration(p.offset())).append(" ± ")
                    .append(duration(r.offsetInterval())).append(" (standard error ").append(duration(r.offsetStandardError()))
                    .append("), residual standard error ").append(duration(r.residualStandardError())).append(", at ")
                    .append(new java.math.BigDecimal(Double.toString(100 * r.confidence())).stripTrailingZeros().toPlainString())
                    .append(" %").append(NL);
        }
    }

    /** Drifts beyond 1 %: a crystal stays within about 100 ppm; larger ones come from a wrong clock or unit. */
    static final double IMPLAUSIBLE_DRIFT = 0.01;

    /** One warning per node whose drift no real clock has. */
    static List<String> implausibleDrifts(SyncResult r) {
        List<String> out = new java.util.ArrayList<>();
        for (NodeResult n : r.nodes()) {
            if (!n.synchronizedToOther()) {
                continue;
            }
            for (LinearSegment s : n.transform().segments()) {
                if (Math.abs(s.drift()) > IMPLAUSIBLE_DRIFT) {
                    out.add("node " + n.name() + ": drift " + drift(s.drift()) + " against " + n.reference() + " ("
                            + PlainFormat.fixed(100 * Math.abs(s.drift()), 2) + " %) is not a real clock's"
                            + " (crystals stay within 0.01 %): check the trace's clock (CTF freq and offsets) or the"
                            + " unit of its timestamps");
                    break;
                }
            }
        }
        return out;
    }

    /** A row of the pairs' table: {@code "  %-12s %-12s %8s %8s %11s  %-10s  %-31s  %s%n"}. */
    private static void pairRow(StringBuilder sb, String a, String b, String aToB, String bToA, String hull, String quality,
            String drift, String width) {
        sb.append("  ").append(PlainFormat.left(a, 12)).append(' ').append(PlainFormat.left(b, 12)).append(' ')
                .append(PlainFormat.right(aToB, 8)).append(' ').append(PlainFormat.right(bToA, 8)).append(' ')
                .append(PlainFormat.right(hull, 11)).append("  ").append(PlainFormat.left(quality, 10)).append("  ")
                .append(PlainFormat.left(drift, 31)).append("  ").append(width).append(NL);
    }

    /** A row of the nodes' table: {@code "  %-12s %-12s %-10s %18s %16s  %-24s  %s%n"}. */
    private static void nodeRow(StringBuilder sb, String node, String reference, String quality, String offset, String drift,
            String atStart, String atEnd) {
        sb.append("  ").append(PlainFormat.left(node, 12)).append(' ').append(PlainFormat.left(reference, 12)).append(' ')
                .append(PlainFormat.left(quality, 10)).append(' ').append(PlainFormat.right(offset, 18)).append(' ')
                .append(PlainFormat.right(drift, 16)).append("  ").append(PlainFormat.left(atStart, 24)).append("  ")
                .append(atEnd).append(NL);
    }

    private static void section(StringBuilder sb, String title, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        sb.append(NL).append(title).append(NL);
        for (String l : lines) {
            sb.append("  - ").append(l).append(NL);
        }
    }

    /** "1 node", "3 nodes". */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
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
        return PlainFormat.fixed(d * 1e6, 4) + " ppm";
    }

    /** A duration in ns as a readable string: 12.0 ns, 3.400 µs, 1.234 ms, 2.000001 s. */
    public static String duration(double ns) {
        if (Double.isNaN(ns)) {
            return "-";
        }
        if (Double.isInfinite(ns)) {
            return "unbounded";
        }
        double a = Math.abs(ns);
        if (a < 1e3) {
            return PlainFormat.fixed(ns, 1) + " ns";
        }
        if (a < 1e6) {
            return PlainFormat.fixed(ns / 1e3, 3) + " µs";
        }
        if (a < 1e9) {
            return PlainFormat.fixed(ns / 1e6, 3) + " ms";
        }
        return PlainFormat.fixed(ns / 1e9, 6) + " s";
    }
}
