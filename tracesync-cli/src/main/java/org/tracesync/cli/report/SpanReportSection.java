package org.tracesync.cli.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.spans.SpanKind;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanViolations;
import org.tracesync.formats.spans.TraceSpans;

/**
 * The spans part of the report (docs/SPANS.md), a section of its own: per host pair the causality
 * violations before and after correction (the pairs' constraint points and corridors are the
 * report's pair plots), and a waterfall of the trace with the worst recorded violation, as recorded
 * and as corrected, side by side. Two passes over the span files; at most {@link #MAX_SPANS} spans
 * of the trace drawn.
 */
public final class SpanReportSection {

    static final int MAX_SPANS = 5000;
    private static final int MAX_DRAWN = 80;
    private static final int MAX_ROWS = 60;
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    private SpanReportSection() {
    }

    /** The section's HTML. */
    public static String html(SyncResult result, SpanMessageInput input) throws IOException {
        List<String> hosts = input.nodes().stream().map(n -> n.name()).toList();
        SpanViolations v = new SpanViolations(hosts, result);
        input.constraints(v);
        StringBuilder b = new StringBuilder();
        b.append("<section id=\"spans\">\n<h2>Spans: causality per host pair</h2>\n");
        b.append(String.format(Locale.ROOT, "<p>%d cross-host constraints; violations as recorded: <b>%d</b>; after correction:"
                        + " <b>%d</b> beyond the timestamp resolution, %d within one resolution step (order not recorded),"
                        + " %d between hosts not on one reference.</p>%n", input.counts().constraints(), v.totalBefore(),
                v.totalAfter(), v.totalWithinResolution(), v.totalNotComparable()));
        List<SpanViolations.PairCount> pairs = new ArrayList<>(v.pairs());
        pairs.sort(Comparator.comparingLong((SpanViolations.PairCount p) -> -(p.before + p.after)).thenComparing(p -> p.a));
        b.append("<table>\n<tr><th>host A</th><th>host B</th><th>constraints</th><th>before</th><th>after</th>"
                + "<th>within resolution</th><th>not comparable</th><th>worst before (µs)</th></tr>\n");
        for (SpanViolations.PairCount p : pairs.subList(0, Math.min(MAX_ROWS, pairs.size()))) {
            b.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                            + "<td>%d</td><td>%s</td></tr>%n", Html.escape(p.a), Html.escape(p.b), p.constraints, p.before,
                    p.after, p.withinResolution, p.notComparable, p.before == 0 ? "" : String.format(Locale.ROOT, "%.1f", p.worstBefore / 1e3)));
        }
        b.append("</table>\n");
        if (pairs.size() > MAX_ROWS) {
            b.append("<p>(" + (pairs.size() - MAX_ROWS) + " more host pairs, all with fewer violations: see <code>tracesync eval</code>)</p>\n");
        }
        SpanViolations.PairCount worst = null;
        for (SpanViolations.PairCount p : v.pairs()) {
            if (p.before > 0 && (worst == null || p.worstBefore > worst.worstBefore)) {
                worst = p;
            }
        }
        if (worst == null) {
            b.append("<p>No violation as recorded: no waterfall to show.</p>\n</section>\n");
            return b.toString();
        }
        List<TraceSpans.Span> spans = TraceSpans.read(input, worst.worstTraceHi, worst.worstTraceLo, MAX_SPANS);
        Map<String, NodeResult> byName = new HashMap<>();
        for (NodeResult n : result.nodes()) {
            byName.put(n.name(), n);
        }
        List<TraceSpans.Span> order = focus(treeOrder(spans));
        long[][] raw = new long[order.size()][2];
        long[][] fixed = new long[order.size()][2];
        for (int i = 0; i < order.size(); i++) {
            TraceSpans.Span s = order.get(i);
            NodeResult n = byName.get(hosts.get(s.host()));
            long end = s.end() == Long.MIN_VALUE ? s.start() : s.end();
            raw[i] = new long[] {s.start(), end};
            fixed[i] = n == null ? raw[i] : new long[] {n.transform().apply(s.start()), n.transform().apply(end)};
        }
        b.append(String.format(Locale.ROOT, "<h3>Waterfall of trace %s (worst violation as recorded: %.1f µs, %s / %s)</h3>%n",
                worst.worstTrace, worst.worstBefore / 1e3, Html.escape(worst.a), Html.escape(worst.b)));
        b.append("<p>Bars coloured by host; a server or consumer drawn in red starts before its caller (or a server ends"
                + " after its longer client). Left: as recorded; right: corrected. Times relative to the trace's first start."
                + " Shown: the caller of the worst violation and the spans under it (at most " + MAX_DRAWN + ")." + "</p>\n");
        b.append("<div style=\"display:flex;gap:16px\">\n");
        b.append(waterfall("recorded", order, raw, hosts));
        b.append(waterfall("corrected", order, fixed, hosts));
        b.append("</div>\n</section>\n");
        return b.toString();
    }

    /**
     * The caller of the worst recorded violation and its subtree (contiguous in depth-first order),
     * at most {@link #MAX_DRAWN} spans.
     */
    private static List<TraceSpans.Span> focus(List<TraceSpans.Span> order) {
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            if (!order.get(i).shared()) {
                index.put(order.get(i).spanId(), i);
            }
        }
        for (int i = 0; i < order.size(); i++) {
            index.putIfAbsent(order.get(i).spanId(), i);
        }
        int caller = -1;
        long worst = 0;
        for (int i = 0; i < order.size(); i++) {
            TraceSpans.Span s = order.get(i);
            Integer p = index.get(s.shared() ? s.spanId() : s.parentId());
            if (p != null && p != i && s.kind().isCallee() && order.get(p).kind().isCaller()
                    && order.get(p).host() != s.host() && order.get(p).start() - s.start() > worst) {
                worst = order.get(p).start() - s.start();
                caller = p;
            }
        }
        if (caller < 0) {
            return order.subList(0, Math.min(MAX_DRAWN, order.size()));
        }
        List<TraceSpans.Span> out = new ArrayList<>();
        java.util.Set<Long> inside = new java.util.HashSet<>();
        inside.add(order.get(caller).spanId());
        out.add(order.get(caller));
        for (int i = caller + 1; i < order.size() && out.size() < MAX_DRAWN; i++) {
            TraceSpans.Span s = order.get(i);
            if (inside.contains(s.shared() ? s.spanId() : s.parentId())) {
                inside.add(s.spanId());
                out.add(s);
            }
        }
        return out;
    }

    /** Depth-first from the roots, children by start time. */
    private static List<TraceSpans.Span> treeOrder(List<TraceSpans.Span> spans) {
        Map<Long, List<TraceSpans.Span>> children = new HashMap<>();
        Map<Long, TraceSpans.Span> byId = new HashMap<>();
        for (TraceSpans.Span s : spans) { // a shared (Zipkin) server half has its client's id: the client wins
            if (!s.shared()) {
                byId.put(s.spanId(), s);
            }
        }
        for (TraceSpans.Span s : spans) {
            byId.putIfAbsent(s.spanId(), s);
        }
        List<TraceSpans.Span> roots = new ArrayList<>();
        for (TraceSpans.Span s : spans) {
            long parent = s.shared() ? s.spanId() : s.parentId();
            TraceSpans.Span p = byId.get(parent);
            if (p == null || p == s) {
                roots.add(s);
            } else {
                children.computeIfAbsent(parent, k -> new ArrayList<>()).add(s);
            }
        }
        List<TraceSpans.Span> out = new ArrayList<>();
        roots.sort(Comparator.comparingLong(TraceSpans.Span::start));
        for (TraceSpans.Span r : roots) {
            visit(r, children, out, new java.util.HashSet<>());
        }
        return out;
    }

    private static void visit(TraceSpans.Span s, Map<Long, List<TraceSpans.Span>> children, List<TraceSpans.Span> out,
                              java.util.Set<TraceSpans.Span> seen) {
        if (!seen.add(s)) {
            return;
        }
        out.add(s);
        List<TraceSpans.Span> c = children.getOrDefault(s.spanId(), List.of());
        List<TraceSpans.Span> sorted = new ArrayList<>(c);
        sorted.sort(Comparator.comparingLong(TraceSpans.Span::start));
        for (TraceSpans.Span x : sorted) {
            if (x != s) {
                visit(x, children, out, seen);
            }
        }
    }

    private static String waterfall(String title, List<TraceSpans.Span> order, long[][] t, List<String> hosts) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long[] x : t) {
            min = Math.min(min, x[0]);
            max = Math.max(max, x[1]);
        }
        double span = Math.max(1, max - min);
        int width = 520;
        int label = 150;
        int row = 14;
        int height = 30 + row * order.size();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\""
                + " aria-label=\"%s\"><text x=\"4\" y=\"14\" font-size=\"12\" font-weight=\"bold\">%s (0 … %.1f ms)</text>%n",
                label + width + 10, height, title, title, span / 1e6));
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            if (!order.get(i).shared()) {
                index.put(order.get(i).spanId(), i);
            }
        }
        for (int i = 0; i < order.size(); i++) {
            index.putIfAbsent(order.get(i).spanId(), i);
        }
        for (int i = 0; i < order.size(); i++) {
            TraceSpans.Span s = order.get(i);
            boolean violated = false;
            Integer p = index.get(s.shared() ? s.spanId() : s.parentId());
            if (p != null && p != i && s.kind().isCallee() && order.get(p).kind().isCaller() && order.get(p).host() != s.host()) {
                violated = t[i][0] < t[p][0] - 1000;
                if (s.kind() == SpanKind.SERVER && order.get(p).kind() == SpanKind.CLIENT
                        && t[p][1] - t[p][0] > t[i][1] - t[i][0]) {
                    violated |= t[i][1] > t[p][1] + 1000;
                }
            }
            double x0 = label + (t[i][0] - min) / span * width;
            double w = Math.max(1.5, (t[i][1] - t[i][0]) / span * width);
            int y = 22 + row * i;
            b.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-size=\"10\">%s %s</text>", y + 10,
                    Html.escape(abbreviate(hosts.get(s.host()))), s.kind().name().toLowerCase(Locale.ROOT)));
            b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s><title>%s %s %.1f µs</title></rect>%n",
                    x0, y + 2, w, row - 4, COLOURS[s.host() % COLOURS.length],
                    violated ? " stroke=\"red\" stroke-width=\"2\"" : "", Html.escape(hosts.get(s.host())), s.kind(),
                    (t[i][1] - t[i][0]) / 1e3));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 18 ? s : s.substring(0, 17) + "…";
    }
}
