package org.tracesync.core.estimate;

import java.util.Arrays;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.geometry.Slope;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.MonotoneBound;

/**
 * The convex-hull estimator (Duda et al. 1987; Haddad 1988; Poirier et al. 2010): feasible
 * region, slope bounds, the bisector estimate, the accuracy envelope and the quality class.
 *
 * <h2>Estimate</h2>
 * Accurate pairs: the bisector of the two extreme lines (slopes d_min and d_max), taken in the
 * (x, y) plane of the two clocks. Written as the weighted mean of the two lines,
 * {@code (n2·ℓ1 + n1·ℓ2) / (n1 + n2)} with {@code n_k = √(1 + (1 + d_k)²)}, which is the same line
 * as Haddad's half-angle formula but cannot cancel when the lines are nearly parallel.
 * Incomplete pairs: the feasible line whose drift is closest to 0 (in the middle of the feasible
 * intercepts at that drift). Fallback pairs: Ashton's minimum-violation line.
 *
 * <h2>Accuracy envelope in O(h)</h2>
 * U(u) = max over F of c + d·u is convex: it follows the lower hull P between the vertices where
 * the extreme lines touch it, and the extreme lines outside. L symmetrically follows Q. So the
 * bound functions are the hull vertices themselves (exact longs) plus two end slopes, found from
 * F's extreme lines — no linear program per hull point (the paper's O(h²)).
 *
 * <p>Cost: O(p + q) after the hulls (measured in docs/PERFORMANCE.md).
 */
public final class ConvexHullEstimator {

    private ConvexHullEstimator() {
    }

    /**
     * The pair's estimate: one line when the hulls admit one (accurate, incomplete, …); when they
     * cross, the piecewise fit of {@link PiecewiseEstimator} (quality piecewise), or the fallback
     * line when no piecewise fit is possible.
     */
    public static PairEstimate estimate(PairAccumulator acc) {
        PairEstimate linear = estimateLinear(acc);
        if (linear.quality() != Quality.FALLBACK) {
            return linear;
        }
        return PiecewiseEstimator.estimate(acc, linear);
    }

    /** One line for the whole pair (fallback when the hulls cross). */
    public static PairEstimate estimateLinear(PairAccumulator acc) {
        long[] pu = acc.aToB().us();
        long[] pv = acc.aToB().vs();
        long[] qu = acc.bToA().us();
        long[] qv = acc.bToA().vs();
        long n1 = acc.countAToB();
        long n2 = acc.countBToA();
        if (n1 == 0 && n2 == 0) {
            return none(acc, Quality.ABSENT, "no messages", pu, pv, qu, qv);
        }
        if (n1 == 0 || n2 == 0) {
            return none(acc, Quality.ONE_WAY, "messages in one direction only ("
                    + (n1 == 0 ? "b to a" : "a to b") + "): one-sided bound, no estimate", pu, pv, qu, qv);
        }
        FeasibleRegion f = new FeasibleRegion(pu, pv, qu, qv);
        if (f.isEmpty()) {
            return fallback(acc, f, pu, pv, qu, qv);
        }
        Slope minusOne = Slope.of(-1, 1);
        if (f.dMax().compareTo(minusOne) <= 0) {
            return new PairEstimate(acc.a(), acc.b(), Quality.INVALID,
                    "the feasible region only allows a non-positive clock rate (max drift "
                            + f.dMax().toDouble() + "): not a clock",
                    n1, n2, acc.x0(), acc.v0(), acc.minX(), acc.maxX(), f.dMin(), f.dMax(),
                    Double.NaN, Double.NaN, null, null, Double.NaN, 0, 0, pu, pv, qu, qv, null);
        }
        if (!f.isBounded()) {
            return incomplete(acc, f, pu, pv, qu, qv);
        }
        double d1 = f.dMin().toDouble();
        double d2 = f.dMax().toDouble();
        double c1 = f.cAtDMin();
        double c2 = f.cAtDMax();
        double w1 = Math.sqrt(1 + (1 + d1) * (1 + d1));
        double w2 = Math.sqrt(1 + (1 + d2) * (1 + d2));
        double d = (w2 * d1 + w1 * d2) / (w1 + w2);
        double c = (w2 * c1 + w1 * c2) / (w1 + w2);
        MonotoneBound lower = null;
        MonotoneBound upper = null;
        double mean = Double.NaN;
        String note = "feasible region bounded";
        if (f.dMin().compareTo(minusOne) > 0) {
            upper = upperBound(acc, f, pu, pv, d1, d2);
            lower = lowerBound(acc, f, qu, qv, d1, d2);
            mean = meanWidth(lower, upper, acc.minX(), acc.maxX());
        } else {
            note = "feasible region allows a non-positive clock rate (min drift " + d1 + "): no bounds";
        }
        return new PairEstimate(acc.a(), acc.b(), Quality.ACCURATE, note, n1, n2, acc.x0(), acc.v0(),
                acc.minX(), acc.maxX(), f.dMin(), f.dMax(), c, d, lower, upper, mean, 0, 0, pu, pv, qu, qv, null);
    }

    /** b-time upper bound given a-time: the P vertices between the extreme lines' contacts. */
    private static MonotoneBound upperBound(PairAccumulator acc, FeasibleRegion f, long[] pu, long[] pv,
                                            double dMin, double dMax) {
        int[] range = f.upperEnvelopeRange();
        return hullBound(MonotoneBound.Kind.UPPER, acc, pu, pv, range, 1 + dMin, 1 + dMax);
    }

    /** b-time lower bound given a-time: the Q vertices between the extreme lines' contacts. */
    private static MonotoneBound lowerBound(PairAccumulator acc, FeasibleRegion f, long[] qu, long[] qv,
                                            double dMin, double dMax) {
        int[] range = f.lowerEnvelopeRange();
        return hullBound(MonotoneBound.Kind.LOWER, acc, qu, qv, range, 1 + dMax, 1 + dMin);
    }

    private static MonotoneBound hullBound(MonotoneBound.Kind kind, PairAccumulator acc, long[] u, long[] v,
                                           int[] range, double slopeLeft, double slopeRight) {
        int n = range[1] - range[0] + 1;
        long[] t = new long[n];
        long[] r = new long[n];
        for (int k = 0; k < n; k++) {
            int i = range[0] + k;
            t[k] = acc.x0() + u[i];
            r[k] = t[k] + acc.v0() + v[i];
        }
        return new MonotoneBound(kind, t, r, slopeLeft, slopeRight);
    }

    /** Mean of upper − lower over [from, to] (exact integral of a piecewise-linear function). */
    static double meanWidth(MonotoneBound lower, MonotoneBound upper, long from, long to) {
        if (to <= from) {
            return upper.deltaAt(from) - lower.deltaAt(from);
        }
        long[] xs = new long[lower.size() + upper.size() + 2];
        int n = 0;
        xs[n++] = from;
        xs[n++] = to;
        for (int k = 0; k < lower.size(); k++) {
            long x = lower.t(k);
            if (x > from && x < to) {
                xs[n++] = x;
            }
        }
        for (int k = 0; k < upper.size(); k++) {
            long x = upper.t(k);
            if (x > from && x < to) {
                xs[n++] = x;
            }
        }
        Arrays.sort(xs, 0, n);
        double area = 0;
        double prevW = upper.deltaAt(xs[0]) - lower.deltaAt(xs[0]);
        for (int k = 1; k < n; k++) {
            double w = upper.deltaAt(xs[k]) - lower.deltaAt(xs[k]);
            area += 0.5 * (prevW + w) * (double) (xs[k] - xs[k - 1]);
            prevW = w;
        }
        return area / (double) (to - from);
    }

    private static PairEstimate incomplete(PairAccumulator acc, FeasibleRegion f, long[] pu, long[] pv,
                                           long[] qu, long[] qv) {
        Slope zero = Slope.of(0, 1);
        double d;
        double c;
        if (f.dMin().compareTo(zero) > 0) {
            d = f.dMin().toDouble();
            c = f.cAtDMin();
        } else if (f.dMax().compareTo(zero) < 0) {
            d = f.dMax().toDouble();
            c = f.cAtDMax();
        } else {
            d = 0.0;
            c = 0.5 * (f.g(0.0) + f.h(0.0));
        }
        String which = !f.dMin().isFinite() && !f.dMax().isFinite() ? "both drift bounds"
                : !f.dMax().isFinite() ? "the maximum drift" : "the minimum drift";
        return new PairEstimate(acc.a(), acc.b(), Quality.INCOMPLETE,
                "feasible region unbounded in " + which + ": estimate is the feasible line with drift closest to 0; no two-sided bounds",
                acc.countAToB(), acc.countBToA(), acc.x0(), acc.v0(), acc.minX(), acc.maxX(),
                f.dMin(), f.dMax(), c, d, null, null, Double.NaN, 0, 0, pu, pv, qu, qv, null);
    }

    private static PairEstimate fallback(PairAccumulator acc, FeasibleRegion f, long[] pu, long[] pv,
                                         long[] qu, long[] qv) {
        double d = f.fallbackSlope().toDouble();
        double g = f.g(d);
        double h = f.h(d);
        double c = 0.5 * (g + h);
        double eps = 0.5 * (h - g);
        double tolerance = 1e-6;
        int violations = 0;
        for (int k = 0; k < pu.length; k++) {
            if (c + d * pu[k] - pv[k] > tolerance) {
                violations++;
            }
        }
        for (int k = 0; k < qu.length; k++) {
            if (qv[k] - (c + d * qu[k]) > tolerance) {
                violations++;
            }
        }
        return new PairEstimate(acc.a(), acc.b(), Quality.FALLBACK,
                "hulls cross (clocks not linear over the trace, or timestamps too coarse): "
                        + "minimum-violation line violates " + violations + " hull points by up to "
                        + String.format(java.util.Locale.ROOT, "%.1f", eps) + " ns; no strict bounds",
                acc.countAToB(), acc.countBToA(), acc.x0(), acc.v0(), acc.minX(), acc.maxX(),
                null, null, c, d, null, null, Double.NaN, violations, eps, pu, pv, qu, qv, null);
    }

    private static PairEstimate none(PairAccumulator acc, Quality q, String note,
                                     long[] pu, long[] pv, long[] qu, long[] qv) {
        return new PairEstimate(acc.a(), acc.b(), q, note, acc.countAToB(), acc.countBToA(),
                acc.x0(), acc.v0(), acc.minX(), acc.maxX(), null, null, Double.NaN, Double.NaN,
                null, null, Double.NaN, 0, 0, pu, pv, qu, qv, null);
    }
}
