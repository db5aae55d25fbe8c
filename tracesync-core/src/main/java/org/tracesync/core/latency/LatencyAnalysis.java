package org.tracesync.core.latency;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.latency.LatencyInstances.Kind;
import org.tracesync.core.latency.LatencyInstances.Measurements;

/**
 * Every measurement of a {@link LatencyInstances} with its latency and error bar
 * ({@link LatencyBars}), and the statistics per group: per simple event and node, per chained
 * transition (event, from step, to step, from node, to node), per chained end to end (event,
 * first and last step and their nodes). O(n log n) for n measurements; memory O(n) primitives.
 */
public final class LatencyAnalysis {

    /** {@link LatencyBars.Status#values()} once: values() copies its array on every call. */
    private static final LatencyBars.Status[] STATUSES = LatencyBars.Status.values();

    /** One group of measurements with its statistics; {@code unsynchronized} instances are not in them. */
    public record Group(Kind kind, String event, int fromStep, int toStep, String fromNode, String toNode,
                        LatencyStatistics statistics, long unsynchronized) {
        public boolean crossNode() {
            return !fromNode.equals(toNode);
        }
    }

    private final LatencyInstances instances;
    private final long[] latency;
    private final long[] minus;
    private final long[] plus;
    private final byte[] status;
    private final List<Group> groups;

    private LatencyAnalysis(LatencyInstances instances, long[] latency, long[] minus, long[] plus, byte[] status,
                            List<Group> groups) {
        this.instances = instances;
        this.latency = latency;
        this.minus = minus;
        this.plus = plus;
        this.status = status;
        this.groups = List.copyOf(groups);
    }

    public static LatencyAnalysis of(LatencyInstances instances, LatencyBars bars) {
        Measurements m = instances.measurements();
        int n = m.size();
        long[] latency = new long[n];
        long[] minus = new long[n];
        long[] plus = new long[n];
        byte[] status = new byte[n];
        long[] out = new long[3];
        for (int i = 0; i < n; i++) {
            LatencyBars.Status s = bars.measure(m.fromNode(i), m.timeFrom(i), m.toNode(i), m.timeTo(i), out);
            status[i] = (byte) s.ordinal();
            if (s != LatencyBars.Status.UNSYNCHRONIZED) {
                latency[i] = out[0];
                minus[i] = out[1];
                plus[i] = out[2];
            }
        }
        // group: sort measurement indices by group key, then by kind order for output
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        IndexSort.sort(idx, (x, y) -> {
            int c = Integer.compare(m.event(x), m.event(y));
            if (c == 0) {
                c = Integer.compare(order(m.kind(x)), order(m.kind(y)));
            }
            if (c == 0) {
                c = Integer.compare(m.fromStep(x), m.fromStep(y));
            }
            if (c == 0) {
                c = Integer.compare(m.toStep(x), m.toStep(y));
            }
            if (c == 0) {
                c = Integer.compare(m.fromNode(x), m.fromNode(y));
            }
            return c != 0 ? c : Integer.compare(m.toNode(x), m.toNode(y));
        });
        List<String> nodes = instances.events().nodeNames();
        List<Group> groups = new ArrayList<>();
        long[] gl = new long[n];
        long[] gm = new long[n];
        long[] gp = new long[n];
        for (int lo = 0; lo < n; ) {
            int first = idx[lo];
            int hi = lo;
            int count = 0;
            long unsynced = 0;
            boolean bounded = true;
            while (hi < n && sameGroup(m, first, idx[hi])) {
                int i = idx[hi];
                if (status[i] == LatencyBars.Status.UNSYNCHRONIZED.ordinal()) {
                    unsynced++;
                } else {
                    bounded &= status[i] == LatencyBars.Status.BOUNDED.ordinal();
                    gl[count] = latency[i];
                    gm[count] = minus[i];
                    gp[count] = plus[i];
                    count++;
                }
                hi++;
            }
            groups.add(new Group(m.kind(first), instances.events().eventName(m.event(first)), m.fromStep(first),
                    m.toStep(first), nodes.get(m.fromNode(first)), nodes.get(m.toNode(first)),
                    LatencyStatistics.of(gl, gm, gp, count, bounded), unsynced));
            lo = hi;
        }
        return new LatencyAnalysis(instances, latency, minus, plus, status, groups);
    }

    private static int order(Kind k) {
        return switch (k) {
            case SIMPLE -> 0;
            case TRANSITION -> 1;
            case END_TO_END -> 2;
        };
    }

    private static boolean sameGroup(Measurements m, int a, int b) {
        return m.event(a) == m.event(b) && m.kind(a) == m.kind(b) && m.fromStep(a) == m.fromStep(b)
                && m.toStep(a) == m.toStep(b) && m.fromNode(a) == m.fromNode(b) && m.toNode(a) == m.toNode(b);
    }

    public LatencyInstances instances() {
        return instances;
    }

    public List<Group> groups() {
        return groups;
    }

    public int size() {
        return latency.length;
    }

    public LatencyBars.Status status(int i) {
        return STATUSES[status[i]];
    }

    public long latency(int i) {
        return latency[i];
    }

    /** -1 when the measurement has no bar. */
    public long minus(int i) {
        return minus[i];
    }

    public long plus(int i) {
        return plus[i];
    }

    /** Measurements by status: BOUNDED, ESTIMATE_ONLY, UNSYNCHRONIZED. */
    public Map<LatencyBars.Status, Long> statusCounts() {
        Map<LatencyBars.Status, Long> c = new LinkedHashMap<>();
        for (LatencyBars.Status s : LatencyBars.Status.values()) {
            c.put(s, 0L);
        }
        for (byte b : status) {
            LatencyBars.Status s = STATUSES[b];
            c.put(s, c.get(s) + 1);
        }
        return c;
    }
}
