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
    /**
     * With {@code --estimator regression} only: every message, {@value #STRIDE} longs each (first
     * event's order time, node, offset; sender; send and receive time), in no particular order.
     */
    long[] log;
    int logged;
    static final int STRIDE = 6;
    /**
     * With {@code --estimator regression} only: every exchange, {@value #EXCHANGE_STRIDE} longs each
     * (its acknowledgement's first-event order time, node, offset; data sender; t1, t2, t3, t4).
     */
    long[] exchangeLog;
    int exchangesLogged;
    static final int EXCHANGE_STRIDE = 8;

    public PairPart() {
    }

    /**
     * Adds a message between a and b ({@code from} is one of them); {@code orderTime/Node/Offset}
     * is its key's first event in the one-machine merge order.
     */
    void message(int a, int b, int from, long sendTime, long recvTime, long orderTime, int orderNode,
                 long orderOffset, boolean keep) {
        if (keep) {
            if (log == null) {
                log = new long[STRIDE * 16];
            } else if (logged * STRIDE == log.length) {
                log = java.util.Arrays.copyOf(log, log.length * 2);
            }
            int i = logged++ * STRIDE;
            log[i] = orderTime;
            log[i + 1] = orderNode;
            log[i + 2] = orderOffset;
            log[i + 3] = from;
            log[i + 4] = sendTime;
            log[i + 5] = recvTime;
        }
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

    void exchange(int a, long t1, long t2, long t3, long t4, long orderTime, int orderNode, long orderOffset) {
        if (exchangeLog == null) {
            exchangeLog = new long[EXCHANGE_STRIDE * 16];
        } else if (exchangesLogged * EXCHANGE_STRIDE == exchangeLog.length) {
            exchangeLog = java.util.Arrays.copyOf(exchangeLog, exchangeLog.length * 2);
        }
        int i = exchangesLogged++ * EXCHANGE_STRIDE;
        exchangeLog[i] = orderTime;
        exchangeLog[i + 1] = orderNode;
        exchangeLog[i + 2] = orderOffset;
        exchangeLog[i + 3] = a;
        exchangeLog[i + 4] = t1;
        exchangeLog[i + 5] = t2;
        exchangeLog[i + 6] = t3;
        exchangeLog[i + 7] = t4;
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
        if (o.exchangesLogged > 0) {
            int w = EXCHANGE_STRIDE;
            if (exchangeLog == null || (exchangesLogged + o.exchangesLogged) * w > exchangeLog.length) {
                exchangeLog = java.util.Arrays.copyOf(exchangeLog == null ? new long[0] : exchangeLog,
                        (exchangesLogged + o.exchangesLogged) * w);
            }
            System.arraycopy(o.exchangeLog, 0, exchangeLog, exchangesLogged * w, o.exchangesLogged * w);
            exchangesLogged += o.exchangesLogged;
        }
        if (o.logged > 0) {
            if (log == null || (logged + o.logged) * STRIDE > log.length) {
                log = java.util.Arrays.copyOf(log == null ? new long[0] : log, (logged + o.logged) * STRIDE);
            }
            System.arraycopy(o.log, 0, log, logged * STRIDE, o.logged * STRIDE);
            logged += o.logged;
        }
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
