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
    private final boolean light;
    private final FlowTable flowTable;
    private static final int EXCHANGE_SLOTS = 1 << 16;
    private static final int ACK = 0x10;
    private final long[] ex;
    long exchangesFound;
    private long decisionTime;
    private final int nodes;
    /** Per ordered pair: messages, and the least receive − send time. */
    final long[] pairCount;
    final long[] pairMin;
    long matched;
    long reads;

    /** {@code capacity}: at least the most keys live at once (the ring's records; the table gets twice that). */
    public MinimalMatcher(int nodes, long window, int capacity, boolean ahead) {
        this(nodes, window, capacity, ahead, false, false);
    }

    /**
     * With {@code flows}, sends also go through {@link FlowTable#retransmission} (a retransmitted
     * key is not a message); with {@code exchanges}, messages also go through {@link TcpMatcher}'s
     * exchange cache (its slots read ahead with the run, as {@link TcpMatcher#match} does): the
     * two parts of today's matcher beyond this one, added one at a time to cost them.
     */
    public MinimalMatcher(int nodes, long window, int capacity, boolean ahead, boolean flows, boolean exchanges) {
        this(nodes, window, capacity, ahead, flows, exchanges, false);
    }

    /**
     * With {@code light}, fewer unpredictable branches: keys are decided once per run of
     * {@value #RUN} events (a key past its window until then is treated as absent by the lookups,
     * so the same keys are messages), and the home slot's outcome (new key or found) is applied by
     * conditional moves, a loop only on a collision.
     */
    public MinimalMatcher(int nodes, long window, int capacity, boolean ahead, boolean flows, boolean exchanges,
                          boolean light) {
        this.light = light;
        this.window = window;
        this.ahead = ahead;
        this.flowTable = flows ? new FlowTable() : null;
        this.ex = exchanges ? new long[EXCHANGE_SLOTS * 4] : null;
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
                    long hw = ring[e + 7];
                    read += slots[(int) hw & mask];
                    long c2 = ring[e + 2];
                    if (ex != null && c2 >= 0 && (int) ring[e + 6] == (1 << 16 | 1)) {
                        int ackSlot = 0;
                        int dataSlot = 0;
                        if ((c2 & (long) ACK << 32) != 0) {
                            ackSlot = ackSlot(ring[e], ring[e + 1]);
                            read += ex[ackSlot] + ex[ackSlot + 3];
                        }
                        if ((int) c2 > 0) {
                            dataSlot = dataSlot(ring[e], ring[e + 1], (int) c2);
                            read += ex[dataSlot] + ex[dataSlot + 3];
                        }
                        ring[e + 7] = (hw & 0xffff_ffffL) | (long) (ackSlot >> 2) << 48 | (long) (dataSlot >> 2) << 32;
                    }
                }
                reads += read;
            }
            if (light) {
                long limit = now - window;
                while (head < tail && ring[rec(head) + 3] < limit) {
                    decideHead();
                }
                for (int i = start; i < end; i++) {
                    int f = info[i];
                    stepLight(EventBlock.node(f), EventBlock.send(f), time[i], a[i], b[i], c[i], hash[i]);
                }
                continue;
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
        boolean retrans = flowTable != null && send && c >= 0
                && flowTable.retransmission(node, a, b >>> 32, (int) c, (int) (c >>> 32), time, window);
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
                ring[e + 7] = h & 0xffff_ffffL;
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
        long meta = ring[e + 6] | (retrans ? 1L << 31 : 0);
        meta += 1L << (side << 4);
        int shift = 32 + (side << 4);
        ring[e + 6] = (meta & ~(0xffffL << shift)) | (long) (node + 1) << shift;
    }

    /** {@link #step} with the decisions left to the run's start and the home slot's outcome by conditional moves. */
    private void stepLight(int node, boolean send, long time, long a, long b, long c, int h) {
        long nowHere = Math.max(now, time);
        now = nowHere;
        long limit = nowHere - window;
        long[] slots = this.slots;
        long[] ring = this.ring;
        int i = h & mask;
        long s = slots[i];
        int e0 = rec(s);
        boolean same = (int) (s >>> 32) == h & ring[e0] == a & ring[e0 + 1] == b & ring[e0 + 2] == c
                & ring[e0 + 3] >= limit;
        if (s != 0 & !same) {
            // a collision (or the key's window is over): walk the probe run
            while (true) {
                i = (i + 1) & mask;
                s = slots[i];
                if (s == 0) {
                    break;
                }
                int e1 = rec(s);
                if ((int) (s >>> 32) == h && ring[e1] == a && ring[e1 + 1] == b && ring[e1 + 2] == c
                        && ring[e1 + 3] >= limit) {
                    break;
                }
            }
        }
        boolean fresh = s == 0;
        long id = fresh ? tail : s;
        tail += fresh ? 1 : 0;
        int e = rec(id);
        ring[e] = a;
        ring[e + 1] = b;
        ring[e + 2] = c;
        ring[e + 3] = fresh ? time : ring[e + 3];
        long meta = fresh ? 0 : ring[e + 6];
        ring[e + 7] = fresh ? h & 0xffff_ffffL : ring[e + 7];
        slots[i] = fresh ? (long) h << 32 | (id & 0xffff_ffffL) : s;
        int side = send ? 0 : 1;
        ring[e + 4 + side] = time;
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
            if (ex != null && ring[e + 2] >= 0) {
                decisionTime = ring[e + 3];
                exchange(from, to, ring[e + 4], ring[e + 5], ring[e], ring[e + 1], ring[e + 2], ring[e + 7]);
            }
        }
        removeSlot(slots, mask, (int) ring[e + 7], head);
        head++;
    }

    /**
     * Empties the slot of key {@code id} (hash {@code h}) in a linear-probing table of
     * {@code mask + 1} slots and shifts the rest of its probe run back, as {@link KeyWindow} does.
     */
    static void removeSlot(long[] slots, int mask, int h, long id) {
        long want = (long) h << 32 | (id & 0xffff_ffffL);
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
    }

    private static int ackSlot(long k0, long k1) {
        return (KeyWindow.hash(k0, k1 & 0xffffffffL, 0) & (EXCHANGE_SLOTS - 1)) << 2;
    }

    private static long reversed(long k0) {
        return (k0 >>> 32 & 0xffff) << 48 | (k0 >>> 48) << 32 | (k0 & 0xffff) << 16 | (k0 >>> 16 & 0xffff);
    }

    private static int dataSlot(long k0, long k1, int len) {
        long expected = ((k1 >>> 32) + len) & 0xffffffffL;
        return (KeyWindow.hash(reversed(k0), expected, 0) & (EXCHANGE_SLOTS - 1)) << 2;
    }

    /** {@link TcpMatcher}'s exchange cache, its memory accesses and tests (states: 1 awaiting, 2 used). */
    private void exchange(int from, int to, long t1, long t2, long k0, long k1, long k2, long hw) {
        boolean kept = hw >>> 32 != 0;
        if (((int) (k2 >>> 32) & ACK) != 0) {
            int d = kept ? (int) (hw >>> 48) << 2 : ackSlot(k0, k1);
            long want = (k1 & 0xffffffffL) << 32 | 1L << 30 | (long) (to & 0x7fff) << 15 | (from & 0x7fff);
            if (ex[d + 1] == want && ex[d] == k0 && decisionTime - ex[d + 3] <= window) {
                exchangesFound++;
                ex[d + 1] = want ^ 3L << 30;
            }
        }
        int len = (int) k2;
        if (len > 0) {
            int d = kept ? ((int) (hw >>> 32) & 0xffff) << 2 : dataSlot(k0, k1, len);
            long rev = reversed(k0);
            long expected = ((k1 >>> 32) + len) & 0xffffffffL;
            long w = ex[d + 1];
            boolean same = (w & 3L << 30) != 0 && ex[d] == rev && w >>> 32 == expected
                    && decisionTime - ex[d + 3] <= window;
            ex[d] = rev;
            ex[d + 1] = expected << 32 | (same ? 2L : 1L) << 30 | (long) (from & 0x7fff) << 15 | (to & 0x7fff);
            ex[d + 2] = t2 - t1;
            ex[d + 3] = decisionTime;
        }
    }

    /** Decides every key left. */
    public void finish() {
        while (head < tail) {
            decideHead();
        }
    }
}
