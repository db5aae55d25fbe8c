package org.tracesync.core.matching;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Coarse clock offsets between traces, found before matching so that clocks minutes or hours
 * apart — farther than the match window — still synchronize with no option (DESIGN §1, stage 2).
 *
 * <p><b>Method.</b> Keys match regardless of time: the caller feeds a prefix of every trace (its
 * first events, in any order); a key seen exactly once as a send and once as a receive, on two
 * different nodes, gives the difference d = receive time − send time, which is the receiver's
 * clock offset relative to the sender's plus the latency. Per pair, the offset is half the
 * difference of the two directions' medians (latencies cancel when they are alike), or one
 * direction's median when only one is seen (off by a latency: far below any window). Medians
 * ignore the few wrong pairings that reused keys can cause. Nodes are then linked along a
 * maximum spanning tree weighted by matched keys, from the node with the most; each connected
 * group keeps its own origin.
 *
 * <p><b>Memory.</b> Keys are hash-sampled (a key is kept when its {@link KeyWindow#hash} is below a
 * threshold that halves whenever more than {@code maxKeys} are held), so both ends of a sampled
 * key are kept and memory stays below {@code maxKeys} entries whatever the prefix length.
 *
 * <p>Exact: differences and offsets are int64 ns (no double on timestamps). Cost: O(1) expected
 * per event, O(m log m) for the m sampled matches at the end.
 */
public final class CoarseClockOffsets {

    /** Fewer matched keys than this between two nodes give no estimate for the pair. */
    public static final int MIN_MATCHES = 3;

    private record Key(long a, long b, long c) {
    }

    private static final class Entry {
        final int hash;
        int sends;
        int sendNode;
        long sendTime;
        int recvs;
        int recvNode;
        long recvTime;

        Entry(int hash) {
            this.hash = hash;
        }
    }

    private final int nodes;
    private final int maxKeys;
    private final Map<Key, Entry> sample = new HashMap<>();
    /** Keys are kept when (hash & 0x7fffffff) < threshold. */
    private long threshold = 1L << 31;

    public CoarseClockOffsets(int nodes, int maxKeys) {
        this.nodes = nodes;
        this.maxKeys = maxKeys;
    }

    /** Adds every segment or message event of {@code block} (datagrams are ignored). */
    public void add(EventBlock block) {
        for (int i = 0; i < block.size; i++) {
            int f = block.info[i];
            if (EventBlock.datagram(f)) {
                continue;
            }
            int h = KeyWindow.hash(block.a[i], block.b[i], block.c[i]) & 0x7fffffff;
            if (h >= threshold) {
                continue;
            }
            Entry e = sample.computeIfAbsent(new Key(block.a[i], block.b[i], block.c[i]), k -> new Entry(h));
            if (EventBlock.send(f)) {
                e.sends++;
                e.sendNode = EventBlock.node(f);
                e.sendTime = block.time[i];
            } else {
                e.recvs++;
                e.recvNode = EventBlock.node(f);
                e.recvTime = block.time[i];
            }
            while (sample.size() > maxKeys) {
                threshold >>= 1;
                long t = threshold;
                sample.values().removeIf(x -> x.hash >= t);
            }
        }
    }

    /**
     * The estimate.
     *
     * @param offsets  per node, its clock minus its group origin's clock (ns); 0 for a group origin
     *                 and for a node with no estimate
     * @param matches  per node, sampled keys matched with other nodes
     * @param largest  the largest difference between two offsets of one connected group (ns)
     */
    public record Estimate(long[] offsets, long[] matches, long largest) {
        /** True when two clocks of one group are more than {@code limit} (ns) apart. */
        public boolean exceeds(long limit) {
            return largest > limit;
        }
    }

    /** Offsets from what was added. */
    public Estimate estimate() {
        // per ordered pair, the differences d = recv - send
        Map<Long, List<Long>> diffs = new HashMap<>();
        long[] matches = new long[nodes];
        for (Entry e : sample.values()) {
            if (e.sends != 1 || e.recvs != 1 || e.sendNode == e.recvNode) {
                continue;
            }
            diffs.computeIfAbsent(pairId(e.sendNode, e.recvNode), k -> new ArrayList<>()).add(e.recvTime - e.sendTime);
            matches[e.sendNode]++;
            matches[e.recvNode]++;
        }
        // per unordered pair i < j: offset of j relative to i, and its weight
        long[][] offset = new long[nodes][nodes];
        int[][] weight = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++) {
            for (int j = i + 1; j < nodes; j++) {
                List<Long> ij = diffs.getOrDefault(pairId(i, j), List.of());
                List<Long> ji = diffs.getOrDefault(pairId(j, i), List.of());
                if (ij.size() + ji.size() < MIN_MATCHES) {
                    continue;
                }
                long o;
                if (!ij.isEmpty() && !ji.isEmpty()) {
                    long mij = median(ij);
                    long mji = median(ji);
                    o = mij / 2 - mji / 2 + ((mij % 2) - (mji % 2)) / 2;
                } else if (!ij.isEmpty()) {
                    o = median(ij);
                } else {
                    o = -median(ji);
                }
                offset[i][j] = o;
                offset[j][i] = -o;
                weight[i][j] = ij.size() + ji.size();
                weight[j][i] = weight[i][j];
            }
        }
        // maximum spanning forest (Prim), each tree from its best-connected node
        long[] result = new long[nodes];
        boolean[] inTree = new boolean[nodes];
        long largest = 0;
        while (true) {
            int root = -1;
            for (int n = 0; n < nodes; n++) {
                if (!inTree[n] && (root < 0 || matches[n] > matches[root])) {
                    root = n;
                }
            }
            if (root < 0) {
                break;
            }
            inTree[root] = true;
            result[root] = 0;
            List<Integer> tree = new ArrayList<>(List.of(root));
            long lowest = 0;
            long highest = 0;
            while (true) {
                int bestFrom = -1;
                int bestTo = -1;
                for (int from : tree) {
                    for (int to = 0; to < nodes; to++) {
                        if (!inTree[to] && weight[from][to] > 0
                                && (bestFrom < 0 || weight[from][to] > weight[bestFrom][bestTo])) {
                            bestFrom = from;
                            bestTo = to;
                        }
                    }
                }
                if (bestFrom < 0) {
                    break;
                }
                inTree[bestTo] = true;
                tree.add(bestTo);
                result[bestTo] = result[bestFrom] + offset[bestFrom][bestTo];
                lowest = Math.min(lowest, result[bestTo]);
                highest = Math.max(highest, result[bestTo]);
            }
            largest = Math.max(largest, highest - lowest);
        }
        return new Estimate(result, matches, largest);
    }

    private static long pairId(int from, int to) {
        return (long) from << 32 | (to & 0xffffffffL);
    }

    private static long median(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
