package org.tracesync.formats.spans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.core.transform.LinearSegment;

/**
 * Hosts, or whole groups of hosts, tied to the others one way only (a service that only consumes, a
 * client never called back): pair estimation leaves them on their own reference, since one
 * direction gives no estimate. For spans a correction is still owed: the smallest constant shift
 * that removes every violation. A group G (a reference and the hosts synchronized to it; a lone
 * host is a group of one) is shifted as a whole by s; every constraint between a host U of G and an
 * already placed host S bounds s on one side (U's event before S's:
 * {@code s ≤ S'(t_S) − U'(t_U − r)}; after: {@code s ≥ S'(t_S − r) − U'(t_U)}, with ' the current
 * corrections and r the resolution). s is the value of [lo, hi] closest to 0 (0 when nothing is
 * violated); when both sides exist (ties through several hosts) the middle of [lo, hi]; when lo > hi
 * (a constant shift cannot satisfy them all) the middle, and the note says so.
 *
 * <p>Placed first: the largest group. Groups are attached in rounds, so a chain of one-way links is
 * attached link by link (the group with the most constraints with placed hosts decides the
 * reference); a component with nothing placed is anchored at its group with the most constraints.
 * Attached hosts are flagged {@code one-way}; a lone host gets its bound (one-sided, unless ties
 * through several hosts bound both sides) as its bounds, widened by the placed hosts' own bounds
 * (none when a placed host has none), and in the note. Memory: the constraints between
 * different groups, capped at {@link #MAX_KEPT}; O(kept × rounds) time.
 */
public final class OneWayAttachment {

    /** The most constraints kept in memory; beyond, the rest are not used (and the warning says so). */
    static final int MAX_KEPT = 1 << 20;

    private OneWayAttachment() {
    }

    /**
     * The reducer for span sets: {@code inner} with one-way pairs stripped of their bound, so
     * that hosts tied one way only stay on their own reference until {@link #attach} places them,
     * after {@link OffsetOnlyFit} (the core places them itself otherwise; docs/SPANS.md says why
     * spans differ).
     */
    public static Synchronizer.Reducer afterFit(Synchronizer.Reducer inner) {
        return (nodes, acc, pairs, reference) -> inner.reduce(nodes, acc,
                pairs.stream().map(PairEstimate::withoutOneWayBound).toList(), reference);
    }

    /** The result with every attachable group attached; the input result when there is none. */
    public static SyncResult attach(SyncResult result, SpanMessageInput input) throws IOException {
        List<String> names = input.nodes().stream().map(n -> n.name()).toList();
        int n = names.size();
        NodeResult[] nodes = new NodeResult[n];
        int[] unit = new int[n];
        Map<String, Integer> size = new HashMap<>();
        for (int i = 0; i < n; i++) {
            nodes[i] = result.node(names.get(i));
            if (nodes[i] == null) {
                return result;
            }
            size.merge(nodes[i].reference(), 1, Integer::sum);
        }
        for (int i = 0; i < n; i++) {
            unit[i] = names.indexOf(nodes[i].reference());
            if (unit[i] < 0) {
                return result;
            }
        }
        if (size.size() < 2) {
            return result;
        }
        List<long[]> kept = new ArrayList<>();
        long[] dropped = {0};
        input.constraints((kind, from, to, fromTime, toTime, res, hi, lo) -> {
            if (unit[from] != unit[to]) {
                if (kept.size() < MAX_KEPT) {
                    kept.add(new long[] {from, to, fromTime, toTime, res});
                } else {
                    dropped[0]++;
                }
            }
        });
        if (kept.isEmpty()) {
            return result;
        }
        NodeResult[] out = nodes.clone();
        boolean[] placed = new boolean[n]; // per unit (indexed by the unit's reference host)
        int largest = -1;
        for (int i = 0; i < n; i++) {
            if (unit[i] == i && (largest < 0 || size.get(names.get(i)) > size.get(names.get(largest)))) {
                largest = i;
            }
        }
        placed[largest] = true;
        List<Integer> anchors = new ArrayList<>(List.of(largest));
        int attached = 0;
        while (true) {
            int round = attachRound(out, unit, placed, kept, names);
            attached += round;
            if (round > 0) {
                continue;
            }
            int[] count = new int[n];
            for (long[] c : kept) {
                int a = unit[(int) c[0]];
                int b = unit[(int) c[1]];
                if (!placed[a] && !placed[b]) {
                    count[a]++;
                    count[b]++;
                }
            }
            int best = -1;
            for (int i = 0; i < n; i++) {
                if (count[i] > 0 && (best < 0 || count[i] > count[best])) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            placed[best] = true;
            anchors.add(best);
        }
        for (int a : anchors) { // an anchor that others were attached to is now the reference of a group
            boolean used = false;
            for (int i = 0; i < n; i++) {
                used |= i != a && out[i].reference().equals(names.get(a));
            }
            if (used && out[a].quality() != Quality.REFERENCE) {
                NodeResult old = out[a];
                out[a] = new NodeResult(old.name(), old.source(), old.reference(), Quality.REFERENCE, old.transform(),
                        old.bounds(), old.path(), old.start(), old.end(),
                        "reference of hosts tied to it one way only (" + old.note() + ")");
            }
        }
        if (attached == 0) {
            return result;
        }
        List<NodeResult> list = new ArrayList<>();
        for (NodeResult r : result.nodes()) {
            int i = names.indexOf(r.name());
            list.add(i >= 0 ? out[i] : r);
        }
        Map<String, Object> stats = new LinkedHashMap<>(result.stats());
        stats.put("spans_one_way_attached", attached);
        List<String> warnings = new ArrayList<>();
        for (String w : result.warnings()) {
            boolean stale = false;
            for (int i = 0; i < n; i++) {
                if (out[i] != nodes[i] && w.startsWith("node " + names.get(i) + " is not synchronized")) { // now it is
                    stale = true;
                }
            }
            if (!stale) {
                warnings.add(w);
            }
        }
        warnings.add(attached + " hosts are tied to the others one way only: their groups got the smallest constant"
                + " correction that removes every violation, flagged one-way with a one-sided bound (see their notes)"
                + (dropped[0] > 0 ? "; " + dropped[0] + " constraints beyond the first " + MAX_KEPT + " were not used" : ""));
        return new SyncResult(result.reference(), list, result.pairs(), stats, warnings);
    }

    /** Side of S's bounds at t (plus when {@code plus}), 0 for a reference or a host without bounds, +∞ when unbounded. */
    private static double side(NodeResult s, long t, boolean plus) {
        if (!s.synchronizedToOther()) {
            return 0;
        }
        if (s.bounds().isEmpty()) {
            return Double.POSITIVE_INFINITY;
        }
        double[] b = s.bounds().at(t);
        return plus ? b[1] : b[0];
    }

    /** One round: shifts every unplaced group that has constraints with placed hosts; returns the hosts attached. */
    private static int attachRound(NodeResult[] out, int[] unit, boolean[] placed, List<long[]> kept, List<String> names) {
        Map<Integer, Map<String, double[]>> ranges = new HashMap<>();
        for (long[] c : kept) {
            int from = (int) c[0];
            int to = (int) c[1];
            long res = c[4];
            boolean fromPlaced = placed[unit[from]];
            boolean toPlaced = placed[unit[to]];
            if (fromPlaced == toPlaced) {
                continue;
            }
            int u = fromPlaced ? to : from;
            int s = fromPlaced ? from : to;
            double[] r = ranges.computeIfAbsent(unit[u], k -> new HashMap<>()).computeIfAbsent(out[s].reference(),
                    k -> new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0,
                        Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY});
            if (u == from) { // U's event before S's: shift <= S'(t_S) - U'(t_U - r)
                double bound = (c[3] - (c[2] - res)) + out[s].transform().correction(c[3])
                        - out[u].transform().correction(c[2] - res);
                r[1] = Math.min(r[1], bound);
                r[4] = Math.min(r[4], bound + side(out[s], c[3], true)); // S's true time may be later by its plus bound
            } else { // S's event before U's: shift >= S'(t_S - r) - U'(t_U)
                double bound = ((c[2] - res) - c[3]) + out[s].transform().correction(c[2] - res)
                        - out[u].transform().correction(c[3]);
                r[0] = Math.max(r[0], bound);
                r[3] = Math.max(r[3], bound - side(out[s], c[2] - res, false));
            }
            r[2]++;
        }
        int attached = 0;
        for (var e : ranges.entrySet()) {
            int g = e.getKey();
            String ref = null;
            double[] best = null;
            for (var x : e.getValue().entrySet()) {
                if (best == null || x.getValue()[2] > best[2]) {
                    best = x.getValue();
                    ref = x.getKey();
                }
            }
            double lo = best[0];
            double hi = best[1];
            double shift;
            String how;
            if (lo <= hi && Double.isFinite(lo) && Double.isFinite(hi)) {
                shift = (lo + hi) / 2;
                how = String.format(Locale.ROOT, "shift in [%.0f, %.0f] ns (ties through several hosts), the middle taken", lo, hi);
            } else if (lo <= hi) {
                shift = Math.min(Math.max(0.0, lo), hi);
                how = (Double.isFinite(hi) ? String.format(Locale.ROOT, "one-sided bound: shift <= %.0f ns", hi)
                        : String.format(Locale.ROOT, "one-sided bound: shift >= %.0f ns", lo))
                        + (shift == 0 ? "; nothing violated, so no shift" : "; the smallest shift that removes every violation");
            } else {
                shift = (lo + hi) / 2;
                how = String.format(Locale.ROOT, "no constant shift satisfies every constraint (needs >= %.0f and <= %.0f ns);"
                        + " the middle taken, violations remain", lo, hi);
            }
            double rounded = Math.rint(shift);
            int members = 0;
            for (int i = 0; i < out.length; i++) {
                members += unit[i] == g ? 1 : 0;
            }
            for (int i = 0; i < out.length; i++) {
                if (unit[i] != g) {
                    continue;
                }
                NodeResult old = out[i];
                List<LinearSegment> segs = new ArrayList<>();
                for (LinearSegment sg : old.transform().segments()) {
                    segs.add(new LinearSegment(sg.from(), sg.to(), sg.origin(), sg.offset() + rounded, sg.drift(),
                            sg.eitherFrom(), sg.eitherTo())); // a shift keeps a step's either-side times
                }
                List<String> path = new ArrayList<>(old.path().isEmpty() ? List.of(old.name()) : old.path());
                path.add(ref);
                // a lone host: its one-sided (or two-sided) bound on the shift, around the shift taken;
                // a group's members keep no bounds (their own are relative to the old reference)
                NodeBounds bounds = NodeBounds.NONE;
                if (members == 1 && (Double.isFinite(best[3]) || Double.isFinite(best[4]))) {
                    double minus = Double.isFinite(best[3]) ? Math.max(0, rounded - best[3]) : Double.POSITIVE_INFINITY;
                    double plus = Double.isFinite(best[4]) ? Math.max(0, best[4] - rounded) : Double.POSITIVE_INFINITY;
                    bounds = NodeBounds.ofRows(List.of(new BoundRow(old.start(), minus, plus),
                            new BoundRow(Math.max(old.end(), old.start() + 1), minus, plus)));
                }
                out[i] = new NodeResult(old.name(), old.source(), ref, Quality.ONE_WAY, new ClockTransform(segs), bounds,
                        path, old.start(), old.end(), String.format(Locale.ROOT,
                        "group of %s tied one way only to hosts on %s (%d constraints): %s", names.get(g), ref,
                        (long) best[2], how) + (old.note().isEmpty() ? "" : "; before: " + old.note()));
                attached++;
            }
            placed[g] = true;
        }
        return attached;
    }
}
