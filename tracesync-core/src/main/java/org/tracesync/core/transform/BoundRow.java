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
}
