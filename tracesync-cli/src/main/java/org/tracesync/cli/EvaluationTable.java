package org.tracesync.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.evaluate.EvaluationReport;

/**
 * Renders an {@link EvaluationReport}: a table in the manner of Poirier et al.'s and Ashton's
 * evaluation tables (one row per direction), or JSON (ns values, nulls for unknowns).
 */
final class EvaluationTable {

    private EvaluationTable() {
    }

    private static String us(double ns) {
        return Double.isNaN(ns) ? "-" : String.format(Locale.ROOT, "%.3f", ns / 1000.0);
    }

    static String text(EvaluationReport r, String title, String tauSource) {
        StringBuilder b = new StringBuilder();
        b.append(title).append('\n');
        String fmt = "%-22s %9s %10s %9s %10s %10s %11s %10s %10s %10s%n";
        b.append(String.format(Locale.ROOT, fmt, "direction", "messages", "inversions", "too fast", "tau_min µs",
                "min lat µs", "mean lat µs", "width best", "width worst", "width mean"));
        for (EvaluationReport.Direction d : r.directions()) {
            EvaluationReport.Accuracy a = d.accuracy();
            b.append(String.format(Locale.ROOT, fmt, d.sender() + " -> " + d.receiver(), d.messages(), d.inversions(),
                    d.minimumLatency() < 0 ? "-" : Long.toString(d.tooFast()),
                    d.minimumLatency() < 0 ? "-" : us(d.minimumLatency()), us(d.smallestLatency()),
                    us(d.meanLatency()), a == null ? "-" : us(a.best()), a == null ? "-" : us(a.worst()),
                    a == null ? "-" : us(a.mean())));
        }
        b.append(String.format(Locale.ROOT, fmt, "total", r.messages(), r.inversions(), r.tooFast(), "", "", "", "",
                "", ""));
        b.append("bound width of the pair at each message (Δ+ + Δ− of both nodes, µs): ");
        if (r.accuracy() == null) {
            b.append("unknown (no bounds in the result)\n");
        } else {
            b.append(String.format(Locale.ROOT, "best %s, worst %s, mean %s over %d messages%n", us(r.accuracy().best()),
                    us(r.accuracy().worst()), us(r.accuracy().mean()), r.accuracy().count()));
        }
        b.append("tau_min: ").append(tauSource).append('\n');
        if (r.skipped() > 0) {
            b.append(r.skipped()).append(" messages between nodes of different groups were not evaluated\n");
        }
        if (r.broadcasts() != null) {
            EvaluationReport.Broadcasts br = r.broadcasts();
            b.append(String.format(Locale.ROOT, "broadcast differential delay (µs): %d groups, spread min %s, mean %s, max %s%n",
                    br.groups(), us(br.minSpread()), us(br.meanSpread()), us(br.maxSpread())));
        }
        if (r.truth() != null) {
            EvaluationReport.Truth t = r.truth();
            b.append(String.format(Locale.ROOT, "error vs true clocks (µs): max %s, p50 %s, p99 %s over %d instants%n",
                    us(t.maxError()), us(t.p50Error()), us(t.p99Error()), t.instants()));
            b.append(String.format(Locale.ROOT, "bounds contain the truth at %s of %d instants with bounds%s%n",
                    contained(t),
                    t.withBounds(), t.oneSided() == 0 ? "" : String.format(Locale.ROOT,
                            " (%d of them one-sided: only the bounded side checked)", t.oneSided())));
        }
        b.append(r.noInversion() ? "no inversion\n" : r.inversions() + " inversions\n");
        return b.toString();
    }

    /**
     * The share of instants whose truth lies inside the bounds, rounded down (a share below 1 is
     * never printed as 100.00 %), with the count outside when there is one; "-" without bounds.
     */
    static String contained(EvaluationReport.Truth t) {
        if (t.withBounds() == 0 || Double.isNaN(t.containedShare())) {
            return "-";
        }
        long outside = Math.round((1 - t.containedShare()) * t.withBounds());
        double percent = Math.floor(t.containedShare() * 10_000 + 1e-9) / 100;
        if (outside == 0) {
            return String.format(Locale.ROOT, "%.2f%%", percent);
        }
        percent = Math.min(percent, 99.99);
        return String.format(Locale.ROOT, "%.2f%% (%d of %d outside)", percent, outside, t.withBounds());
    }

    static String json(EvaluationReport r, String tauSource) throws com.fasterxml.jackson.core.JsonProcessingException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("messages", r.messages());
        root.put("skipped", r.skipped());
        root.put("inversions", r.inversions());
        root.put("too_fast", r.tooFast());
        root.put("tau_min_source", tauSource);
        List<Object> dirs = new ArrayList<>();
        for (EvaluationReport.Direction d : r.directions()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sender", d.sender());
            m.put("receiver", d.receiver());
            m.put("messages", d.messages());
            m.put("inversions", d.inversions());
            m.put("too_fast", d.minimumLatency() < 0 ? null : d.tooFast());
            m.put("tau_min_ns", d.minimumLatency() < 0 ? null : d.minimumLatency());
            m.put("min_latency_ns", d.smallestLatency());
            m.put("mean_latency_ns", d.meanLatency());
            m.put("accuracy_ns", accuracy(d.accuracy()));
            dirs.add(m);
        }
        root.put("directions", dirs);
        root.put("accuracy_ns", accuracy(r.accuracy()));
        if (r.broadcasts() != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("groups", r.broadcasts().groups());
            m.put("min_spread_ns", r.broadcasts().minSpread());
            m.put("mean_spread_ns", r.broadcasts().meanSpread());
            m.put("max_spread_ns", r.broadcasts().maxSpread());
            root.put("broadcasts", m);
        } else {
            root.put("broadcasts", null);
        }
        if (r.truth() != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("instants", r.truth().instants());
            m.put("max_error_ns", r.truth().maxError());
            m.put("p50_error_ns", r.truth().p50Error());
            m.put("p99_error_ns", r.truth().p99Error());
            m.put("instants_with_bounds", r.truth().withBounds());
            m.put("instants_with_one_sided_bounds", r.truth().oneSided());
            m.put("contained_share", Double.isNaN(r.truth().containedShare()) ? null : r.truth().containedShare());
            root.put("truth", m);
        } else {
            root.put("truth", null);
        }
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
    }

    private static Object accuracy(EvaluationReport.Accuracy a) {
        if (a == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("best", a.best());
        m.put("worst", a.worst());
        m.put("mean", a.mean());
        m.put("count", a.count());
        return m;
    }
}
