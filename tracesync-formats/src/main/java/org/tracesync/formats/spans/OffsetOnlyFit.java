package org.tracesync.formats.spans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.NodeBounds;

/**
 * A constant-offset fit for span sets too short to tell drift: when the linear fit gives a host a
 * drift no real clock has (beyond {@link #PLAUSIBLE_DRIFT}, i.e. more than ntpd's maximum slew of
 * 500 ppm — a sign that a few points a few milliseconds apart left the slope undetermined), the
 * whole group of that host is refitted with offsets only, unless a member of the group has a
 * piecewise transform (long traces whose clock bends, slews or steps: data enough to tell drift,
 * and pieces a constant offset would undo).
 *
 * <p>Each message a → b (send s on a, receive r on b, send already widened by the resolution) is the
 * difference constraint {@code o_a − o_b ≤ r − s} on the offsets o (reference time = local + o):
 * per directed pair only the smallest latency matters. With the group's reference at 0, every
 * feasible offset vector lies in the box {@code L_i ≤ o_i ≤ U_i} with {@code U_i} the shortest path
 * from the reference to i and {@code L_i = −}(shortest path from i to the reference) (Bellman–Ford);
 * both extremes are feasible, so their midpoint is too (the feasible set is convex): every
 * constraint holds after correction, and {@code [L_i, U_i]} is the strict joint bound of host i
 * relative to the reference as long as its clock did not drift. A negative cycle means no constant
 * offsets satisfy the constraints: the group keeps its linear fit and a warning says so.
 * Exact integer path lengths; O(hosts × pairs) per group.
 */
public final class OffsetOnlyFit {

    /** Drift beyond which a fitted clock is not a clock (ntpd slews at most 500 ppm; DESIGN §6). */
    public static final double PLAUSIBLE_DRIFT = 500e-6;

    private OffsetOnlyFit() {
    }

    /** The result with every group holding an implausible drift refitted with offsets only (when feasible). */
    public static SyncResult refitImplausible(SyncResult result, SpanMessageInput input) throws IOException {
        List<String> names = input.nodes().stream().map(n -> n.name()).toList();
        int n = names.size();
        NodeResult[] nodes = new NodeResult[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = result.node(names.get(i));
            if (nodes[i] == null) {
                return result;
            }
        }
        Map<String, Boolean> implausible = new LinkedHashMap<>();
        for (NodeResult r : nodes) {
            // a linear fit only: a piecewise one comes from data enough to see its clock bend, and
            // its pieces (a slew, a step) are what a constant offset would undo
            boolean bad = r.transform().isLinear() && !(Math.abs(r.transform().linearSegment().drift()) <= PLAUSIBLE_DRIFT);
            if (bad && r.synchronizedToOther()) {
                implausible.put(r.reference(), true);
            }
        }
        for (NodeResult r : nodes) { // a group with a piecewise member keeps its fit (see above)
            if (!r.transform().isLinear()) {
                implausible.remove(r.reference());
            }
        }
        if (implausible.isEmpty()) {
            return result;
        }
        // smallest latency per directed pair: w[a→b] = min(r − s)
        Map<Long, Long> minLatency = new HashMap<>();
        input.readMessages((a, b, s, r) -> minLatency.merge(((long) a << 32) | b, r - s, Math::min));
        NodeResult[] out = nodes.clone();
        List<String> warnings = new ArrayList<>(result.warnings());
        int refitted = 0;
        for (String ref : implausible.keySet()) {
            List<Integer> group = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (nodes[i].reference().equals(ref)) {
                    group.add(i);
                }
            }
            long[][] box = solve(group, names.indexOf(ref), minLatency);
            if (box == null) {
                warnings.add("group of " + ref + ": the linear fit has a drift beyond 500 ppm, and constant offsets"
                        + " contradict the spans (a cycle of constraints); the linear fit is kept");
                continue;
            }
            for (int k = 0; k < group.size(); k++) {
                int i = group.get(k);
                NodeResult old = nodes[i];
                if (!old.synchronizedToOther()) {
                    continue;
                }
                long lo = box[0][k];
                long hi = box[1][k];
                long mid = Math.floorDiv(lo, 2) + Math.floorDiv(hi, 2) + ((lo & 1) + (hi & 1)) / 2;
                double minus = mid - lo;
                double plus = hi - mid;
                out[i] = new NodeResult(old.name(), old.source(), ref, Quality.ACCURATE,
                        ClockTransform.linear(old.start(), mid, 0.0),
                        NodeBounds.ofRows(List.of(new BoundRow(old.start(), minus, plus),
                                new BoundRow(Math.max(old.end(), old.start() + 1), minus, plus))),
                        old.path(), old.start(), old.end(), String.format(Locale.ROOT,
                        "constant offset (the linear fit of its group had a drift beyond 500 ppm: too little data to tell"
                                + " drift): offset in [%d, %d] ns, the middle taken", lo, hi));
                refitted++;
            }
        }
        if (refitted == 0) {
            return new SyncResult(result.reference(), result.nodes(), result.pairs(), result.stats(), warnings);
        }
        warnings.add(refitted + " hosts were refitted with constant offsets: their groups' linear fits had drifts beyond"
                + " 500 ppm, which no real clock has (the spans cover too short a time to tell drift)");
        List<NodeResult> list = new ArrayList<>();
        for (NodeResult r : result.nodes()) {
            int i = names.indexOf(r.name());
            list.add(i >= 0 ? out[i] : r);
        }
        Map<String, Object> stats = new LinkedHashMap<>(result.stats());
        stats.put("spans_offset_only_hosts", refitted);
        return new SyncResult(result.reference(), list, result.pairs(), stats, warnings);
    }

    /**
     * {L, U} per group member (group order) with the reference at 0, or null on a negative cycle.
     * Edge b → a of weight w for each message a → b of smallest latency w: o_a ≤ o_b + w.
     */
    static long[][] solve(List<Integer> group, int reference, Map<Long, Long> minLatency) {
        int m = group.size();
        Map<Integer, Integer> local = new HashMap<>();
        for (int k = 0; k < m; k++) {
            local.put(group.get(k), k);
        }
        List<long[]> edges = new ArrayList<>(); // {from, to, weight} in local indices
        for (Map.Entry<Long, Long> e : minLatency.entrySet()) {
            Integer a = local.get((int) (e.getKey() >>> 32));
            Integer b = local.get((int) (e.getKey() & 0xFFFFFFFFL));
            if (a != null && b != null) {
                edges.add(new long[] {b, a, e.getValue()});
            }
        }
        Integer r = local.get(reference);
        if (r == null) {
            return null;
        }
        long[] upper = shortest(m, edges, r, false);
        long[] down = shortest(m, edges, r, true);
        if (upper == null || down == null) {
            return null;
        }
        long[] lower = new long[m];
        for (int k = 0; k < m; k++) {
            if (upper[k] == Long.MAX_VALUE || down[k] == Long.MAX_VALUE) {
                return null; // not tied both ways to the reference: leave to the one-way attachment
            }
            lower[k] = -down[k];
        }
        return new long[][] {lower, upper};
    }

    /** Bellman–Ford from {@code source} (on reversed edges when {@code reversed}); null on a negative cycle. */
    private static long[] shortest(int m, List<long[]> edges, int source, boolean reversed) {
        long[] d = new long[m];
        Arrays.fill(d, Long.MAX_VALUE);
        d[source] = 0;
        for (int round = 0; round <= m; round++) {
            boolean changed = false;
            for (long[] e : edges) {
                int from = (int) (reversed ? e[1] : e[0]);
                int to = (int) (reversed ? e[0] : e[1]);
                if (d[from] != Long.MAX_VALUE && d[from] + e[2] < d[to]) {
                    d[to] = d[from] + e[2];
                    changed = true;
                }
            }
            if (!changed) {
                return d;
            }
        }
        return null;
    }
}
