package org.tracesync.core.accumulate;

import java.util.Arrays;
import org.tracesync.core.model.MessageSink;

/**
 * Keeps every message of every pair in primitive arrays: O(n) memory, used only by estimators
 * that need individual messages (regression on exchanges), never on the default path.
 */
public final class PairMessageLog implements MessageSink {

    private final int nodes;
    private final long[][][] data; // [pair][0..3] = abSend, abRecv, baSend, baRecv
    private final int[][] counts;

    public PairMessageLog(int nodes) {
        this.nodes = nodes;
        this.data = new long[nodes * nodes][][];
        this.counts = new int[nodes * nodes][];
    }

    @Override
    public void message(int sender, int receiver, long sendTime, long recvTime) {
        if (sender == receiver) {
            return;
        }
        int a = Math.min(sender, receiver);
        int b = Math.max(sender, receiver);
        int i = a * nodes + b;
        if (data[i] == null) {
            data[i] = new long[][] {new long[16], new long[16], new long[16], new long[16]};
            counts[i] = new int[2];
        }
        int dir = sender == a ? 0 : 1;
        int k = counts[i][dir];
        if (k == data[i][2 * dir].length) {
            data[i][2 * dir] = Arrays.copyOf(data[i][2 * dir], k * 2);
            data[i][2 * dir + 1] = Arrays.copyOf(data[i][2 * dir + 1], k * 2);
        }
        data[i][2 * dir][k] = sendTime;
        data[i][2 * dir + 1][k] = recvTime;
        counts[i][dir] = k + 1;
    }

    /** {abSend, abRecv, baSend, baRecv} of pair (a, b), a &lt; b; empty arrays when none. */
    public long[][] messages(int a, int b) {
        int i = a * nodes + b;
        if (data[i] == null) {
            return new long[][] {new long[0], new long[0], new long[0], new long[0]};
        }
        return new long[][] {Arrays.copyOf(data[i][0], counts[i][0]), Arrays.copyOf(data[i][1], counts[i][0]),
            Arrays.copyOf(data[i][2], counts[i][1]), Arrays.copyOf(data[i][3], counts[i][1])};
    }
}
