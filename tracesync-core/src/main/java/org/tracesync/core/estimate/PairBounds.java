package org.tracesync.core.estimate;

import org.tracesync.core.transform.MonotoneBound;

/**
 * A pair's bound functions: b-time given a-time lies in [lowerAToB(x), upperAToB(x)] (absolute
 * ns; an end slope of +∞ marks where a side is unbounded, see {@link MonotoneBound}).
 *
 * @param meanAccuracy mean of upper − lower over the pair's span on a's clock, ns (NaN when a side
 *                     is unbounded somewhere there)
 */
public record PairBounds(MonotoneBound lowerAToB, MonotoneBound upperAToB, double meanAccuracy) {
}
