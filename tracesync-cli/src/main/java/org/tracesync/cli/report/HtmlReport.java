package org.tracesync.cli.report;

import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/**
 * Writes the synchronization report: one self-contained HTML page (inline CSS and SVG, no script,
 * no network access) with, per node, its reference, quality, correction and accuracy band over
 * time (with the corrected one-way latencies as points: the paper's Figure 6); per pair, the
 * message points in rebased coordinates with both half hulls, the estimate and the bounds, at full
 * scale and zoomed on the densest region (Figure 5); and every warning.
 *
 * <p>Cost: O(nodes + pairs × sample size); the page stays a few hundred KB whatever the trace
 * length, because plots draw {@link ReportSampler}'s bounded samples.
 */
public final class HtmlReport {

    private static final String A_TO_B = "#1f77b4";
    private static final String B_TO_A = "#d62728";
    private static final String ESTIMATE = "#2ca02c";
    private static final String BOUNDS = "#9467bd";
    private static final String TRUTH = "#ff7f0e";
    private static final String KNOTS = "#555";
    private static final String STEPS = "#c2185b";
    /** A jump of a node's transform larger than this (ns) at a knot is drawn as a step. */
    static final double STEP_JUMP_NS = 1_000.0;

    private final ReportInput in;
    private final StringBuilder out = new StringBuilder(1 << 16);
    /** Statistics and benign notes sorted out of the warnings ({@link Notes}), shown in their own section. */
    private List<String> statistics = List.of();

    private HtmlReport(ReportInput in) {
        this.in = in;
    }

    /** Renders the page into {@code w}. */
    public static void write(ReportInput input, Writer w) throws IOException {
        HtmlReport r = new HtmlReport(input);
        r.page();
        w.write(r.out.toString());
    }

    /** Renders the page as a string. */
    public static String render(ReportInput input) {
        HtmlReport r = new HtmlReport(input);
        r.page();
        return r.out.toString();
    }

    private void page() {
        SyncResult result = in.result();
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.escape(in.title())).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:24px;max-width:1400px;color:#222}")
                .append("table{border-collapse:collapse;margin:8px 0 16px}")
                .append("th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;font-size:13px}")
                .append("th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}")
                .append(".warn{background:#fff4e5;border-left:4px solid #f0a020;padding:8px 12px;margin:12px 0}")
                .append(".ok{background:#eef8ee;border-left:4px solid #3a3;padding:8px 12px;margin:12px 0}")
                .append(".q-accurate,.q-reference{color:#176b17;font-weight:bold}.q-fallback,.q-invalid,.q-absent{color:#b00020;font-weight:bold}")
                .append(".q-incomplete,.q-one-way,.q-piecewise{color:#a05a00;font-weight:bold}")
                .append(".plots{display:flex;flex-wrap:wrap;gap:12px}svg.plot{border:1px solid #ddd;background:#fff}")
                .append("p.cap{font-size:13px;color:#555;max-width:1100px}h2{border-bottom:1px solid #ccc;padding-bottom:4px}")
                .append("\n</style>\n</head>\n<body>\n");
        out.append("<h1>").append(Html.escape(in.title())).append("</h1>\n");
        out.append("<p>Reference: <b>").append(Html.escape(result.reference())).append("</b> · ")
                .append(result.nodes().size()).append(" nodes · ").append(result.pairs().size()).append(" pairs with messages");
        if (in.sampler() != null) {
            out.append(" · ").append(in.sampler().messages()).append(" messages read from the traces");
        }
        out.append(" · generated ").append(Instant.now().toString(), 0, 19).append("Z</p>\n");
        warnings();
        nodeTable();
        pairTable();
        stats();
        for (NodeResult n : result.nodes()) {
            nodeSection(n);
        }
        if (in.sampler() != null) {
            out.append("<h2>Pairs (Figure 5: message points, hulls, estimate, bounds)</h2>\n")
                    .append("<p class=\"cap\">For a pair (a, b), each message gives a point u = x − X0 (x: time on a's clock), "
                            + "v = y − x (y: time on b's clock). Messages a → b lie above every valid conversion line, "
                            + "messages b → a below it. Only the lower half hull of the a → b points and the upper half "
                            + "hull of the b → a points constrain the lines; the estimate runs between them and the bounds "
                            + "say how far the true line can be. Left: whole trace; right: zoom on the densest part.</p>\n");
            List<ReportSampler.Pair> plotted = plottedPairs();
            if (plotted.size() < in.sampler().pairs().size()) {
                out.append("<p class=\"cap\">").append(plotted.size()).append(" of ").append(in.sampler().pairs().size())
                        .append(" pairs are drawn: those with inverted messages, then those the node paths use, then the "
                                + "least accurate. Every pair is in the pairs table above.</p>\n");
            }
            for (ReportSampler.Pair p : plotted) {
                pairSection(p);
            }
        } else {
            out.append("<p class=\"cap\">No traces were given: message points, hulls and corrected latencies are not "
                    + "drawn. Run <code>tracesync report RESULT TRACE…</code> to see them.</p>\n");
        }
        out.append("</body>\n</html>\n");
    }

    // ---------------------------------------------------------------- tables

    private void warnings() {
        List<String> all = new ArrayList<>(in.result().warnings());
        all.addAll(in.inputWarnings());
        for (NodeResult n : in.result().nodes()) {
            boolean said = all.stream().anyMatch(w -> w.startsWith("node " + n.name() + " "));
            if (!said && n.quality() != Quality.REFERENCE && !n.synchronizedToOther()) {
                all.add("node " + n.name() + " is not synchronized (" + n.quality().label() + ")"
                        + (n.note().isEmpty() ? "" : ": " + n.note()));
            }
        }
        for (PairResult p : in.result().pairs()) {
            boolean said = all.stream().anyMatch(w -> w.startsWith("pair " + p.a() + "/" + p.b() + " "));
            if (!said && p.quality() == Quality.FALLBACK) {
                all.add("pair " + p.a() + "–" + p.b() + " uses the fallback estimate: its hulls cross ("
                        + p.violations() + " violating hull points, up to " + ns(p.maxViolation()) + ")");
            }
        }
        if (in.sampler() != null && in.sampler().inversions() > 0) {
            all.add(in.sampler().inversions() + " messages are received before they were sent after correction");
        }
        Notes notes = Notes.of(all);
        statistics = notes.statistics();
        List<String> distinct = notes.warnings();
        if (distinct.isEmpty()) {
            out.append("<div class=\"ok\">No warnings").append(in.sampler() != null
                    ? ": no message travels backwards in time after correction." : ".").append("</div>\n");
            return;
        }
        out.append("<div class=\"warn\"><b>Warnings</b><ul>\n");
        for (String w : distinct) {
            out.append("<li>").append(Html.escape(w)).append("</li>\n");
        }
        out.append("</ul></div>\n");
    }

    private void nodeTable() {
        out.append("<h2>Nodes</h2>\n<table><tr><th>node</th><th>reference</th><th>quality</th><th>offset at start</th>"
                + "<th>drift</th><th>mean bound width</th><th>max bound width</th><th>path</th><th>source</th><th>note</th></tr>\n");
        for (NodeResult n : in.result().nodes()) {
            double[] w = BoundWidths.over(finite(n.bounds().rowsWithin(n.start(), n.end())));
            out.append("<tr><td>").append(Html.escape(n.name())).append("</td><td>").append(Html.escape(n.reference()))
                    .append("</td><td class=\"q-").append(n.quality().label()).append("\">").append(n.quality().label())
                    .append("</td><td class=\"n\">").append(ns(n.transform().correction(n.start())))
                    .append("</td><td class=\"n\">").append(ppm(n.transform().segmentAt(n.start()).drift()))
                    .append(n.transform().isLinear() ? "" : " (" + n.transform().segments().size() + " segments)")
                    .append("</td><td class=\"n\">").append(w == null ? "–" : ns(w[0]))
                    .append("</td><td class=\"n\">").append(w == null ? "–" : ns(w[1]))
                    .append("</td><td>").append(Html.escape(String.join(" → ", n.path())))
                    .append("</td><td>").append(Html.escape(n.source()))
                    .append("</td><td>").append(Html.escape(n.note())).append("</td></tr>\n");
        }
        out.append("</table>\n");
    }

    private void pairTable() {
        out.append("<h2>Pairs</h2>\n<table><tr><th>a</th><th>b</th><th>quality</th><th>a → b</th><th>b → a</th>"
                + "<th>hull points</th><th>drift range</th><th>offset (b − a)</th><th>drift</th><th>mean bound width</th>"
                + "<th>note</th></tr>\n");
        for (PairResult p : in.result().pairs()) {
            out.append("<tr><td>").append(Html.escape(p.a())).append("</td><td>").append(Html.escape(p.b()))
                    .append("</td><td class=\"q-").append(p.quality().label()).append("\">").append(p.quality().label())
                    .append("</td><td class=\"n\">").append(p.messagesAToB())
                    .append("</td><td class=\"n\">").append(p.messagesBToA())
                    .append("</td><td class=\"n\">").append(p.hullAToB()).append(" / ").append(p.hullBToA())
                    .append("</td><td class=\"n\">").append(ppm(p.driftMin())).append(" … ").append(ppm(p.driftMax()))
                    .append("</td><td class=\"n\">").append(ns(p.offset()))
                    .append("</td><td class=\"n\">").append(ppm(p.drift()))
                    .append("</td><td class=\"n\">").append(ns(p.meanAccuracy()))
                    .append("</td><td>").append(Html.escape(p.note())).append("</td></tr>\n");
        }
        out.append("</table>\n");
    }

    private void stats() {
        if (in.result().stats().isEmpty() && statistics.isEmpty()) {
            return;
        }
        out.append("<h2>Statistics</h2>\n");
        if (!statistics.isEmpty()) {
            out.append("<ul class=\"stats\">\n");
            for (String st : statistics) {
                out.append("<li>").append(Html.escape(st)).append("</li>\n");
            }
            out.append("</ul>\n");
        }
        if (!in.result().stats().isEmpty()) {
            out.append("<details><summary>Counters of the result file</summary><table>\n");
            for (Map.Entry<String, Object> e : in.result().stats().entrySet()) {
                out.append("<tr><th>").append(Html.escape(e.getKey())).append("</th><td>")
                        .append(Html.escape(String.valueOf(e.getValue()))).append("</td></tr>\n");
            }
            out.append("</table></details>\n");
        }
    }

    // ---------------------------------------------------------------- per node

    private void nodeSection(NodeResult n) {
        out.append("<h2 id=\"node-").append(Html.escape(n.name())).append("\">Node ").append(Html.escape(n.name()))
                .append(" <span class=\"q-").append(n.quality().label()).append("\">(").append(n.quality().label())
                .append(")</span></h2>\n");
        if (n.quality() == Quality.REFERENCE) {
            out.append("<p>Reference clock of its group: its times are kept as they are.</p>\n");
            return;
        }
        if (!n.synchronizedToOther()) {
            out.append("<p>Not synchronized").append(n.note().isEmpty() ? "." : ": " + Html.escape(n.note())).append("</p>\n");
            return;
        }
        long start = n.start();
        long end = n.end() > start ? n.end() : start + 1;
        ClockModel own = in.truth().get(n.name());
        ClockModel ref = in.truth().get(n.reference());
        boolean truth = own != null && ref != null;
        int samples = 200;
        double[] xs = new double[samples + 1];
        double[] corr = new double[samples + 1];
        double[] trueCorr = new double[truth ? samples + 1 : 0];
        double[] trueErr = new double[truth ? samples + 1 : 0];
        double[] trueX = new double[truth ? samples + 1 : 0];
        for (int i = 0; i <= samples; i++) {
            long t = start + Math.round((double) (end - start) * i / samples);
            xs[i] = (t - start) / 1e9;
            corr[i] = n.transform().correction(t) / 1e6;
            if (truth) {
                long trueRef = trueReference(own, ref, n.transform(), t);
                trueX[i] = xs[i];
                trueCorr[i] = (trueRef - t) / 1e6;
                trueErr[i] = ((trueRef - t) - n.transform().correction(t)) / 1e3;
            }
        }
        String xLabel = "local time of " + n.name() + " since its first message (s)";
        double[][] line = n.transform().isLinear() ? new double[][] {xs, corr} : correctionLine(n.transform(), start, end, samples);
        SvgPlot correction = new SvgPlot(660, 300, "Correction ref(t) − t of " + n.name() + " → " + n.reference(),
                xLabel, "correction (ms)")
                .line(line[0], line[1], ESTIMATE, n.transform().isLinear() ? "estimate"
                        : "estimate (" + n.transform().segments().size() + " segments)", null);
        if (truth) {
            correction.line(trueX, trueCorr, TRUTH, "true (truth file)", "6,4");
        }
        SvgPlot band = new SvgPlot(660, 300, "Accuracy of " + n.name() + " (Figure 6)", xLabel, "µs around the estimate");
        // over the node's own span only: rows a trace length beyond the data would stretch the plot and its scale
        List<BoundRow> rows = finite(n.bounds().rowsWithin(start, end));
        double[] bx = new double[rows.size()];
        double[] lo = new double[rows.size()];
        double[] hi = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            bx[i] = (rows.get(i).t() - start) / 1e9;
            lo[i] = -rows.get(i).minus() / 1e3;
            hi[i] = rows.get(i).plus() / 1e3;
        }
        band.band(bx, lo, hi, BOUNDS, "bounds [−Δ−, +Δ+]");
        double yLimit = 0;
        for (int i = 0; i < rows.size(); i++) {
            yLimit = Math.max(yLimit, Math.max(-lo[i], hi[i]));
        }
        // one side only (a one-way node; an incomplete pair's unbounded end): that side as a line
        List<BoundRow> all = n.bounds().rowsWithin(start, end);
        double[][] minusOnly = oneSide(all, start, true);
        double[][] plusOnly = oneSide(all, start, false);
        if (minusOnly[0].length > 0) {
            band.line(minusOnly[0], minusOnly[1], BOUNDS, "−Δ− only (no upper bound)", "4,3");
        }
        if (plusOnly[0].length > 0) {
            band.line(plusOnly[0], plusOnly[1], BOUNDS, "+Δ+ only (no lower bound)", "4,3");
        }
        for (double[] side : new double[][] {minusOnly[1], plusOnly[1]}) {
            for (double v : side) {
                yLimit = Math.max(yLimit, Math.abs(v));
            }
        }
        boolean oneSided = minusOnly[0].length > 0 || plusOnly[0].length > 0;
        // the traces may be given in another order than the result's nodes: look the node up by name
        int index = in.sampler() == null ? -1 : in.sampler().indexOf(n.name());
        if (index >= 0 && in.sampler().latencies(index) != null) {
            ReportSampler.Node lat = in.sampler().latencies(index);
            double[][] sent = lat.sent.points(start, 1e-9, 1e-3, 1);
            double[][] received = lat.received.points(start, 1e-9, 1e-3, -1);
            band.points(sent[0], sent[1], A_TO_B, "sent by " + n.name() + ": +latency");
            band.points(received[0], received[1], B_TO_A, "received: −latency");
            if (lat.broadcast.offered() > 0) {
                double[][] bc = lat.broadcast.points(start, 1e-9, 1e-3, 1);
                band.points(bc[0], bc[1], "#8c564b", "broadcast differential delay");
            }
            yLimit = Math.max(yLimit, 3 * Math.max(quantile(sent[1], 0.1), -quantile(received[1], 0.9)));
        }
        if (truth) {
            band.line(trueX, trueErr, TRUTH, "true error (truth file)", null);
        }
        if (!n.transform().isLinear()) {
            Knots k = Knots.of(n.transform(), start, end, start);
            for (SvgPlot plot : new SvgPlot[] {correction, band}) {
                plot.rug(k.knots(), KNOTS, "knots (" + k.knots().length + ")", "knots");
                if (k.steps().length > 0) {
                    plot.markers(k.steps(), k.labels(), STEPS, "steps of the transform", "step");
                }
            }
        }
        if (yLimit > 0) {
            band.yRange(-yLimit * 1.15, yLimit * 1.15);
        }
        if (rows.isEmpty() && !oneSided) {
            out.append("<p>No accuracy bounds for this node (unknown).</p>\n");
        } else if (oneSided) {
            out.append("<p>One-sided bounds: the true time of the reference is bounded on one side only (dashed);"
                    + " the other side is unbounded (").append(Html.escape(n.quality().label())).append(").</p>\n");
        }
        out.append("<div class=\"plots\">\n").append(correction.render()).append(band.render()).append("</div>\n");
        if (!n.transform().isLinear()) {
            out.append("<p class=\"cap\">").append(piecewiseCaption(n)).append("</p>\n");
        }
        out.append("<p class=\"cap\">Right: the true time of the reference lies in the shaded band around the estimate. "
                + "Points are corrected one-way latencies of this node's messages: a message it sent is drawn at "
                + "+latency, one it received at −latency; the band must fit between the two clouds. Broadcast "
                + "differential delays (when the traces hold broadcasts the reference also received) are this node's "
                + "corrected arrival minus the reference's arrival of the same datagram.</p>\n");
    }

    // ---------------------------------------------------------------- per pair

    /**
     * At most this many pair plots: a 50-node full mesh has 1,225 pairs, and drawing them all made
     * a 49 MB page that a browser renders slowly; the table lists every pair anyway.
     */
    static final int MAX_PAIR_PLOTS = 60;

    /**
     * The pairs to draw, in the sampler's order: all of them up to {@link #MAX_PAIR_PLOTS};
     * beyond, first the pairs with inversions after correction, then those on some node's path to
     * its reference, then the widest mean bounds.
     */
    private List<ReportSampler.Pair> plottedPairs() {
        List<ReportSampler.Pair> all = in.sampler().pairs();
        if (all.size() <= MAX_PAIR_PLOTS) {
            return all;
        }
        java.util.Set<String> onPath = new java.util.HashSet<>();
        for (NodeResult n : in.result().nodes()) {
            for (int i = 0; i + 1 < n.path().size(); i++) {
                onPath.add(n.path().get(i) + "|" + n.path().get(i + 1));
                onPath.add(n.path().get(i + 1) + "|" + n.path().get(i));
            }
        }
        java.util.function.ToDoubleFunction<ReportSampler.Pair> width = p -> {
            PairResult pr = in.sampler().pairResult(in.sampler().nodes().get(p.a).name(), in.sampler().nodes().get(p.b).name());
            return pr == null || !Double.isFinite(pr.meanAccuracy()) ? Double.MAX_VALUE : pr.meanAccuracy();
        };
        List<ReportSampler.Pair> ranked = new ArrayList<>(all);
        ranked.sort(java.util.Comparator
                .comparing((ReportSampler.Pair p) -> p.inversions == 0)
                .thenComparing(p -> !onPath.contains(in.sampler().nodes().get(p.a).name() + "|"
                        + in.sampler().nodes().get(p.b).name()))
                .thenComparing(java.util.Comparator.comparingDouble(width).reversed()));
        java.util.Set<ReportSampler.Pair> keep = new java.util.HashSet<>(ranked.subList(0, MAX_PAIR_PLOTS));
        return all.stream().filter(keep::contains).toList();
    }

    private void pairSection(ReportSampler.Pair p) {
        String a = in.sampler().nodes().get(p.a).name();
        String b = in.sampler().nodes().get(p.b).name();
        PairResult pr = in.sampler().pairResult(a, b);
        out.append("<h3>").append(Html.escape(a)).append(" – ").append(Html.escape(b));
        if (pr != null) {
            out.append(" <span class=\"q-").append(pr.quality().label()).append("\">(").append(pr.quality().label()).append(")</span>");
        }
        out.append("</h3>\n");
        long x0 = p.origin;
        double[][] ab = p.aToB.points(x0, 1e-9, 1e-3, 1);
        double[][] ba = p.bToA.points(x0, 1e-9, 1e-3, -1);
        PairEstimate g = in.estimates().get(a + "|" + b);
        double[][] lowerHull;
        double[][] upperHull;
        String hullNote;
        if (g != null) {
            lowerHull = scaled(g.pu(), plus(g.pv(), g.v0()), g.x0() - x0);
            upperHull = scaled(g.qu(), plus(g.qv(), g.v0()), g.x0() - x0);
            hullNote = "exact hulls";
        } else {
            lowerHull = hull(ab[0], ab[1], true);
            upperHull = hull(ba[0], ba[1], false);
            hullNote = "hulls of the drawn sample";
        }
        double[] ur = range(ab[0], ba[0]);
        double[] ex = {ur[0], ur[1]};
        double[] ey = null;
        if (pr != null && Double.isFinite(pr.offset()) && Double.isFinite(pr.drift())) {
            ey = new double[2];
            for (int i = 0; i < 2; i++) {
                double uNs = ex[i] * 1e9 + (x0 - pr.origin());
                ey[i] = (pr.offset() + pr.drift() * uNs) / 1e3;
            }
        }
        double[][] env = envelope(p, a, b, x0, g);
        double[][] truth = trueLine(a, b, x0, ur);
        ClockTransform pieces = g != null && g.piecewise() != null ? g.piecewise().transform() : null;
        if (pieces != null) {
            // the estimate is the fit's pieces (both sides of each knot), not one line
            double[][] pl = pieceLine(pieces, x0, ur[0], ur[1]);
            ex = pl[0];
            ey = pl[1];
        }
        SvgPlot full = figure5("Messages " + a + " – " + b + " (whole trace)", a, b, ab, ba, lowerHull, upperHull, ex, ey,
                env, truth);
        SvgPlot zoom = figure5("Zoom on the densest region", a, b, ab, ba, lowerHull, upperHull, ex, ey, env, truth);
        List<ClockStep> steps = pr != null ? pr.steps() : g != null && g.piecewise() != null ? g.piecewise().steps() : List.of();
        double[] stepU = new double[steps.size()];
        String[] stepText = new String[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            stepU[i] = (steps.get(i).at() - x0) / 1e9;
            stepText[i] = stepLabel(steps.get(i));
        }
        for (SvgPlot plot : new SvgPlot[] {full, zoom}) {
            if (pieces != null) {
                Knots k = Knots.of(pieces, x0 + Math.round(ur[0] * 1e9), x0 + Math.round(ur[1] * 1e9), x0);
                plot.rug(k.knots(), KNOTS, "knots (" + pieces.segments().size() + " pieces)", "knots");
            }
            if (stepU.length > 0) {
                plot.markers(stepU, stepText, STEPS, "clock steps: size [bounds]", "step");
            }
        }
        // the corridor's slope in µs per s is the pair's drift × 10⁶
        double[] window = densestWindow(ab, ba, pr != null && Double.isFinite(pr.drift()) ? pr.drift() * 1e6 : 0);
        if (window != null) {
            zoom.xRange(window[0], window[1]).yRange(window[2], window[3]);
        }
        // a zoom on a handful of messages shows nothing more than the whole trace
        boolean zoomed = window != null && ab[0].length + ba[0].length >= 40;
        out.append("<div class=\"plots\">\n").append(full.render()).append(zoomed ? zoom.render() : "").append("</div>\n");
        out.append("<p class=\"cap\">").append(p.aToB.offered()).append(" messages ").append(Html.escape(a)).append(" → ")
                .append(Html.escape(b)).append(", ").append(p.bToA.offered()).append(" messages ").append(Html.escape(b))
                .append(" → ").append(Html.escape(a)).append("; X0 = ").append(x0).append(" ns on ").append(Html.escape(a))
                .append("'s clock; ").append(hullNote)
                .append(env == null ? "; bounds drawn only when one node is the other's reference" : "")
                .append(pieces == null ? "" : "; piecewise: " + pieces.segments().size() + " pieces on "
                        + Math.round(g.piecewise().bucketWidth() / 1e6) + " ms buckets, knots marked along the bottom")
                .append(steps.isEmpty() ? "" : "; " + steps.size() + " clock step" + (steps.size() == 1 ? "" : "s")
                        + " dashed, labelled with the jump of " + Html.escape(b) + "'s clock relative to "
                        + Html.escape(a) + "'s and its bounds")
                .append(p.inversions > 0 ? "; " + p.inversions + " inversions after correction" : "").append(".</p>\n");
    }

    private SvgPlot figure5(String title, String a, String b, double[][] ab, double[][] ba, double[][] lowerHull,
                            double[][] upperHull, double[] ex, double[] ey, double[][] env, double[][] truth) {
        SvgPlot plot = new SvgPlot(660, 380, title, "u = x − X0 on " + a + "'s clock (s)", "v = y − x (µs)");
        if (env != null) {
            plot.band(env[0], env[1], env[2], BOUNDS, "bounds");
        }
        plot.points(ab[0], ab[1], A_TO_B, a + " → " + b);
        plot.points(ba[0], ba[1], B_TO_A, b + " → " + a);
        plot.vertices(lowerHull[0], lowerHull[1], "#0b3d66", "lower hull of " + a + " → " + b);
        plot.vertices(upperHull[0], upperHull[1], "#7a1010", "upper hull of " + b + " → " + a);
        if (ey != null) {
            plot.line(ex, ey, ESTIMATE, "estimate", "8,4");
        }
        if (truth != null) {
            plot.line(truth[0], truth[1], TRUTH, "true conversion (truth file)", "2,3");
        }
        return plot;
    }

    /**
     * The true reference time of this node's local time t, for the plots against the estimate: a
     * local time read twice (around a backward step of the node's clock) has two, one on each side
     * of the step; the one nearest the estimate's reading is its own side's (the other is a step
     * away), so the true error drawn there is the estimate's error, not the step's size.
     */
    static long trueReference(ClockModel own, ClockModel ref, ClockTransform transform, long t) {
        long[] instants = own.trueTimes(t);
        long estimate = transform.apply(t);
        long best = ref.local(instants[0]);
        for (int i = 1; i < instants.length; i++) {
            long r = ref.local(instants[i]);
            if (Math.abs(r - estimate) < Math.abs(best - estimate)) {
                best = r;
            }
        }
        return best;
    }

    /** With a truth file: v = y − x of the true conversion from a's clock to b's, over u range {@code ur} (s). */
    private double[][] trueLine(String a, String b, long x0, double[] ur) {
        ClockModel ca = in.truth().get(a);
        ClockModel cb = in.truth().get(b);
        if (ca == null || cb == null) {
            return null;
        }
        int n = 100;
        double[][] line = new double[2][n + 1];
        for (int i = 0; i <= n; i++) {
            double u = ur[0] + (ur[1] - ur[0]) * i / n;
            long x = x0 + Math.round(u * 1e9);
            line[0][i] = u;
            line[1][i] = (cb.local(ca.trueTime(x)) - x) / 1e3;
        }
        return line;
    }

    /** v + v0 for every hull vertex (v = y − x in ns). */
    private static long[] plus(long[] v, long v0) {
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] + v0;
        }
        return out;
    }

    /** Bounds in pair coordinates, from the exact geometry or from a node's bounds when one is the other's reference. */
    private double[][] envelope(ReportSampler.Pair p, String a, String b, long x0, PairEstimate g) {
        if (g != null && g.hasBounds() && g.maxX() > g.minX()) {
            // the pair's bound functions at 201 instants of its span, where both sides are finite
            int n = 200;
            double[][] e = new double[3][n + 1];
            int m = 0;
            for (int i = 0; i <= n; i++) {
                long x = g.minX() + Math.round((double) (g.maxX() - g.minX()) * i / n);
                double l = g.lowerAToB().deltaAt(x);
                double h = g.upperAToB().deltaAt(x);
                if (Double.isFinite(l) && Double.isFinite(h)) {
                    e[0][m] = (x - x0) / 1e9;
                    e[1][m] = l / 1e3;
                    e[2][m] = h / 1e3;
                    m++;
                }
            }
            if (m > 0) {
                return new double[][] {java.util.Arrays.copyOf(e[0], m), java.util.Arrays.copyOf(e[1], m),
                    java.util.Arrays.copyOf(e[2], m)};
            }
        }
        NodeResult na = in.sampler().nodeResult(p.a);
        NodeResult nb = in.sampler().nodeResult(p.b);
        if (nb != null && nb.reference().equals(a) && !nb.bounds().isEmpty()) {
            // rows on b's clock: a-time x ∈ [t + c − minus, t + c + plus], so v = t − x ∈ [−c − plus, −c + minus]
            List<BoundRow> rows = finite(nb.bounds().rowsWithin(nb.start(), nb.end()));
            double[][] e = new double[3][rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                BoundRow r = rows.get(i);
                double c = nb.transform().correction(r.t());
                e[0][i] = ((r.t() - x0) + c) / 1e9;
                e[1][i] = (-c - r.plus()) / 1e3;
                e[2][i] = (-c + r.minus()) / 1e3;
            }
            return e;
        }
        if (na != null && na.reference().equals(b) && !na.bounds().isEmpty()) {
            // rows on a's clock: b-time y ∈ [t + c − minus, t + c + plus], v = y − t
            List<BoundRow> rows = finite(na.bounds().rowsWithin(na.start(), na.end()));
            double[][] e = new double[3][rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                BoundRow r = rows.get(i);
                double c = na.transform().correction(r.t());
                e[0][i] = (r.t() - x0) / 1e9;
                e[1][i] = (c - r.minus()) / 1e3;
                e[2][i] = (c + r.plus()) / 1e3;
            }
            return e;
        }
        return null;
    }

    /**
     * The densest twentieth of u (± one bin) and, there, the corridor between the two clouds:
     * from the highest b → a point to the lowest a → b point, padded by a quarter of its height
     * (crossing clouds: between the quartiles).
     */
    static double[] densestWindow(double[][] ab, double[][] ba) {
        return densestWindow(ab, ba, 0);
    }

    /**
     * As {@link #densestWindow(double[][], double[][])}, for a corridor of slope {@code slope}
     * (v units per u unit: the pair's drift): the extremes are taken on v − slope·u, so that a
     * drifting corridor is not mistaken for crossing clouds, and the frame covers the corridor's
     * rise or fall across the window.
     */
    static double[] densestWindow(double[][] ab, double[][] ba, double slope) {
        double[] ur = range(ab[0], ba[0]);
        if (!(ur[1] > ur[0])) {
            return null;
        }
        int bins = 20;
        int[] counts = new int[bins];
        for (double[] us : new double[][] {ab[0], ba[0]}) {
            for (double u : us) {
                counts[Math.min(bins - 1, (int) ((u - ur[0]) / (ur[1] - ur[0]) * bins))]++;
            }
        }
        int best = 0;
        for (int i = 1; i < bins; i++) {
            if (counts[i] > counts[best]) {
                best = i;
            }
        }
        double w = (ur[1] - ur[0]) / bins;
        double lo = ur[0] + Math.max(0, best - 1) * w;
        double hi = ur[0] + Math.min(bins, best + 2) * w;
        double[] vAb = inWindow(ab, lo, hi, slope);
        double[] vBa = inWindow(ba, lo, hi, slope);
        double top;
        double bottom;
        if (vAb.length > 0 && vBa.length > 0) {
            // the corridor: between the lowest a → b point and the highest b → a point (the hulls' edges there);
            // quantiles would frame the latency tails, thousands of times wider than a µs corridor
            top = quantile(vAb, 0.0);
            bottom = quantile(vBa, 1.0);
            if (top <= bottom) {
                // crossing clouds: frame the overlap and a little of each cloud
                top = quantile(vAb, 0.25);
                bottom = quantile(vBa, 0.75);
                if (top <= bottom) {
                    double t = top;
                    top = bottom;
                    bottom = t;
                }
            }
        } else {
            double[] v = vAb.length > 0 ? vAb : vBa;
            if (v.length == 0) {
                return null;
            }
            top = quantile(v, 0.5);
            bottom = quantile(v, 0.0);
            if (vAb.length == 0) {
                top = quantile(v, 1.0);
                bottom = quantile(v, 0.5);
            }
        }
        if (!(top > bottom)) {
            top = bottom + 1;
        }
        double pad = (top - bottom) * 0.25;
        double rise = slope * (hi - lo);
        return new double[] {lo, hi, bottom + slope * lo + Math.min(0, rise) - pad, top + slope * lo + Math.max(0, rise) + pad};
    }

    /** v − slope·(u − lo) of the points whose u lies in [lo, hi], i.e. v detrended to the window's left edge. */
    private static double[] inWindow(double[][] pts, double lo, double hi, double slope) {
        return java.util.stream.IntStream.range(0, pts[0].length).filter(i -> pts[0][i] >= lo && pts[0][i] <= hi)
                .mapToDouble(i -> pts[1][i] - slope * pts[0][i]).toArray();
    }

    private static double quantile(double[] values, double q) {
        if (values.length == 0) {
            return 0;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return v[(int) Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1))))];
    }

    private static double[] range(double[] a, double[] b) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double[] arr : new double[][] {a, b}) {
            for (double v : arr) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        return lo <= hi ? new double[] {lo, hi} : new double[] {0, 1};
    }

    private static double[][] scaled(long[] u, long[] v, long shift) {
        double[][] r = new double[2][u.length];
        for (int i = 0; i < u.length; i++) {
            r[0][i] = (u[i] + shift) / 1e9;
            r[1][i] = v[i] / 1e3;
        }
        return r;
    }

    /**
     * Lower (or upper) half hull of the drawn points (Andrew's monotone chain, O(n log n)), for
     * display only: exact hulls come from the pair geometry when given.
     */
    static double[][] hull(double[] xs, double[] ys, boolean lower) {
        Integer[] idx = new Integer[xs.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (i, j) -> xs[i] != xs[j] ? Double.compare(xs[i], xs[j]) : Double.compare(ys[i], ys[j]));
        double sign = lower ? 1 : -1;
        int[] h = new int[idx.length];
        int k = 0;
        for (Integer i : idx) {
            while (k >= 2) {
                int p = h[k - 2];
                int q = h[k - 1];
                double cross = (xs[q] - xs[p]) * (ys[i] - ys[p]) - (ys[q] - ys[p]) * (xs[i] - xs[p]);
                if (sign * cross <= 0) {
                    k--;
                } else {
                    break;
                }
            }
            h[k++] = i;
        }
        double[][] r = new double[2][k];
        for (int i = 0; i < k; i++) {
            r[0][i] = xs[h[i]];
            r[1][i] = ys[h[i]];
        }
        return r;
    }

    // ---------------------------------------------------------------- pieces, knots, steps

    /**
     * Knots of a piecewise transform inside [from, to] as plot abscissas (s since {@code origin}),
     * and its steps: knots where it jumps by more than {@link #STEP_JUMP_NS}, labelled with the jump.
     */
    record Knots(double[] knots, double[] steps, String[] labels) {
        static Knots of(ClockTransform t, long from, long to, long origin) {
            List<LinearSegment> segs = t.segments();
            double[] knots = new double[segs.size()];
            double[] steps = new double[segs.size()];
            String[] labels = new String[segs.size()];
            int n = 0;
            int m = 0;
            for (int k = 1; k < segs.size(); k++) {
                long at = segs.get(k).from();
                if (at < from || at > to) {
                    continue;
                }
                knots[n++] = (at - origin) / 1e9;
                double jump = segs.get(k).correction(at) - segs.get(k - 1).correction(at);
                if (Math.abs(jump) > STEP_JUMP_NS) {
                    steps[m] = (at - origin) / 1e9;
                    labels[m++] = String.format(Locale.ROOT, "jump %+.3f ms", jump / 1e6);
                }
            }
            return new Knots(Arrays.copyOf(knots, n), Arrays.copyOf(steps, m), Arrays.copyOf(labels, m));
        }
    }

    /** "step +4.274 ms [+4.198, +4.352]": a pair's clock step, its size and bounds. */
    static String stepLabel(ClockStep st) {
        return String.format(Locale.ROOT, "step %+.3f ms", st.size() / 1e6) + (Double.isNaN(st.sizeMin()) ? ""
                : String.format(Locale.ROOT, " [%+.3f, %+.3f]", st.sizeMin() / 1e6, st.sizeMax() / 1e6));
    }

    /**
     * A pair's piecewise estimate as v = y − x (µs) over u = (x − x0) (s) in [uFrom, uTo]: the ends
     * and both sides of every knot inside, so that steps show as vertical jumps.
     */
    static double[][] pieceLine(ClockTransform e, long x0, double uFrom, double uTo) {
        long from = x0 + Math.round(uFrom * 1e9);
        long to = x0 + Math.round(uTo * 1e9);
        double[][] l = correctionPoints(e, from, to, 0);
        for (int i = 0; i < l[0].length; i++) {
            l[0][i] = (Math.round(l[0][i]) - x0) / 1e9;
            l[1][i] /= 1e3;
        }
        return l;
    }

    /**
     * A node's piecewise correction (ms) over its local time since {@code start} (s): {@code samples}
     * evenly spaced instants plus both sides of every knot, in time order.
     */
    static double[][] correctionLine(ClockTransform t, long start, long end, int samples) {
        double[][] l = correctionPoints(t, start, end, samples);
        for (int i = 0; i < l[0].length; i++) {
            l[0][i] = (Math.round(l[0][i]) - start) / 1e9;
            l[1][i] /= 1e6;
        }
        return l;
    }

    /** {t, correction(t) ns} at from, to, {@code samples} instants between and both sides of each knot. */
    private static double[][] correctionPoints(ClockTransform t, long from, long to, int samples) {
        java.util.TreeMap<Long, double[]> pts = new java.util.TreeMap<>();
        pts.put(from, new double[] {t.correction(from)});
        pts.put(to, new double[] {t.correction(to)});
        for (int i = 1; i < samples; i++) {
            long x = from + Math.round((double) (to - from) * i / samples);
            pts.put(x, new double[] {t.correction(x)});
        }
        List<LinearSegment> segs = t.segments();
        for (int k = 1; k < segs.size(); k++) {
            long at = segs.get(k).from();
            if (at > from && at < to) {
                pts.put(at, new double[] {segs.get(k - 1).correction(at), segs.get(k).correction(at)});
            }
        }
        int n = 0;
        for (double[] v : pts.values()) {
            n += v.length;
        }
        double[][] out = new double[2][n];
        int i = 0;
        for (java.util.Map.Entry<Long, double[]> e : pts.entrySet()) {
            for (double v : e.getValue()) {
                out[0][i] = e.getKey();
                out[1][i++] = v;
            }
        }
        return out;
    }

    /** What a node's piecewise plots show, and the clock steps of the pairs on its path (size and bounds). */
    private String piecewiseCaption(NodeResult n) {
        StringBuilder c = new StringBuilder("Piecewise transform: ").append(n.transform().segments().size())
                .append(" segments; their knots are marked along the bottom of both plots, and the knots where the "
                        + "correction jumps by more than ").append(ns(STEP_JUMP_NS)).append(" are dashed (clock steps).");
        List<String> said = new ArrayList<>();
        for (int i = 0; i + 1 < n.path().size(); i++) {
            String x = n.path().get(i);
            String y = n.path().get(i + 1);
            for (PairResult p : in.result().pairs()) {
                if ((p.a().equals(x) && p.b().equals(y)) || (p.a().equals(y) && p.b().equals(x))) {
                    for (ClockStep st : p.steps()) {
                        said.add("pair " + p.a() + "/" + p.b() + ": " + p.b() + "'s clock jumps by " + stepLabel(st).substring(5)
                                + " ms relative to " + p.a() + "'s at " + p.a() + "-time " + st.at());
                    }
                }
            }
        }
        if (!said.isEmpty()) {
            c.append(" Clock steps on its path (size [bounds]): ").append(Html.escape(String.join("; ", said))).append('.');
        }
        return c.toString();
    }

    // ---------------------------------------------------------------- formatting

    /** {x (s since start), −minus or +plus (µs)} of the rows where only that side is finite. */
    static double[][] oneSide(List<BoundRow> rows, long start, boolean minus) {
        List<BoundRow> keep = rows.stream().filter(r -> minus
                ? Double.isFinite(r.minus()) && !Double.isFinite(r.plus())
                : Double.isFinite(r.plus()) && !Double.isFinite(r.minus())).toList();
        double[][] out = new double[2][keep.size()];
        for (int i = 0; i < keep.size(); i++) {
            out[0][i] = (keep.get(i).t() - start) / 1e9;
            out[1][i] = minus ? -keep.get(i).minus() / 1e3 : keep.get(i).plus() / 1e3;
        }
        return out;
    }

    /** The rows with both sides finite (a one-sided or partly unbounded band is not drawn there). */
    private static List<BoundRow> finite(List<BoundRow> rows) {
        return rows.stream().filter(r -> Double.isFinite(r.minus()) && Double.isFinite(r.plus())).toList();
    }

    static String ns(double v) {
        if (!Double.isFinite(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 1e9) {
            return String.format(Locale.ROOT, "%.6f s", v / 1e9);
        }
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.3f ms", v / 1e6);
        }
        if (a >= 1e3) {
            return String.format(Locale.ROOT, "%.3f µs", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f ns", v);
    }

    static String ppm(double drift) {
        return Double.isFinite(drift) ? String.format(Locale.ROOT, "%.4f ppm", drift * 1e6) : "–";
    }
}
