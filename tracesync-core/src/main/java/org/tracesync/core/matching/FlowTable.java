package org.tracesync.core.matching;

/**
 * Per (node, TCP connection direction) state for retransmission detection: the next expected
 * sequence number (highest seq + length seen, SYN and FIN counting one). A segment carrying data
 * (or SYN/FIN) that starts before it is a retransmission or out-of-order copy (the rule of
 * Wireshark's {@code tcp.analysis.retransmission}/{@code out_of_order}, without its keep-alive
 * exception: a 1-byte keep-alive probe is dropped too).
 *
 * <p>Open addressing, four longs per entry in one array; flows idle for more than the window are dropped by a sweep
 * run once per window, so memory is bounded by the flows active within two windows. O(1)
 * expected per segment.
 */
final class FlowTable {

    /**
     * Entry i at {@code t[4i ..]}: the connection direction, node + 1 (0: empty slot), the next
     * expected sequence number, the last time seen: one cache line holds two entries, so a
     * lookup touches one line where five parallel arrays touched five.
     */
    private long[] t = new long[4 << 10];
    private int slots = 1 << 10;
    private int size;
    private long lastSweep = Long.MIN_VALUE;

    private static int hash(long a, int node) {
        long h = (a ^ ((long) node << 59)) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }

    /**
     * Records a segment of connection direction {@code a} on {@code node} at {@code time}; returns
     * true when it is a retransmission (or out of order).
     */
    boolean retransmission(int node, long a, long seq, int payloadLength, int flags, long time, long window) {
        if (time - lastSweep > window || lastSweep == Long.MIN_VALUE) {
            sweepAt(time, window);
        }
        long[] t = this.t;
        int mask = slots - 1;
        long tag = node + 1L;
        int i = hash(a, node) & mask;
        long used;
        while ((used = t[4 * i + 1]) != 0 && !(t[4 * i] == a && used == tag)) {
            i = (i + 1) & mask;
        }
        long span = payloadLength + ((flags & 0x02) != 0 ? 1 : 0) + ((flags & 0x01) != 0 ? 1 : 0);
        long end = (seq + span) & 0xffffffffL;
        int e = 4 * i;
        if (used == 0) {
            return add(e, node, a, end, time, seq, payloadLength, flags, window);
        }
        t[e + 3] = time;
        long next = t[e + 2];
        boolean retrans = span > 0 && (int) (seq - next) < 0;
        if ((int) (end - next) > 0) {
            t[e + 2] = end;
        }
        return retrans;
    }

    /** The first sweep time, or a sweep when a window has passed since the last one. */
    private void sweepAt(long time, long window) {
        if (lastSweep != Long.MIN_VALUE) {
            sweep(time - window);
        }
        lastSweep = time;
    }

    /** A flow's first segment (entry {@code e} is empty): never a retransmission. */
    private boolean add(int e, int node, long a, long end, long time, long seq, int payloadLength, int flags,
                        long window) {
        if ((size + 1) * 2 > slots) {
            resize(slots * 2, Long.MIN_VALUE);
            return retransmission(node, a, seq, payloadLength, flags, time, window);
        }
        t[e] = a;
        t[e + 1] = node + 1L;
        t[e + 2] = end;
        t[e + 3] = time;
        size++;
        return false;
    }

    private void sweep(long staleBefore) {
        resize(slots, staleBefore);
    }

    private void resize(int n, long staleBefore) {
        long[] old = t;
        t = new long[4 * n];
        slots = n;
        size = 0;
        int mask = n - 1;
        for (int j = 0; j < old.length; j += 4) {
            if (old[j + 1] == 0 || old[j + 3] < staleBefore) {
                continue;
            }
            int i = hash(old[j], (int) old[j + 1] - 1) & mask;
            while (t[4 * i + 1] != 0) {
                i = (i + 1) & mask;
            }
            System.arraycopy(old, j, t, 4 * i, 4);
            size++;
        }
    }
}
