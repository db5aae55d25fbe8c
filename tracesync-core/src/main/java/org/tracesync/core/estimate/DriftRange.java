package org.tracesync.core.estimate;

import org.tracesync.core.geometry.Slope;

/** The feasible drift range [min, max] of a pair (exact slopes; ±∞ when unbounded). */
public record DriftRange(Slope min, Slope max) {

    public boolean bounded() {
        return min.isFinite() && max.isFinite();
    }
}
