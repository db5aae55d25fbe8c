package org.tracesync.formats.spans;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;

/**
 * Counts causality violations per host pair, before and after correction (DESIGN §5 for spans):
 * a constraint "B's event after A's" is violated when B's time is earlier than A's. Raw: on the
 * recorded times. Corrected: both times mapped through their hosts' transforms (same reference
 * only; otherwise the pair is "not comparable"); an event around a clock step takes the reading its
 * constraint's other end allows ({@link MessageEnds}), as {@code eval} does. A corrected violation smaller than the timestamp
 * resolution r (precisely: the constraint with its earlier event moved r earlier, as the fit used it,
 * holds after correction) is counted apart, as {@code withinResolution}: the files cannot record which of two
 * events less than one quantum apart came first, so such a violation is explained, not an error.
 * O(1) per constraint; memory O(host pairs).
 */
public final class SpanViolations implements ConstraintSink {

    /** Counts for one unordered host pair (a < b by name). */
    public static final class PairCount {
        public final String a;
        public final String b;
        public long constraints;
        public long before;
        public long after;
        public long withinResolution;
        public long notComparable;
        /** Largest raw violation (ns, positive), and after correction. */
        public long worstBefore;
        public double worstAfter;
        /** Trace id (hex) of the worst raw violation, or empty; and as two longs. */
        public String worstTrace = "";
        public long worstTraceHi;
        public long worstTraceLo;

        PairCount(String a, String b) {
            this.a = a;
            this.b = b;
        }
    }

    private final List<String> hosts;
    private final NodeResult[] results;
    private final Map<String, PairCount> pairs = new TreeMap<>();
    private final PairCount[][] byIndex;

    /** @param hosts the input's host names in index order; {@code result} the synchronization (or null: raw only) */
    public SpanViolations(List<String> hosts, SyncResult result) {
        this.hosts = List.copyOf(hosts);
        this.results = new NodeResult[hosts.size()];
        this.byIndex = new PairCount[hosts.size()][hosts.size()];
        if (result != null) {
            for (int i = 0; i < hosts.size(); i++) {
                for (NodeResult n : result.nodes()) {
                    if (n.name().equals(hosts.get(i))) {
                        results[i] = n;
                    }
                }
            }
        }
    }

    @Override
    public void constraint(Kind kind, int from, int to, long fromTime, long toTime, long resolution, long traceHi,
                           long traceLo) {
        PairCount c = pair(from, to);
        c.constraints++;
        if (toTime < fromTime) {
            c.before++;
            if (fromTime - toTime > c.worstBefore) {
                c.worstBefore = fromTime - toTime;
                c.worstTrace = SpanIds.hex16(traceHi) + SpanIds.hex16(traceLo);
                c.worstTraceHi = traceHi;
                c.worstTraceLo = traceLo;
            }
        }
        NodeResult f = results[from];
        NodeResult t = results[to];
        if (f == null || t == null || !f.reference().equals(t.reference())) {
            c.notComparable++;
            return;
        }
        double gap = latency(f.transform(), fromTime, t.transform(), toTime);
        // beyond the resolution: the widened message (sent one quantum earlier) arrives before it was sent,
        // exactly the inversion test of the evaluation on the messages the fit used
        double widened = latency(f.transform(), fromTime - resolution, t.transform(), toTime);
        if (widened < 0) {
            c.after++;
            c.worstAfter = Math.max(c.worstAfter, -gap);
        } else if (gap < 0) {
            c.withinResolution++;
        }
    }

    /**
     * The corrected latency of the message from local time {@code st} (sender) to {@code rt}
     * (receiver), ns: an end around a clock step takes the reading its other end allows
     * ({@link MessageEnds}, as the evaluation does), elsewhere its local time's segment.
     */
    private static double latency(ClockTransform sender, long st, ClockTransform receiver, long rt) {
        return MessageEnds.latency(sender, st, receiver, rt);
    }

    private PairCount pair(int x, int y) {
        PairCount c = byIndex[x][y];
        if (c == null) {
            String a = hosts.get(x);
            String b = hosts.get(y);
            String lo = a.compareTo(b) <= 0 ? a : b;
            String hi = lo == a ? b : a;
            c = pairs.computeIfAbsent(lo + "\u0000" + hi, k -> new PairCount(lo, hi));
            byIndex[x][y] = c;
            byIndex[y][x] = c;
        }
        return c;
    }

    /** Per host pair, ordered by name. */
    public List<PairCount> pairs() {
        return new ArrayList<>(pairs.values());
    }

    public long totalBefore() {
        return pairs.values().stream().mapToLong(p -> p.before).sum();
    }

    /** Violations beyond the timestamp resolution after correction. */
    public long totalAfter() {
        return pairs.values().stream().mapToLong(p -> p.after).sum();
    }

    public long totalWithinResolution() {
        return pairs.values().stream().mapToLong(p -> p.withinResolution).sum();
    }

    public long totalNotComparable() {
        return pairs.values().stream().mapToLong(p -> p.notComparable).sum();
    }
}
