package org.tracesync.core.evaluate;

import java.util.List;
import org.tracesync.core.transform.BoundRow;

/**
 * Evaluates a node's accuracy rows at any local time (DESIGN §7): linear interpolation between
 * rows, linear extrapolation beyond the first/last two rows (a single row is constant), NaN when
 * there are none. O(log rows) per query.
 */
final class Bounds {
    private final long[] t;
    private final double[] minus;
    private final double[] plus;

    Bounds(List<BoundRow> rows) {
        int n = rows.size();
        t = new long[n];
        minus = new double[n];
        plus = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = rows.get(i).t();
            minus[i] = rows.get(i).minus();
            plus[i] = rows.get(i).plus();
        }
    }

    boolean known() {
        return t.length > 0;
    }

    double minus(long x) {
        return at(minus, x);
    }

    double plus(long x) {
        return at(plus, x);
    }

    private double at(double[] v, long x) {
        int n = t.length;
        if (n == 0) {
            return Double.NaN;
        }
        if (n == 1) {
            return v[0];
        }
        int i = java.util.Arrays.binarySearch(t, x);
        if (i >= 0) {
            return v[i];
        }
        int hi = -i - 1;
        hi = Math.max(1, Math.min(n - 1, hi));
        int lo = hi - 1;
        double f = (double) (x - t[lo]) / (double) (t[hi] - t[lo]);
        return v[lo] + f * (v[hi] - v[lo]);
    }
}
