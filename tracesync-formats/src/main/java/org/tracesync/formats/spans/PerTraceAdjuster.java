package org.tracesync.formats.spans;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline tracesync is compared with: a per-trace clock-skew adjuster in the manner of Jaeger's
 * (model/adjuster/clockskew.go) and the Zipkin UI's. Each trace is corrected on its own, walking its
 * span tree from the root: a child on another host that does not fit inside its parent is moved so
 * that it sits in the middle of its parent, assuming symmetric latency
 * ({@code skew = parent.start + (parent.duration − child.duration) / 2 − child.start}); a child
 * longer than its parent (asynchronous, or another clock) is only moved to start after its parent;
 * a span on the same host as the skew carried down from its parent inherits that skew. Nothing is fitted across traces and no
 * bound is given. O(spans) per trace; one trace in memory.
 */
public final class PerTraceAdjuster {

    private PerTraceAdjuster() {
    }

    /**
     * The adjustment (ns, to add to start and end) of every span of one trace, in the trace's order.
     *
     * @param hostOf host of each span (same order)
     */
    public static long[] adjust(List<SimulatedSpan> trace, int[] hostOf) {
        int n = trace.size();
        Map<Long, Integer> byId = new HashMap<>();
        for (int i = 0; i < n; i++) {
            byId.put(trace.get(i).spanId(), i);
        }
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            children.add(new ArrayList<>());
        }
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Integer p = byId.get(trace.get(i).parentId());
            if (trace.get(i).parentId() == 0 || p == null) {
                roots.add(i);
            } else {
                children.get(p).add(i);
            }
        }
        long[] skew = new long[n];
        for (int r : roots) {
            walk(r, -1, trace, hostOf, children, skew, hostOf[r], 0);
        }
        return skew;
    }

    /** Jaeger's adjustNode: a span on the carried skew's host inherits it; on another host, a new skew is computed. */
    private static void walk(int i, int parent, List<SimulatedSpan> trace, int[] hostOf, List<List<Integer>> children,
                             long[] skew, int skewHost, long delta) {
        if (hostOf[i] != skewHost && parent >= 0) {
            skewHost = hostOf[i];
            delta = skewOf(trace.get(i), trace.get(parent), skew[parent]);
        }
        skew[i] = delta;
        for (int c : children.get(i)) {
            walk(c, i, trace, hostOf, children, skew, skewHost, delta);
        }
    }

    /** Jaeger's calculateSkew, against the parent as already adjusted. */
    private static long skewOf(SimulatedSpan child, SimulatedSpan parent, long parentSkew) {
        long pStart = parent.start() + parentSkew;
        long pDur = parent.end() - parent.start();
        long cDur = child.end() - child.start();
        if (pDur < cDur) { // longer than its parent: only make it start after the parent
            return child.start() < pStart ? pStart - child.start() : 0;
        }
        if (child.start() >= pStart && child.end() <= pStart + pDur) {
            return 0;
        }
        return pStart + (pDur - cDur) / 2 - child.start();
    }
}
