package org.tracesync.core.latency;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;

/**
 * A latency between an event at local time {@code tFrom} on node X and one at {@code tTo} on node Y,
 * with its error bar: the true latency lies in {@code [latency − minus, latency + plus]}
 * (DESIGN §6b).
 *
 * <p>Same node: latency = tTo − tFrom on the node's own clock. Different nodes (same group):
 * latency = ref_Y(tTo) − ref_X(tFrom) with the nodes' transforms (an event around a clock step
 * of its node, where a local time has two readings, takes the one that keeps X's event before
 * Y's, as for a message end: {@link MessageEnds}); the bar is the intersection of
 * (1) the nodes' own bounds, [ref − minus, ref + plus] at each end (zero for the group's
 * reference), and (2) when X and Y form a pair whose feasible region is bounded, that pair's
 * envelope: the other node's true time at the a-side timestamp lies in [lower(t), upper(t)]
 * ({@link PairEstimate#lowerAToB}), which is as tight as the pair's hull allows.
 *
 * <p>Every figure is then widened by {@code rateError/(1 − rateError)·|latency|}: a same-node figure
 * is on that node's clock, a cross-node one on the reference's time scale, and neither clock's own
 * rate error against true time is observable from the traces (crystal frequency errors reach
 * ~100 ppm; ntpd slews CLOCK_MONOTONIC by up to 500 ppm, the CLI's default).
 *
 * <p>Values are rounded outward to integer ns (latency to the nearest ns, minus and plus up), so
 * the bar stays strict. Cost: O(log rows) per measurement (binary searches in bound rows and the
 * pair envelope); exactness: time differences in long, corrections (small) in double.
 */
public final class LatencyBars {

    /** What {@link #measure} could give. */
    public enum Status { BOUNDED, ESTIMATE_ONLY, UNSYNCHRONIZED }

    private final List<NodeResult> nodes;
    private final boolean[] groupReference;
    private final Map<Long, PairEstimate> pairs = new HashMap<>();
    private final double rateError;

    /**
     * @param result    synchronization of the nodes, in the order of the latency nodes' indices
     * @param estimates the pair estimates it came from (node indices as in {@code result})
     * @param rateError assumed bound on the reference clock's rate error (e.g. 5e-4)
     */
    public LatencyBars(SyncResult result, List<PairEstimate> estimates, double rateError) {
        if (!(rateError >= 0) || rateError >= 0.01) {
            throw new IllegalArgumentException("rate error must be in [0, 0.01): " + rateError);
        }
        this.nodes = result.nodes();
        this.rateError = rateError;
        this.groupReference = new boolean[nodes.size()];
        for (NodeResult n : nodes) {
            if (n.synchronizedToOther()) {
                for (int k = 0; k < nodes.size(); k++) {
                    if (nodes.get(k).name().equals(n.reference())) {
                        groupReference[k] = true;
                    }
                }
            }
        }
        for (PairEstimate p : estimates) {
            if (p.hasBounds()) {
                pairs.put(key(p.a(), p.b()), p);
            }
        }
    }

    private static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    /** Rate-error allowance for a latency. */
    private long rateAllowance(double latency) {
        return (long) Math.ceil(Math.abs(latency) * rateError / (1 - rateError));
    }

    /**
     * Fills {@code out} with {latency, minus, plus} (ns); minus and plus are -1 unless the status is
     * {@link Status#BOUNDED}; nothing is filled for {@link Status#UNSYNCHRONIZED} (the nodes are in
     * different groups or one of them could not be synchronized).
     */
    public Status measure(int from, long tFrom, int to, long tTo, long[] out) {
        long local = Math.subtractExact(tTo, tFrom);
        if (from == to) {
            long r = rateAllowance(local);
            out[0] = local;
            out[1] = r;
            out[2] = r;
            return Status.BOUNDED;
        }
        NodeResult x = nodes.get(from);
        NodeResult y = nodes.get(to);
        if (!synced(x, from) || !synced(y, to) || !x.reference().equals(y.reference())) {
            return Status.UNSYNCHRONIZED;
        }
        ClockTransform fx = x.transform();
        ClockTransform fy = y.transform();
        // a step around a clock step: the reading that keeps the chain in order (tFrom's step
        // happened first), as for a message end
        double latency = MessageEnds.latency(fx, tFrom, fy, tTo);
        // (1) node bounds
        double lo = Double.NEGATIVE_INFINITY;
        double hi = Double.POSITIVE_INFINITY;
        double[] bx = nodeBounds(x, from, tFrom);
        double[] by = nodeBounds(y, to, tTo);
        if (bx != null && by != null) {
            lo = latency - (by[0] + bx[1]);
            hi = latency + (by[1] + bx[0]);
        }
        // (2) the direct pair's envelope, in the b node's time
        PairEstimate p = pairs.get(key(from, to));
        if (p != null) {
            double plo;
            double phi;
            if (p.a() == from) {
                plo = local - p.upperAToB().deltaAt(tFrom);
                phi = local - p.lowerAToB().deltaAt(tFrom);
            } else {
                plo = local + p.lowerAToB().deltaAt(tTo);
                phi = local + p.upperAToB().deltaAt(tTo);
            }
            if (plo <= hi && phi >= lo) {
                lo = Math.max(lo, plo);
                hi = Math.min(hi, phi);
            } else {
                lo = plo;
                hi = phi;
            }
        }
        long rounded = Math.round(latency);
        out[0] = rounded;
        if (Double.isInfinite(lo) || Double.isInfinite(hi)) {
            out[1] = -1;
            out[2] = -1;
            return Status.ESTIMATE_ONLY;
        }
        long r = rateAllowance(latency);
        out[1] = Math.max(0, (long) Math.ceil(rounded - lo)) + r;
        out[2] = Math.max(0, (long) Math.ceil(hi - rounded)) + r;
        return Status.BOUNDED;
    }

    private boolean synced(NodeResult n, int index) {
        return n.synchronizedToOther() || groupReference[index];
    }

    /** {minus, plus} of a node at local time t ({@link org.tracesync.core.transform.NodeBounds}); zeros for a reference; null when unknown. */
    private double[] nodeBounds(NodeResult n, int index, long t) {
        if (groupReference[index]) {
            return new double[] {0, 0};
        }
        if (n.bounds().isEmpty()) {
            return null;
        }
        return n.bounds().at(t); // a side without bound is +∞: the bar then comes from the pair alone, or none
    }
}
