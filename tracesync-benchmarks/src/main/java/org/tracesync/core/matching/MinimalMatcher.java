package org.tracesync.core.matching;

/**
 * The least a window matcher must do per event, for measuring the floor of the matching half
 * (issue #17 goal 3, docs/PERFORMANCE.md "ninth session"): not a matcher to use. Per event: one
 * probe of an open-addressing table with the block's precomputed hash; a new key takes one slot
 * and one 64-byte record appended to a ring in time order; a known key gets its side's count,
 * node and time stored. Keys are decided in first-event order once the stream passes their first
 * time plus the window: sent once and received once on two nodes is a message, whose pair gets
 * one update (a count and the minimum delay), then its slot is removed by backward shift.
 *
 * <p>Left out on purpose (what {@link TcpMatcher} does beyond this): retransmission tracking
 * ({@code FlowTable}), exchanges, the key limit, counts of why keys are dropped, chunks (the ring
 * and the table are sized once, never grown), the hull behind the pair update. Optionally the run's
 * home slots and the slots its decisions empty are read ahead ({@code ahead}), as
 * {@link TcpMatcher#match} does.
 */
public final class MinimalMatcher {

    private static final int RUN = 128;

    private final long window;
    private final boolean ahead;
    private final long[] slots;
    private final int mask;
    private final long[] ring;
    private final int ringMask;
    private long head;
    private long tail;
    private long now = Long.MIN_VALUE;
    private final int nodes;
    /** Per ordered pair: messages, and the least receive − send time. */
    final long[] pairCount;
    final long[] pairMin;
    long matched;
    long reads;

    /** {@code capacity}: at least the most keys live at once (the ring's records; the table gets twice that). */
    public MinimalMatcher(int nodes, long window, int capacity, boolean ahead) {
        this.window = window;
        this.ahead = ahead;
        this.nodes = nodes;
        int records = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        ring = new long[records * 8];
        ringMask = records - 1;
        slots = new long[records * 2];
        mask = slots.length - 1;
        pairCount = new long[nodes * nodes];
        pairMin = new long[nodes * nodes];
        java.util.Arrays.fill(pairMin, Long.MAX_VALUE);
    }

    public long matched() {
        return matched;
    }

    private int rec(long id) {
        return ((int) id & ringMask) << 3;
    }

    public void match(EventBlock block) {
        int[] info = block.info;
        int[] hash = block.hash;
        long[] time = block.time;
        long[] a = block.a;
        long[] b = block.b;
        long[] c = block.c;
        for (int start = 0, n = block.size; start < n; start += RUN) {
            int end = Math.min(n, start + RUN);
            if (ahead) {
                long read = 0;
                for (int i = start; i < end; i++) {
                    read += slots[hash[i] & mask];
                }
                long limit = time[end - 1] - window;
                for (long id = head, stop = Math.min(tail, head + RUN); id < stop; id++) {
                    int e = rec(id);
                    if (ring[e + 3] >= limit) {
                        break;
                    }
                    read += slots[(int) ring[e + 7] & mask];
                }
                reads += read;
            }
            for (int i = start; i < end; i++) {
                int f = info[i];
                step(EventBlock.node(f), EventBlock.send(f), time[i], a[i], b[i], c[i], hash[i]);
            }
        }
    }

    private void step(int node, boolean send, long time, long a, long b, long c, int h) {
        if (time > now) {
            now = time;
            long limit = time - window;
            while (head < tail && ring[rec(head) + 3] < limit) {
                decideHead();
            }
        }
        long[] slots = this.slots;
        long[] ring = this.ring;
        int i = h & mask;
        int e;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                long id = tail++;
                e = rec(id);
                ring[e] = a;
                ring[e + 1] = b;
                ring[e + 2] = c;
                ring[e + 3] = time;
                ring[e + 6] = 0;
                ring[e + 7] = h;
                slots[i] = (long) h << 32 | (id & 0xffff_ffffL);
                break;
            }
            if ((int) (s >>> 32) == h) {
                e = rec(s);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    break;
                }
            }
            i = (i + 1) & mask;
        }
        int side = send ? 0 : 1;
        ring[e + 4 + side] = time;
        // per side: a 16-bit count and the node + 1
        long meta = ring[e + 6];
        meta += 1L << (side << 4);
        int shift = 32 + (side << 4);
        ring[e + 6] = (meta & ~(0xffffL << shift)) | (long) (node + 1) << shift;
    }

    private void decideHead() {
        int e = rec(head);
        long meta = ring[e + 6];
        int from = (int) (meta >>> 32 & 0xffff) - 1;
        int to = (int) (meta >>> 48 & 0xffff) - 1;
        if ((int) meta == (1 << 16 | 1) && from != to) {
            matched++;
            int p = from * nodes + to;
            pairCount[p]++;
            long d = ring[e + 5] - ring[e + 4];
            if (d < pairMin[p]) {
                pairMin[p] = d;
            }
        }
        int h = (int) ring[e + 7];
        long want = (long) h << 32 | (head & 0xffff_ffffL);
        int i = h & mask;
        while (slots[i] != want) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long s = slots[j];
            if (s == 0) {
                break;
            }
            int home = (int) (s >>> 32) & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                slots[i] = s;
                i = j;
            }
        }
        slots[i] = 0;
        head++;
    }

    /** Decides every key left. */
    public void finish() {
        while (head < tail) {
            decideHead();
        }
    }
}
