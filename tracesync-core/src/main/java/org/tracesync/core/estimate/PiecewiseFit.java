package org.tracesync.core.estimate;

import java.util.List;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MonotoneBound;

/**
 * A pair's piecewise-linear fit (DESIGN §6), found by {@link PiecewiseEstimator}.
 *
 * @param transform     a-time → b-time, one segment per piece, continuous except at steps and breaks
 * @param lower         lower bound of b-time given a-time over all pieces (null when a piece has none)
 * @param upper         upper bound, likewise
 * @param pieces        number of pieces
 * @param steps         the clock steps found (cuts where the offset jumps far beyond the corridor)
 * @param breaks        knots where continuity was impossible but no step is proven (small jumps)
 * @param unresolved    buckets no line fits on its own, or only a line faster than a slew (a step
 *                      inside them); their messages are split at the cut that violates fewest
 *                      hull points
 * @param bucketWidth   width of the time buckets the knots lie on (ns)
 * @param slewsBeyondBound with a bound on the slew rate ({@link PiecewiseEstimator#estimate(
 *                      org.tracesync.core.accumulate.PairAccumulator, PairEstimate, double)}): the
 *                      slews faster than it, kept because none within it fits the messages there
 *                      (the data contradict the bound); 0 without a bound
 */
public record PiecewiseFit(ClockTransform transform, MonotoneBound lower, MonotoneBound upper, int pieces,
                           List<ClockStep> steps, int breaks, int unresolved, long bucketWidth,
                           int slewsBeyondBound) {
    public PiecewiseFit {
        steps = List.copyOf(steps);
    }

    /** A fit without a slew-rate bound. */
    public PiecewiseFit(ClockTransform transform, MonotoneBound lower, MonotoneBound upper, int pieces,
                        List<ClockStep> steps, int breaks, int unresolved, long bucketWidth) {
        this(transform, lower, upper, pieces, steps, breaks, unresolved, bucketWidth, 0);
    }

    public boolean hasBounds() {
        return lower != null && upper != null;
    }
}
