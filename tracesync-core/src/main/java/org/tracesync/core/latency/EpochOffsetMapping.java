package org.tracesync.core.latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps CLOCK_REALTIME timestamps of a probed machine (its captures, its span files) onto the probe's
 * node clock (CLOCK_MONOTONIC + the node's offset), from the probe's samples of the epoch offset
 * {@code realtime − monotonic}, each known within its sampling uncertainty.
 *
 * <p>Why this is exact up to the samples' uncertainty: on Linux both clocks advance at the same
 * NTP-disciplined rate (frequency corrections and slewing apply to both), so their difference changes
 * only when CLOCK_REALTIME is stepped (settimeofday, clock_settime, an ntpd step, a leap second).
 * Between two consecutive samples whose offsets agree within their uncertainties the offset is taken
 * as constant, in the intersection of the two intervals: a segment. Two consecutive samples that
 * disagree bracket a step, whose instant is unknown: no realtime that may have been read between
 * them (before or after the step) is mapped.
 * Nor are times before the first sample or after the last, nor times that two segments of
 * different offsets claim (after a step backwards, realtime ranges overlap). A step and its exact undoing between two samples would
 * go unseen: the probe samples every second.
 *
 * <p>{@link #uncertainty} is the largest half-width of a segment's offset interval: every mapped
 * time is within it of the true node time. Cost: O(samples log samples) to build, O(log segments)
 * per lookup; exact long arithmetic.
 */
public final class EpochOffsetMapping {

    /** {@link #toNode} of a time that cannot be mapped. */
    public static final long UNMAPPED = Long.MIN_VALUE;

    private final long nodeOffset;
    private final long[] realStart;
    private final long[] realEnd;
    private final long[] maxEnd; // prefix maximum of realEnd: where a backwards scan may stop
    private final long[] offset;
    private final long[] half;
    private final long uncertainty;
    private final long[] stepStart; // realtime ranges around steps, sorted by start
    private final long[] stepMaxEnd; // prefix maximum of their ends

    /**
     * @param nodeOffset    epoch ns of raw monotonic value 0 on the node's clock (node time = raw + nodeOffset)
     * @param nodeTimes     the samples' times on the node clock
     * @param offsets       the sampled {@code realtime − monotonic} (ns)
     * @param uncertainties each sample's uncertainty (ns, ≥ 0)
     */
    public EpochOffsetMapping(long nodeOffset, long[] nodeTimes, long[] offsets, long[] uncertainties) {
        int n = nodeTimes.length;
        if (offsets.length != n || uncertainties.length != n) {
            throw new IllegalArgumentException("one offset and one uncertainty per sample");
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            if (uncertainties[i] < 0) {
                throw new IllegalArgumentException("negative uncertainty " + uncertainties[i]);
            }
        }
        Arrays.sort(order, (x, y) -> Long.compare(nodeTimes[x], nodeTimes[y]));
        List<long[]> segs = new ArrayList<>(); // {realStart, realEnd, offset, halfWidth}
        List<long[]> steps = new ArrayList<>(); // {realStart, realEnd}: realtimes a step interval may have read
        for (int k = 0; k + 1 < n; k++) {
            int i = order[k];
            int j = order[k + 1];
            long lo = Math.max(offsets[i] - uncertainties[i], offsets[j] - uncertainties[j]);
            long hi = Math.min(offsets[i] + uncertainties[i], offsets[j] + uncertainties[j]);
            if (lo > hi) {
                // the offset changed between the samples: a realtime step at an unknown instant. Whatever
                // realtime was read in there, before or after the step, is excluded (a step backwards makes
                // some of them recur in the next segment).
                long low = Math.min(offsets[i] - uncertainties[i], offsets[j] - uncertainties[j]);
                long high = Math.max(offsets[i] + uncertainties[i], offsets[j] + uncertainties[j]);
                steps.add(new long[] {Math.addExact(Math.subtractExact(nodeTimes[i], nodeOffset), low),
                        Math.addExact(Math.subtractExact(nodeTimes[j], nodeOffset), high)});
                continue;
            }
            long mid = Math.floorDiv(lo, 2) + Math.floorDiv(hi, 2) + ((lo & 1) + (hi & 1)) / 2;
            long half = Math.max(hi - mid, mid - lo);
            long rawI = Math.subtractExact(nodeTimes[i], nodeOffset);
            long rawJ = Math.subtractExact(nodeTimes[j], nodeOffset);
            segs.add(new long[] {Math.addExact(rawI, mid), Math.addExact(rawJ, mid), mid, half});
        }
        segs.sort((x, y) -> Long.compare(x[0], y[0]));
        this.nodeOffset = nodeOffset;
        int m = segs.size();
        this.realStart = new long[m];
        this.realEnd = new long[m];
        this.maxEnd = new long[m];
        this.offset = new long[m];
        this.half = new long[m];
        long u = 0;
        for (int k = 0; k < m; k++) {
            long[] seg = segs.get(k);
            realStart[k] = seg[0];
            realEnd[k] = seg[1];
            maxEnd[k] = k == 0 ? seg[1] : Math.max(maxEnd[k - 1], seg[1]);
            offset[k] = seg[2];
            half[k] = seg[3];
            u = Math.max(u, seg[3]);
        }
        this.uncertainty = u;
        steps.sort((x, y) -> Long.compare(x[0], y[0]));
        this.stepStart = new long[steps.size()];
        this.stepMaxEnd = new long[steps.size()];
        for (int k = 0; k < steps.size(); k++) {
            stepStart[k] = steps.get(k)[0];
            stepMaxEnd[k] = k == 0 ? steps.get(k)[1] : Math.max(stepMaxEnd[k - 1], steps.get(k)[1]);
        }
    }

    /** The node-clock time of realtime {@code t}, or {@link #UNMAPPED}. */
    public long toNode(long t) {
        int found = lastAtOrBefore(realStart, t); // the last segment starting at or before t
        if (found < 0 || t > realEnd[found] || aroundStep(t)) {
            return UNMAPPED;
        }
        // other segments holding t: neighbours sharing a sample agree; after a step backwards they do not
        for (int k = found - 1; k >= 0 && maxEnd[k] >= t; k--) {
            if (realEnd[k] >= t && Math.abs(offset[k] - offset[found]) > half[k] + half[found]) {
                return UNMAPPED;
            }
        }
        return Math.addExact(Math.subtractExact(t, offset[found]), nodeOffset);
    }

    /** True when realtime {@code t} may have been read between two samples that bracket a step. */
    private boolean aroundStep(long t) {
        int k = lastAtOrBefore(stepStart, t);
        return k >= 0 && stepMaxEnd[k] >= t;
    }

    private static int lastAtOrBefore(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Every mapped time lies within this many ns of the true node time. */
    public long uncertainty() {
        return uncertainty;
    }

    /** Number of segments (consecutive sample pairs that agree); 0: nothing can be mapped. */
    public int segments() {
        return realStart.length;
    }
}
