package org.tracesync.core.transform;

/**
 * One row of a node's accuracy bounds (DESIGN §7): at local time {@code t}, the reference time
 * lies in {@code [ref(t) − minus, ref(t) + plus]}; a side that is absent (unbounded) is +∞.
 * How rows are read between and beyond each other is {@link NodeBounds}'s rule.
 */
public record BoundRow(long t, double minus, double plus) {

    public double width() {
        return minus + plus;
    }
}
