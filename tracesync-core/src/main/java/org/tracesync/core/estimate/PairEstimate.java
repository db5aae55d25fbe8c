package org.tracesync.core.estimate;

import org.tracesync.core.geometry.Slope;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MonotoneBound;

/**
 * Everything estimation found for one pair a &lt; b (DESIGN §1 stage 4).
 *
 * <p>Geometry is in the pair's rebased coordinates (u = x − x0, v = y − x − v0, x on a's clock,
 * y on b's). The estimate is the line {@code v = c + d·u}, i.e. {@code y = x + v0 + c + d·(x − x0)}.
 *
 * @param quality       quality class; {@link #note} says why
 * @param dMin, dMax    feasible drift range (exact; ±∞ when unbounded; null when F is undefined or empty)
 * @param c, d          the estimate (NaN when there is none: one-way, absent, invalid)
 * @param lowerAToB     lower bound of b-time given a-time (null when F is not bounded)
 * @param upperAToB     upper bound of b-time given a-time (null when F is not bounded)
 * @param meanAccuracy  mean bound width over the pair's a-time span, ns (NaN without bounds)
 * @param violations    fallback: hull points the minimax line violates
 * @param maxViolation  fallback: the largest violation, ns
 * @param pu, pv, qu, qv hull vertices (lower hull of a → b points, upper hull of b → a points)
 * @param pieces        piecewise quality: the pieces, steps and joined bounds (null otherwise);
 *                      then {@code c, d} are the first piece's line and the bounds the joined ones
 */
public record PairEstimate(int a, int b, Quality quality, String note,
                           long countAToB, long countBToA, long x0, long v0, long minX, long maxX,
                           Slope dMin, Slope dMax, double c, double d,
                           MonotoneBound lowerAToB, MonotoneBound upperAToB, double meanAccuracy,
                           int violations, double maxViolation,
                           long[] pu, long[] pv, long[] qu, long[] qv, PiecewiseFit pieces) {

    public boolean hasEstimate() {
        return !Double.isNaN(d);
    }

    public boolean hasBounds() {
        return lowerAToB != null && upperAToB != null;
    }

    /** a-time → b-time. */
    public ClockTransform transformAToB() {
        if (pieces != null) {
            return pieces.transform();
        }
        return ClockTransform.linear(x0, (double) v0 + c, d);
    }

    /** Returns a copy with another note. */
    public PairEstimate withNote(String newNote) {
        return new PairEstimate(a, b, quality, newNote, countAToB, countBToA, x0, v0, minX, maxX,
                dMin, dMax, c, d, lowerAToB, upperAToB, meanAccuracy, violations, maxViolation, pu, pv, qu, qv, pieces);
    }

    /** Returns a copy with the estimate line replaced (other estimators, same geometry). */
    public PairEstimate withLine(double newC, double newD, String newNote) {
        return new PairEstimate(a, b, quality, newNote, countAToB, countBToA, x0, v0, minX, maxX,
                dMin, dMax, newC, newD, lowerAToB, upperAToB, meanAccuracy, violations, maxViolation,
                pu, pv, qu, qv, pieces);
    }

    /** Number of pieces of the transform (1 unless piecewise). */
    public int pieceCount() {
        return pieces == null ? 1 : pieces.pieces();
    }

    /**
     * A copy with a line that leaves the feasible region (an estimator other than the hull's): the
     * quality becomes {@link Quality#FALLBACK} with the inverted messages counted; the geometry and
     * the hull's bounds (true whatever the line) are kept.
     */
    public PairEstimate withRegressionOutside(double newC, double newD, int inverted, double worst, String newNote) {
        return new PairEstimate(a, b, Quality.FALLBACK, newNote, countAToB, countBToA, x0, v0, minX, maxX,
                dMin, dMax, newC, newD, lowerAToB, upperAToB, meanAccuracy, inverted, worst, pu, pv, qu, qv, null);
    }

    /** True for a fallback whose hulls cross (no line avoids inversions), not a line chosen outside F. */
    public boolean hullsCross() {
        return quality == Quality.FALLBACK && dMin == null;
    }

    /** Feasible drift range as doubles for output: NaN where unknown. */
    public double driftMin() {
        return dMin == null ? Double.NaN : dMin.toDouble();
    }

    public double driftMax() {
        return dMax == null ? Double.NaN : dMax.toDouble();
    }
}
