package org.tracesync.spark;

import java.io.Serializable;
import org.tracesync.core.accumulate.PairAccumulator;

/**
 * What one partition (or a merge of several) knows of the messages between nodes a &lt; b: the
 * existing {@link PairAccumulator} (half hulls, counts, a's time span), b's time span, and the
 * round-trip minimum of the pair's exchanges. Mergeable in any order with the same result as one
 * pass over every message: the accumulator is re-based on the message the one-machine matcher
 * would have emitted first (smallest first-event time, then node, then record offset), so even its
 * origin (X0, V0) — and with it every rounded number downstream — is the one-machine one.
 *
 * <p>Cost: O(1) amortized per message (a hull push); a merge is O(h) for h hull points.
 */
public final class PairPart implements Serializable {

    private static final long serialVersionUID = 1L;

    PairAccumulator acc;
    /** Merge-order key of the message that gave the accumulator its origin. */
    long orderTime = Long.MAX_VALUE;
    int orderNode = Integer.MAX_VALUE;
    long orderOffset = Long.MAX_VALUE;
    long firstB = Long.MAX_VALUE;
    long lastB = Long.MIN_VALUE;
    long rttMin = Long.MAX_VALUE;
    long rttCount;

    public PairPart() {
    }

    /**
     * Adds a message between a and b ({@code from} is one of them); {@code orderTime/Node/Offset}
     * is its key's first event in the one-machine merge order.
     */
    void message(int a, int b, int from, long sendTime, long recvTime, long orderTime, int orderNode,
                 long orderOffset) {
        boolean earlier = acc == null || before(orderTime, orderNode, orderOffset);
        if (earlier) {
            PairAccumulator old = acc;
            acc = new PairAccumulator(a, b);
            add(from, sendTime, recvTime);
            if (old != null) {
                acc.merge(old);
            }
            this.orderTime = orderTime;
            this.orderNode = orderNode;
            this.orderOffset = orderOffset;
        } else {
            add(from, sendTime, recvTime);
        }
        long bTime = from == a ? recvTime : sendTime;
        firstB = Math.min(firstB, bTime);
        lastB = Math.max(lastB, bTime);
    }

    private void add(int from, long sendTime, long recvTime) {
        if (from == acc.a()) {
            acc.addAToB(sendTime, recvTime);
        } else {
            acc.addBToA(sendTime, recvTime);
        }
    }

    private boolean before(long t, int n, long o) {
        if (t != orderTime) {
            return t < orderTime;
        }
        if (n != orderNode) {
            return n < orderNode;
        }
        return o < orderOffset;
    }

    void roundTrip(long rtt) {
        rttCount++;
        rttMin = Math.min(rttMin, rtt);
    }

    /** The union of both parts (either may be returned, the other must not be used again). */
    static PairPart merge(PairPart x, PairPart y) {
        if (y.acc == null) {
            return x.absorbCounts(y);
        }
        if (x.acc == null) {
            return y.absorbCounts(x);
        }
        PairPart first = x.before(y.orderTime, y.orderNode, y.orderOffset) ? y : x;
        PairPart second = first == x ? y : x;
        first.acc.merge(second.acc);
        return first.absorbCounts(second);
    }

    private PairPart absorbCounts(PairPart o) {
        firstB = Math.min(firstB, o.firstB);
        lastB = Math.max(lastB, o.lastB);
        rttMin = Math.min(rttMin, o.rttMin);
        rttCount += o.rttCount;
        return this;
    }

    public PairAccumulator accumulator() {
        return acc;
    }
}
