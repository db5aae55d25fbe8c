package org.tracesync.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.formats.spans.SpanConstraints;
import org.tracesync.formats.spans.SpanViolations;

/** The span part of {@code eval}: causality violations per host pair, before and after correction. */
final class SpanEvaluationTable {

    private SpanEvaluationTable() {
    }

    static String text(SpanViolations v, SpanConstraints.Counts counts) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nSpan causality (%d spans, %d cross-host constraints): violations %d before"
                        + " correction, %d after (beyond the timestamp resolution), %d within one resolution step"
                        + " (order not recorded), %d between hosts not synchronized to one reference%n",
                counts.spans(), counts.constraints(), v.totalBefore(), v.totalAfter(), v.totalWithinResolution(),
                v.totalNotComparable()));
        b.append(String.format(Locale.ROOT, "  %-24s %-24s %11s %8s %8s %8s %8s %14s  %s%n", "host A", "host B",
                "constraints", "before", "after", "within", "n/c", "worst before", "worst trace"));
        for (SpanViolations.PairCount p : v.pairs()) {
            b.append(String.format(Locale.ROOT, "  %-24s %-24s %11d %8d %8d %8d %8d %14s  %s%n", p.a, p.b, p.constraints,
                    p.before, p.after, p.withinResolution, p.notComparable,
                    p.before == 0 ? "-" : String.format(Locale.ROOT, "%.1f us", p.worstBefore / 1e3), p.worstTrace));
        }
        return b.toString();
    }

    static Map<String, Object> json(SpanViolations v, SpanConstraints.Counts counts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("spans", counts.spans());
        m.put("constraints", counts.constraints());
        m.put("violations_before", v.totalBefore());
        m.put("violations_after", v.totalAfter());
        m.put("within_resolution_after", v.totalWithinResolution());
        m.put("not_comparable", v.totalNotComparable());
        List<Map<String, Object>> pairs = new ArrayList<>();
        for (SpanViolations.PairCount p : v.pairs()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("a", p.a);
            pm.put("b", p.b);
            pm.put("constraints", p.constraints);
            pm.put("before", p.before);
            pm.put("after", p.after);
            pm.put("within_resolution", p.withinResolution);
            pm.put("not_comparable", p.notComparable);
            pm.put("worst_before_ns", p.worstBefore);
            pm.put("worst_after_ns", p.worstAfter);
            pm.put("worst_trace", p.worstTrace);
            pairs.add(pm);
        }
        m.put("pairs", pairs);
        return m;
    }
}
