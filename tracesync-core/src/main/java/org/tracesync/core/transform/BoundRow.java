package org.tracesync.core.transform;

/**
 * One row of a node's accuracy bounds (DESIGN §7): at local time {@code t}, the reference time
 * lies in {@code [ref(t) − minus, ref(t) + plus]}. Rows are sorted by t; values in between are
 * linearly interpolated, values outside linearly extrapolated.
 */
public record BoundRow(long t, double minus, double plus) {

    public double width() {
        return minus + plus;
    }

    /**
     * {minus, plus} at local time t from rows sorted by t (DESIGN §7): linear interpolation between
     * rows, linear extrapolation from the two end rows, a single row is constant; NaN when there are
     * no rows. O(log rows).
     */
    public static double[] at(java.util.List<BoundRow> rows, long t) {
        int n = rows.size();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        if (n == 1) {
            return new double[] {rows.get(0).minus(), rows.get(0).plus()};
        }
        int lo = 0;
        int hi = n - 1;
        if (t <= rows.get(0).t()) {
            hi = 1;
        } else if (t >= rows.get(n - 1).t()) {
            lo = n - 2;
        } else {
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (rows.get(mid).t() <= t) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        BoundRow a = rows.get(lo);
        BoundRow b = rows.get(hi);
        double f = (double) (t - a.t()) / (double) (b.t() - a.t());
        return new double[] {a.minus() + f * (b.minus() - a.minus()), a.plus() + f * (b.plus() - a.plus())};
    }
}
