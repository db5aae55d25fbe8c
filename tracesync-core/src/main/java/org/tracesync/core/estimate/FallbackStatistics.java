package org.tracesync.core.estimate;

/**
 * How far a pair's line is from keeping every message forward: the hull points the minimax line
 * violates when the hulls cross, or the messages an estimator's line (regression) inverts.
 *
 * @param maxViolation the largest violation, ns
 */
public record FallbackStatistics(int violations, double maxViolation) {

    public static final FallbackStatistics NONE = new FallbackStatistics(0, 0);
}
