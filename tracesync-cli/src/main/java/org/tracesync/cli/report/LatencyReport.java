package org.tracesync.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.tracesync.core.latency.LatencyAnalysis;
import org.tracesync.core.latency.LatencyBars;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyInstances.Kind;
import org.tracesync.core.latency.LatencyStatistics;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.formats.AtomicFile;
import org.tracesync.formats.latency.LatencyFile;

/**
 * The {@code tracesync latency --report} page: a table of every group's statistics with error
 * bars; per cross-node transition (and every end to end) the latency distribution as a CDF with
 * the CDFs of the bars' lower and upper ends (the true CDF lies between them); a timeline of a few
 * chains across machines on the reference clock; the synchronization summary. Self-contained
 * HTML with inline SVG; at most 400 points per curve. Written atomically.
 */
public final class LatencyReport {

    private static final int MAX_POINTS = 400;
    private static final int MAX_PLOTS = 40;

    private LatencyReport() {
    }

    public static void write(LatencyFile.Content c, Path file) throws IOException {
        byte[] html = render(c).getBytes(StandardCharsets.UTF_8);
        AtomicFile.write(file, out -> out.write(html));
    }

    static String render(LatencyFile.Content c) {
        LatencyAnalysis a = c.analysis();
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tracesync latency</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}")
                .append("td.l{text-align:left}svg{margin:1em 0}</style></head><body>\n");
        b.append("<h1>Latencies</h1>\n<p>Every figure: value (−minus +plus) in ns; the truth lies in [value − minus, value + plus]. ")
                .append(String.format(Locale.ROOT, "Bars include %.0f ppm of the latency for the reference clock's own rate error.",
                        c.rateError() * 1e6))
                .append(" Measurements: ").append(Html.escape(a.statusCounts().toString())).append(".</p>\n");
        b.append("<table id=\"statistics\"><tr><th>event</th><th>what</th><th>count</th><th>min</th><th>mean</th><th>p50</th>")
                .append("<th>p90</th><th>p99</th><th>max</th><th>unsynchronized</th></tr>\n");
        for (LatencyAnalysis.Group g : a.groups()) {
            LatencyStatistics s = g.statistics();
            b.append("<tr><td class=\"l\">").append(Html.escape(g.event())).append("</td><td class=\"l\">")
                    .append(Html.escape(what(g))).append("</td><td>").append(s.count()).append("</td>");
            for (LatencyStatistics.Figure f : new LatencyStatistics.Figure[] {s.min(), s.mean(), s.p50(), s.p90(), s.p99(), s.max()}) {
                b.append("<td>").append(f == null ? "" : f.value() + (f.minus() == null ? "" : " (−" + f.minus() + " +" + f.plus() + ")"))
                        .append("</td>");
            }
            b.append("<td>").append(g.unsynchronized()).append("</td></tr>\n");
        }
        b.append("</table>\n");

        b.append("<h2>Distributions</h2>\n");
        int plots = 0;
        for (LatencyAnalysis.Group g : a.groups()) {
            if (plots >= MAX_PLOTS || g.statistics().count() == 0 || (g.kind() != Kind.END_TO_END && !g.crossNode())) {
                continue;
            }
            b.append(cdf(a, g)).append('\n');
            plots++;
        }
        b.append("<h2>Timeline of a few chains</h2>\n").append(timeline(a)).append('\n');

        b.append("<h2>Synchronization</h2>\n<p>Reference: ").append(Html.escape(c.sync().reference()))
                .append("; causal pairs from chained steps: ").append(c.causalPairs()).append("</p>\n");
        b.append("<table id=\"sync-nodes\"><tr><th>node</th><th>reference</th><th>quality</th><th>note</th></tr>\n");
        for (NodeResult n : c.sync().nodes()) {
            b.append("<tr><td class=\"l\">").append(Html.escape(n.name())).append("</td><td class=\"l\">")
                    .append(Html.escape(n.reference())).append("</td><td class=\"l\">").append(n.quality().label())
                    .append("</td><td class=\"l\">").append(Html.escape(n.note())).append("</td></tr>\n");
        }
        b.append("</table>\n<table id=\"sync-pairs\"><tr><th>pair</th><th>quality</th><th>a→b</th><th>b→a</th><th>mean accuracy (ns)</th></tr>\n");
        for (PairResult p : c.sync().pairs()) {
            b.append("<tr><td class=\"l\">").append(Html.escape(p.a() + " / " + p.b())).append("</td><td class=\"l\">")
                    .append(p.quality().label()).append("</td><td>").append(p.messagesAToB()).append("</td><td>")
                    .append(p.messagesBToA()).append("</td><td>")
                    .append(Double.isFinite(p.meanAccuracy()) ? String.format(Locale.ROOT, "%.0f", p.meanAccuracy()) : "")
                    .append("</td></tr>\n");
        }
        b.append("</table>\n");
        if (!c.warnings().isEmpty()) {
            b.append("<h2>Warnings</h2>\n<ul>");
            for (String w : c.warnings()) {
                b.append("<li>").append(Html.escape(w)).append("</li>");
            }
            b.append("</ul>\n");
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    private static String what(LatencyAnalysis.Group g) {
        return switch (g.kind()) {
            case SIMPLE -> "simple @" + g.fromNode();
            case TRANSITION -> "step " + g.fromStep() + " → " + g.toStep() + " (" + g.fromNode() + " → " + g.toNode() + ")";
            case END_TO_END -> "end to end " + g.fromStep() + " → " + g.toStep() + " (" + g.fromNode() + " → " + g.toNode() + ")";
        };
    }

    /** CDF of the group's latencies (µs) with the CDFs of the bars' lower and upper ends. */
    private static String cdf(LatencyAnalysis a, LatencyAnalysis.Group g) {
        LatencyInstances.Measurements m = a.instances().measurements();
        List<String> nodes = a.instances().events().nodeNames();
        int n = 0;
        long[] v = new long[m.size()];
        long[] lo = new long[m.size()];
        long[] hi = new long[m.size()];
        boolean bounded = g.statistics().bounded();
        for (int i = 0; i < m.size(); i++) {
            if (m.kind(i) == g.kind() && a.instances().events().eventName(m.event(i)).equals(g.event())
                    && m.fromStep(i) == g.fromStep() && m.toStep(i) == g.toStep()
                    && nodes.get(m.fromNode(i)).equals(g.fromNode()) && nodes.get(m.toNode(i)).equals(g.toNode())
                    && a.status(i) != LatencyBars.Status.UNSYNCHRONIZED) {
                v[n] = a.latency(i);
                lo[n] = bounded ? a.latency(i) - a.minus(i) : a.latency(i);
                hi[n] = bounded ? a.latency(i) + a.plus(i) : a.latency(i);
                n++;
            }
        }
        v = Arrays.copyOf(v, n);
        lo = Arrays.copyOf(lo, n);
        hi = Arrays.copyOf(hi, n);
        Arrays.sort(v);
        Arrays.sort(lo);
        Arrays.sort(hi);
        SvgPlot plot = new SvgPlot(720, 260, g.event() + ": " + what(g), "latency (us)", "fraction").yRange(0, 1);
        double[][] cv = curve(v);
        plot.line(cv[0], cv[1], "#1f77b4", "latency", null);
        if (bounded) {
            double[][] cl = curve(lo);
            double[][] ch = curve(hi);
            plot.line(cl[0], cl[1], "#d62728", "latency - minus", "4,3");
            plot.line(ch[0], ch[1], "#2ca02c", "latency + plus", "4,3");
        }
        return plot.render();
    }

    private static double[][] curve(long[] sorted) {
        int n = sorted.length;
        int k = Math.min(n, MAX_POINTS);
        double[] xs = new double[k];
        double[] ys = new double[k];
        for (int j = 0; j < k; j++) {
            int i = k == 1 ? n - 1 : (int) Math.round((double) j * (n - 1) / (k - 1));
            xs[j] = sorted[i] / 1e3;
            ys[j] = (i + 1.0) / n;
        }
        return new double[][] {xs, ys};
    }

    /** The first few complete chains of the first chained event: step times on the reference clock. */
    private static String timeline(LatencyAnalysis a) {
        LatencyInstances.Measurements m = a.instances().measurements();
        List<String> nodes = a.instances().events().nodeNames();
        SvgPlot plot = new SvgPlot(720, 80 + 40 * nodes.size(), "chains across machines (y: node index "
                + String.join(", ", indexed(nodes)) + ")", "time since the chain's first step (us)", "node");
        String[] colors = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};
        int shown = 0;
        int i = 0;
        while (i < m.size() && shown < colors.length) {
            if (m.kind(i) != Kind.TRANSITION) {
                i++;
                continue;
            }
            int e = m.event(i);
            long seq = m.seq(i);
            List<double[]> pts = new ArrayList<>();
            double t = 0;
            boolean ok = true;
            int j = i;
            pts.add(new double[] {0, m.fromNode(i)});
            while (j < m.size() && m.kind(j) == Kind.TRANSITION && m.event(j) == e && m.seq(j) == seq) {
                if (a.status(j) == LatencyBars.Status.UNSYNCHRONIZED) {
                    ok = false;
                }
                t += a.latency(j) / 1e3;
                pts.add(new double[] {t, m.toNode(j)});
                j++;
            }
            if (ok && pts.size() > 2) {
                double[] xs = pts.stream().mapToDouble(p -> p[0]).toArray();
                double[] ys = pts.stream().mapToDouble(p -> p[1]).toArray();
                plot.vertices(xs, ys, colors[shown], a.instances().events().eventName(e) + " #" + seq);
                shown++;
            }
            i = Math.max(j, i + 1);
        }
        return plot.isEmpty() ? "<p>No chained event with transitions.</p>" : plot.render();
    }

    private static List<String> indexed(List<String> nodes) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < nodes.size(); k++) {
            out.add(k + " = " + nodes.get(k));
        }
        return out;
    }
}
