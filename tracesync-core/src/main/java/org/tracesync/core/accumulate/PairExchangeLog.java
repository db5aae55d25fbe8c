package org.tracesync.core.accumulate;

import java.util.Arrays;
import org.tracesync.core.model.ExchangeSink;

/**
 * Keeps every exchange of every pair in primitive arrays, oriented for the pair (a, b), a &lt; b:
 * each exchange is one a → b message (sent x_s on a, received y_r on b) and one b → a message
 * (sent y_s on b, received x_r on a), whichever node sent the data. O(exchanges) memory, used only
 * by the regression estimator, never on the default path.
 */
public final class PairExchangeLog implements ExchangeSink {

    private final int nodes;
    private final long[][][] data; // [pair][0..3] = xs, yr, ys, xr
    private final int[] counts;

    public PairExchangeLog(int nodes) {
        this.nodes = nodes;
        this.data = new long[nodes * nodes][][];
        this.counts = new int[nodes * nodes];
    }

    @Override
    public void exchange(int a, int b, long t1, long t2, long t3, long t4) {
        if (a == b) {
            return;
        }
        int lo = Math.min(a, b);
        int i = lo * nodes + Math.max(a, b);
        if (data[i] == null) {
            data[i] = new long[][] {new long[16], new long[16], new long[16], new long[16]};
        }
        int k = counts[i];
        if (k == data[i][0].length) {
            for (int j = 0; j < 4; j++) {
                data[i][j] = Arrays.copyOf(data[i][j], k * 2);
            }
        }
        boolean dataFromLow = a == lo; // the data is the a → b message of the pair
        data[i][0][k] = dataFromLow ? t1 : t3;
        data[i][1][k] = dataFromLow ? t2 : t4;
        data[i][2][k] = dataFromLow ? t3 : t1;
        data[i][3][k] = dataFromLow ? t4 : t2;
        counts[i] = k + 1;
    }

    /** {xs, yr, ys, xr} of pair (a, b), a &lt; b, in arrival order; empty arrays when none. */
    public long[][] exchanges(int a, int b) {
        int i = a * nodes + b;
        int k = counts[i];
        if (data[i] == null) {
            return new long[][] {new long[0], new long[0], new long[0], new long[0]};
        }
        return new long[][] {Arrays.copyOf(data[i][0], k), Arrays.copyOf(data[i][1], k),
            Arrays.copyOf(data[i][2], k), Arrays.copyOf(data[i][3], k)};
    }

    /** Exchanges of pair (a, b), a &lt; b. */
    public int count(int a, int b) {
        return counts[a * nodes + b];
    }
}
