package org.tracesync.core.accumulate;

import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.model.MessageSink;

/**
 * Pair accumulation for n nodes: a {@link MessageSink} that routes each message to the
 * accumulator of its unordered pair. Messages from a node to itself are counted and dropped.
 *
 * <p>Each node's first and last timestamp are not recorded per message: a node's times come in
 * no order in the stream (its sends and receives on several pairs interleave), and comparing each
 * with the node's range was mispredicted a third of the time on a capture set. Each pair keeps the
 * range of each direction's a-times and b-times, which come nearly in order; a node's range is
 * read from its pairs' (and from {@link #seen(int, long, long)} and merged sets) when first asked
 * after a change, O(nodes²).
 */
public final class PairAccumulators implements MessageSink {

    private final int nodes;
    private final PairAccumulator[] pairs;
    // the ranges given by seen(n, first, last) and by merged sets; the pairs' own are added on read
    private final long[] first;
    private final long[] last;
    private Ranges ranges; // every node's range, null when a message or a merge may have changed it
    private long messages;
    private long selfMessages;

    public PairAccumulators(int nodes) {
        this.nodes = nodes;
        this.pairs = new PairAccumulator[nodes * nodes];
        this.first = new long[nodes];
        this.last = new long[nodes];
        java.util.Arrays.fill(first, Long.MAX_VALUE);
        java.util.Arrays.fill(last, Long.MIN_VALUE);
    }

    @Override
    public void message(int sender, int receiver, long sendTime, long recvTime) {
        if (sender == receiver) {
            selfMessages++;
            return;
        }
        messages++;
        ranges = null;
        if (sender < receiver) {
            pair(sender, receiver).addAToB(sendTime, recvTime);
        } else {
            pair(receiver, sender).addBToA(sendTime, recvTime);
        }
    }

    private void seen(int node, long t) {
        if (t < first[node]) {
            first[node] = t;
        }
        if (t > last[node]) {
            last[node] = t;
        }
        ranges = null;
    }

    /** Every node's first and last timestamp; final fields, so any thread that reads it sees them filled. */
    private record Ranges(long[] first, long[] last) {
    }

    /** The nodes' ranges: the given ones widened by every pair's a-times and b-times. O(nodes²) after a change. */
    private Ranges ranges() {
        Ranges r = ranges;
        if (r != null) {
            return r;
        }
        long[] f = first.clone();
        long[] l = last.clone();
        for (int i = 0; i < pairs.length; i++) {
            PairAccumulator p = pairs[i];
            if (p != null && !p.isEmpty()) {
                int a = i / nodes;
                int b = i % nodes;
                f[a] = Math.min(f[a], p.minX());
                l[a] = Math.max(l[a], p.maxX());
                f[b] = Math.min(f[b], p.minY());
                l[b] = Math.max(l[b], p.maxY());
            }
        }
        r = new Ranges(f, l);
        ranges = r;
        return r;
    }

    /**
     * The accumulator of (a, b), a &lt; b, created on first use. Messages go in through
     * {@link #message}: one added to the pair itself after a node range was read does not widen it.
     */
    public PairAccumulator pair(int a, int b) {
        int i = a * nodes + b;
        PairAccumulator p = pairs[i];
        if (p == null) {
            p = new PairAccumulator(a, b);
            pairs[i] = p;
        }
        return p;
    }

    /** Accumulators that received at least one message, ordered by (a, b). */
    public List<PairAccumulator> nonEmptyPairs() {
        List<PairAccumulator> out = new ArrayList<>();
        for (PairAccumulator p : pairs) {
            if (p != null && !p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    /** Folds another set (same node count) into this one. */
    public void merge(PairAccumulators other) {
        if (other.nodes != nodes) {
            throw new IllegalArgumentException("node counts differ: " + other.nodes + " vs " + nodes);
        }
        for (int i = 0; i < pairs.length; i++) {
            PairAccumulator p = other.pairs[i];
            if (p != null && !p.isEmpty()) {
                pair(i / nodes, i % nodes).merge(p);
            }
        }
        for (int n = 0; n < nodes; n++) {
            first[n] = Math.min(first[n], other.first(n));
            last[n] = Math.max(last[n], other.last(n));
        }
        ranges = null;
        messages += other.messages;
        selfMessages += other.selfMessages;
    }

    /**
     * Folds in one pair's accumulator built elsewhere (a partition of a distributed job), counting
     * its messages; the nodes' ranges widen to its messages' times (give wider ones with
     * {@link #seen(int, long, long)}).
     */
    public void merge(PairAccumulator p) {
        if (p.isEmpty()) {
            return;
        }
        pair(p.a(), p.b()).merge(p);
        messages += p.countAToB() + p.countBToA();
        ranges = null;
    }

    /** Records that node {@code n} has messages from {@code first} to {@code last} (its own clock). */
    public void seen(int n, long first, long last) {
        seen(n, first);
        seen(n, last);
    }

    public int nodes() {
        return nodes;
    }

    /** First timestamp of node n in any message, or Long.MAX_VALUE if none. */
    public long first(int n) {
        return ranges().first[n];
    }

    /** Last timestamp of node n in any message, or Long.MIN_VALUE if none. */
    public long last(int n) {
        return ranges().last[n];
    }

    public long messages() {
        return messages;
    }

    public long selfMessages() {
        return selfMessages;
    }
}
