package org.tracesync.core.accumulate;

import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.model.MessageSink;

/**
 * Pair accumulation for n nodes: a {@link MessageSink} that routes each message to the
 * accumulator of its unordered pair, and records each node's first and last timestamp.
 * Messages from a node to itself are counted and dropped.
 */
public final class PairAccumulators implements MessageSink {

    private final int nodes;
    private final PairAccumulator[] pairs;
    private final long[] first;
    private final long[] last;
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
        seen(sender, sendTime);
        seen(receiver, recvTime);
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
    }

    /** The accumulator of (a, b), a &lt; b, created on first use. */
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
            first[n] = Math.min(first[n], other.first[n]);
            last[n] = Math.max(last[n], other.last[n]);
        }
        messages += other.messages;
        selfMessages += other.selfMessages;
    }

    /**
     * Folds in one pair's accumulator built elsewhere (a partition of a distributed job), counting
     * its messages. The nodes' time ranges are not known from it: give them with {@link #seen(int, long, long)}.
     */
    public void merge(PairAccumulator p) {
        if (p.isEmpty()) {
            return;
        }
        pair(p.a(), p.b()).merge(p);
        messages += p.countAToB() + p.countBToA();
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
        return first[n];
    }

    /** Last timestamp of node n in any message, or Long.MIN_VALUE if none. */
    public long last(int n) {
        return last[n];
    }

    public long messages() {
        return messages;
    }

    public long selfMessages() {
        return selfMessages;
    }
}
