package org.tracesync.core.matching;

/**
 * Per (node, TCP connection direction) state for retransmission detection: the next expected
 * sequence number (highest seq + length seen, SYN and FIN counting one). A segment carrying data
 * (or SYN/FIN) that starts before it is a retransmission or out-of-order copy (the rule of
 * Wireshark's {@code tcp.analysis.retransmission}/{@code out_of_order}, without its keep-alive
 * exception: a 1-byte keep-alive probe is dropped too).
 *
 * <p>Open addressing on two longs; flows idle for more than the window are dropped by a sweep
 * run once per window, so memory is bounded by the flows active within two windows. O(1)
 * expected per segment.
 */
final class FlowTable {

    private long[] keyA = new long[1 << 10];
    private int[] keyNode = new int[1 << 10];
    private long[] next = new long[1 << 10];
    private long[] lastSeen = new long[1 << 10];
    private boolean[] used = new boolean[1 << 10];
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
        if (lastSweep == Long.MIN_VALUE) {
            lastSweep = time;
        } else if (time - lastSweep > window) {
            sweep(time - window);
            lastSweep = time;
        }
        int mask = used.length - 1;
        int i = hash(a, node) & mask;
        while (used[i] && !(keyA[i] == a && keyNode[i] == node)) {
            i = (i + 1) & mask;
        }
        long span = payloadLength + ((flags & 0x02) != 0 ? 1 : 0) + ((flags & 0x01) != 0 ? 1 : 0);
        long end = (seq + span) & 0xffffffffL;
        if (!used[i]) {
            if ((size + 1) * 2 > used.length) {
                resize(used.length * 2, Long.MIN_VALUE);
                return retransmission(node, a, seq, payloadLength, flags, time, window);
            }
            used[i] = true;
            keyA[i] = a;
            keyNode[i] = node;
            next[i] = end;
            lastSeen[i] = time;
            size++;
            return false;
        }
        lastSeen[i] = time;
        boolean retrans = span > 0 && (int) (seq - next[i]) < 0;
        if ((int) (end - next[i]) > 0) {
            next[i] = end;
        }
        return retrans;
    }

    private void sweep(long staleBefore) {
        resize(used.length, staleBefore);
    }

    private void resize(int n, long staleBefore) {
        long[] oa = keyA;
        int[] on = keyNode;
        long[] ox = next;
        long[] ol = lastSeen;
        boolean[] ou = used;
        keyA = new long[n];
        keyNode = new int[n];
        next = new long[n];
        lastSeen = new long[n];
        used = new boolean[n];
        size = 0;
        int mask = n - 1;
        for (int j = 0; j < ou.length; j++) {
            if (!ou[j] || ol[j] < staleBefore) {
                continue;
            }
            int i = hash(oa[j], on[j]) & mask;
            while (used[i]) {
                i = (i + 1) & mask;
            }
            used[i] = true;
            keyA[i] = oa[j];
            keyNode[i] = on[j];
            next[i] = ox[j];
            lastSeen[i] = ol[j];
            size++;
        }
    }
}
