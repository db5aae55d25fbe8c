package org.tracesync.core.transform;

import java.util.List;

/**
 * Maps a node's local timestamps onto its reference clock: one or more {@link LinearSegment}s
 * (one open segment for a linear transform; consecutive [from, to) pieces for a piecewise one).
 */
public record ClockTransform(List<LinearSegment> segments) {

    public ClockTransform {
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a transform needs at least one segment");
        }
    }

    /** The identity transform (a reference node, or an unsynchronized node). */
    public static ClockTransform identity(long origin) {
        return linear(origin, 0.0, 0.0);
    }

    public static ClockTransform linear(long origin, double offset, double drift) {
        return new ClockTransform(List.of(new LinearSegment(null, null, origin, offset, drift)));
    }

    public boolean isLinear() {
        return segments.size() == 1;
    }

    /** The single segment of a linear transform. */
    public LinearSegment linearSegment() {
        if (!isLinear()) {
            throw new IllegalStateException("transform is piecewise");
        }
        return segments.get(0);
    }

    public LinearSegment segmentAt(long t) {
        for (LinearSegment s : segments) {
            if (s.contains(t)) {
                return s;
            }
        }
        // outside every [from, to): extend the nearest end segment
        return t < firstFrom() ? segments.get(0) : segments.get(segments.size() - 1);
    }

    private long firstFrom() {
        Long f = segments.get(0).from();
        return f == null ? Long.MIN_VALUE : f;
    }

    /** {@code ref(t) − t} in ns. */
    public double correction(long t) {
        return segmentAt(t).correction(t);
    }

    /** {@code ref(t)} rounded to the nearest ns. */
    public long apply(long t) {
        return t + Math.round(correction(t));
    }

    /**
     * The inverse of a linear transform: maps the reference clock back to this node's clock.
     * For {@code ref(t) = t + K + d·(t − g)}: origin {@code g' = g + round(K)},
     * drift {@code −d / (1 + d)}, offset {@code −round(K) + (round(K) − K) / (1 + d)}.
     */
    public ClockTransform inverse() {
        LinearSegment s = linearSegment();
        double k = s.offset();
        long rounded = Math.round(k);
        double d = s.drift();
        return linear(Math.addExact(s.origin(), rounded), -rounded + (rounded - k) / (1 + d), -d / (1 + d));
    }

    /**
     * {@code outer ∘ this} for linear transforms: first this (local → intermediate clock), then
     * {@code outer} (intermediate → its reference). Origin stays this transform's origin.
     */
    public ClockTransform then(ClockTransform outer) {
        LinearSegment in = linearSegment();
        LinearSegment out = outer.linearSegment();
        double d1 = out.drift();
        double d2 = in.drift();
        double offset = in.offset() + out.offset() + d1 * ((double) (in.origin() - out.origin()) + in.offset());
        return linear(in.origin(), offset, d1 + d2 + d1 * d2);
    }
}
