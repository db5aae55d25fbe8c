package org.tracesync.core.estimate;

import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.TimeBuckets;
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
 * Incomplete pairs: drift 0 when it is feasible, else a drift strictly inside the feasible
 * interval next to its end nearest 0 (half-way to the next breakpoint of the corridor height φ),
 * and the middle of the feasible intercepts at that drift: a line strictly inside the corridor, so
 * no message sits at corrected latency 0 (the extreme line itself touches a hull point on each
 * side). Fallback pairs: the minimax line (see {@link FeasibleRegion#fallbackSlope}).
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

    /**
     * The locale of the numbers in estimates' notes: Locale.US, whose digits, signs and decimal
     * point are Locale.ROOT's (the notes' text is the same; NotesLocaleTest compares both),
     * but for which {@link java.util.Formatter} reads none of the JDK's locale data: the first
     * {@code %f} in ROOT loads it (DecimalFormatSymbols), about 10 ms on the piecewise fit's path
     * after the read.
     */
    static final java.util.Locale NOTES = java.util.Locale.US;

    private ConvexHullEstimator() {
    }

    /**
     * The pair's estimate: one line when the hulls admit one (accurate, incomplete, …); when they
     * cross, the piecewise fit of {@link PiecewiseEstimator} (quality piecewise), or the fallback
     * line when no piecewise fit is possible.
     */
    public static PairEstimate estimate(PairAccumulator acc) {
        return estimate(acc, 0, 0, "");
    }

    /**
     * The estimate with minimum latencies τ(a → b) and τ(b → a) (ns, ≥ 0): every a → b message is
     * taken as received τ(a → b) earlier on b's clock, every b → a message τ(b → a) earlier on
     * a's clock. Both are translations of the whole point cloud, so the hulls are translated, not
     * recomputed: O(p + q) more. When the hulls cross with τ but not without it, τ exceeds a real
     * latency of this pair (or its clocks are not linear): τ is dropped for the pair, and the note
     * says so (starting "tau ignored"), never silently trusted.
     *
     * @param source where τ came from, for the notes
     */
    public static PairEstimate estimate(PairAccumulator acc, long tauAToB, long tauBToA, String source) {
        return estimate(acc, tauAToB, tauBToA, source, PiecewiseEstimator.NO_SLEW_RATE_BOUND);
    }

    /**
     * {@link #estimate(PairAccumulator, long, long, String)} whose piecewise fit, if the hulls
     * cross, bounds a slew's rate from the line before by {@code maxSlewRate} (dimensionless;
     * {@link PiecewiseEstimator#NO_SLEW_RATE_BOUND} for none: the same estimate as without it).
     * See {@link PiecewiseEstimator#estimate(PairAccumulator, PairEstimate, double)}.
     */
    public static PairEstimate estimate(PairAccumulator acc, long tauAToB, long tauBToA, String source,
                                        double maxSlewRate) {
        if (tauAToB == 0 && tauBToA == 0) {
            if (!acc.deriveUnless(PART_CROSSES)) {
                // the hulls of some minutes of a long trace already cross, so the whole pair's
                // do: the piecewise fit builds the whole hulls from its blocks of buckets (far
                // fewer vertices than the sub-buckets'), then the same fallback line as below
                return PiecewiseEstimator.estimateCrossing(acc, maxSlewRate);
            }
            PairEstimate linear = estimateLinear(acc);
            // hulls that cross: pieces of the trace may still each admit a line
            return linear.quality() == Quality.FALLBACK && linear.hullsCross()
                    ? PiecewiseEstimator.estimate(acc, linear, maxSlewRate) : linear;
        }
        long[] pv = acc.aToB().vs().clone();
        for (int k = 0; k < pv.length; k++) {
            pv[k] = Math.subtractExact(pv[k], tauAToB);
        }
        long[] qu = acc.bToA().us().clone();
        long[] qv = acc.bToA().vs().clone();
        for (int k = 0; k < qu.length; k++) {
            qu[k] = Math.subtractExact(qu[k], tauBToA);
            qv[k] = Math.addExact(qv[k], tauBToA);
        }
        String with = String.format(java.util.Locale.ROOT, "minimum latency %d ns a to b, %d ns b to a (%s)",
                tauAToB, tauBToA, source);
        PairEstimate e = estimate(acc, acc.aToB().us(), pv, qu, qv, "; " + with);
        if (e.quality() == Quality.FALLBACK && acc.countAToB() > 0 && acc.countBToA() > 0) {
            PairEstimate plain = estimate(acc, 0, 0, "", maxSlewRate);
            return plain.withNote(plain.quality() != Quality.FALLBACK
                    ? "tau ignored: with " + with + " the hulls cross, so some message was faster than that; "
                            + "estimated without it; " + plain.note()
                    : plain.note() + "; tau not used (" + with + "): the hulls cross even without it");
        }
        return e;
    }

    /**
     * Stops the whole hulls' derivation of a long trace when the hulls of a run of its buckets
     * (the first minutes of either half, then longer runs: {@link TimeBuckets#addVerticesUnless})
     * cross: every message of the run is a message of the pair, so the pair's feasible region lies
     * inside the run's, which is empty. A class, not a lambda: nothing to link on the path after
     * the read.
     */
    static final TimeBuckets.PartStop PART_CROSSES = new PartCrosses();

    private static final class PartCrosses implements TimeBuckets.PartStop {
        @Override
        public boolean stop(HalfHull p, HalfHull q) {
            return !p.isEmpty() && !q.isEmpty() && new FeasibleRegion(p.us(), p.vs(), q.us(), q.vs()).isEmpty();
        }
    }

    /** One line for the whole pair without τ (fallback when the hulls cross). */
    static PairEstimate estimateLinear(PairAccumulator acc) {
        return estimate(acc, acc.aToB().us(), acc.aToB().vs(), acc.bToA().us(), acc.bToA().vs(), "");
    }

    /**
     * The lower and upper bounds (a → b) of {@link #estimateLinear}{@code (acc)} when it is
     * {@code accurate}, else null: the same functions, without the rest of an estimate (its line,
     * mean bound width, geometry). For the piecewise fit's bound pieces (thousands on a long
     * trace), which read nothing else. The conditions are those of estimateShifted's last branch,
     * the only one whose estimate is accurate.
     */
    static MonotoneBound[] accurateBounds(PairAccumulator acc) {
        if (acc.countAToB() == 0 || acc.countBToA() == 0) {
            return null;
        }
        long[] pu = acc.aToB().us();
        long[] pv = acc.aToB().vs();
        long[] qu = acc.bToA().us();
        long[] qv = acc.bToA().vs();
        FeasibleRegion f = new FeasibleRegion(pu, pv, qu, qv);
        Slope minusOne = Slope.of(-1, 1);
        if (f.isEmpty() || f.dMax().compareTo(minusOne) <= 0 || !f.isBounded() || f.dMin().compareTo(minusOne) <= 0) {
            return null;
        }
        double d1 = f.dMin().toDouble();
        double d2 = f.dMax().toDouble();
        return new MonotoneBound[] {lowerBound(acc, f, qu, qv, d1, d2), upperBound(acc, f, pu, pv, d1, d2)};
    }

    private static PairEstimate estimate(PairAccumulator acc, long[] pu, long[] pv, long[] qu, long[] qv, String tauNote) {
        PairEstimate e = estimateShifted(acc, pu, pv, qu, qv);
        return tauNote.isEmpty() ? e : e.withNote(e.note() + tauNote);
    }

    private static PairEstimate estimateShifted(PairAccumulator acc, long[] pu, long[] pv, long[] qu, long[] qv) {
        long n1 = acc.countAToB();
        long n2 = acc.countBToA();
        if (n1 == 0 && n2 == 0) {
            return none(acc, Quality.ABSENT, "no messages", pu, pv, qu, qv);
        }
        if (n1 == 0 || n2 == 0) {
            return oneWay(acc, pu, pv, qu, qv);
        }
        FeasibleRegion f = new FeasibleRegion(pu, pv, qu, qv);
        if (f.isEmpty()) {
            return fallback(acc, f, pu, pv, qu, qv);
        }
        Slope minusOne = Slope.of(-1, 1);
        if (f.dMax().compareTo(minusOne) <= 0) {
            return new PairEstimate(geometry(acc, pu, pv, qu, qv),
                    "the feasible region only allows a non-positive clock rate (max drift "
                            + f.dMax().toDouble() + "): not a clock",
                    new DriftRange(f.dMin(), f.dMax()), null, null, null);
        }
        if (!f.isBounded()) {
            return incomplete(acc, f, pu, pv, qu, qv, null);
        }
        if (f.dMin().compareTo(minusOne) <= 0) {
            // bounded, but a clock rate ≤ 0 fits: no increasing bound functions, so no bounds to
            // compose; not "accurate" (a class must match what is written)
            return incomplete(acc, f, pu, pv, qu, qv, "the feasible region allows a non-positive clock rate (min drift "
                    + f.dMin().toDouble() + "), so the messages do not bound the drift below");
        }
        double d1 = f.dMin().toDouble();
        double d2 = f.dMax().toDouble();
        double c1 = f.cAtDMin();
        double c2 = f.cAtDMax();
        double w1 = Math.sqrt(1 + (1 + d1) * (1 + d1));
        double w2 = Math.sqrt(1 + (1 + d2) * (1 + d2));
        double d = (w2 * d1 + w1 * d2) / (w1 + w2);
        double c = (w2 * c1 + w1 * c2) / (w1 + w2);
        MonotoneBound upper = upperBound(acc, f, pu, pv, d1, d2);
        MonotoneBound lower = lowerBound(acc, f, qu, qv, d1, d2);
        double mean = meanWidth(lower, upper, acc.minX(), acc.maxX());
        String note = "feasible region bounded";
        return new PairEstimate(geometry(acc, pu, pv, qu, qv), note, new DriftRange(f.dMin(), f.dMax()),
                new EstimateLine(c, d), new PairBounds(lower, upper, mean), null);
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
        // from, the breakpoints of both functions strictly inside (from, to), to: ascending. Each
        // function's breakpoints ascend, so one merge of the two runs orders them (the same
        // sequence a sort gives, equal times side by side); no sort for the JIT to compile into
        // the piecewise fit's bound pieces, which call this once each
        long[] xs = new long[lower.size() + upper.size() + 2];
        int n = 0;
        xs[n++] = from;
        int i = 0;
        int j = 0;
        while (i < lower.size() && lower.t(i) <= from) {
            i++;
        }
        while (j < upper.size() && upper.t(j) <= from) {
            j++;
        }
        while (true) {
            long a = i < lower.size() ? lower.t(i) : to;
            long b = j < upper.size() ? upper.t(j) : to;
            long x = Math.min(a, b);
            if (x >= to) {
                break;
            }
            xs[n++] = x;
            if (a <= b) {
                i++;
            } else {
                j++;
            }
        }
        xs[n++] = to;
        double[] up = upper.deltasAt(xs, n);
        double[] down = lower.deltasAt(xs, n);
        double area = 0;
        double prevW = up[0] - down[0];
        for (int k = 1; k < n; k++) {
            double w = up[k] - down[k];
            area += 0.5 * (prevW + w) * (double) (xs[k] - xs[k - 1]);
            prevW = w;
        }
        return area / (double) (to - from);
    }

    /** @param reason why the drift is unbounded, when it is not F itself (null: F is unbounded) */
    private static PairEstimate incomplete(PairAccumulator acc, FeasibleRegion f, long[] pu, long[] pv,
                                           long[] qu, long[] qv, String reason) {
        Slope zero = Slope.of(0, 1);
        double d;
        String where;
        if (f.dMin().compareTo(zero) >= 0) {
            d = inside(f.dMin(), f.breakpointAbove(f.dMin()), +1);
            where = "drift above the minimum " + f.dMin().toDouble();
        } else if (f.dMax().compareTo(zero) <= 0) {
            d = inside(f.dMax(), f.breakpointBelow(f.dMax()), -1);
            if (!(d > -1)) { // keep a positive clock rate: between −1 and the maximum
                d = 0.5 * (f.dMax().toDouble() + Math.max(-1.0, f.dMin().isFinite() ? f.dMin().toDouble() : -1.0));
            }
            where = "drift below the maximum " + f.dMax().toDouble();
        } else {
            d = 0.0;
            where = "drift 0";
        }
        double c = 0.5 * (f.g(d) + f.h(d));
        boolean strict = f.phi(d) > 0;
        // bounds where finite: +∞ slopes mark the unbounded ends, 0 the flat ones (rates ≤ 0)
        double dLo = f.dMin().isFinite() ? f.dMin().toDouble() : Double.NEGATIVE_INFINITY;
        double dHi = f.dMax().isFinite() ? f.dMax().toDouble() : Double.POSITIVE_INFINITY;
        double flat = Math.max(0.0, 1 + dLo);
        double steep = 1 + dHi;
        MonotoneBound upper = hullBound(MonotoneBound.Kind.UPPER, acc, pu, pv, f.upperEnvelopeRange(), flat, steep);
        MonotoneBound lower = hullBound(MonotoneBound.Kind.LOWER, acc, qu, qv, f.lowerEnvelopeRange(), steep, flat);
        String which = !f.dMin().isFinite() && !f.dMax().isFinite() ? "both drift bounds"
                : !f.dMax().isFinite() ? "the maximum drift" : "the minimum drift";
        return new PairEstimate(geometry(acc, pu, pv, qu, qv),
                (reason != null ? reason : "feasible region unbounded in " + which) + ": estimate is the middle of the feasible intercepts at "
                        + where + (strict ? " (strictly inside the corridor)" : " (the corridor has no interior: the line touches it)")
                        + "; bounds only where finite",
                new DriftRange(f.dMin(), f.dMax()), new EstimateLine(c, d), new PairBounds(lower, upper, Double.NaN), null);
    }

    /**
     * A drift strictly inside the feasible interval next to its finite end {@code edge} (the end
     * nearest 0): half-way to the next breakpoint of φ on the feasible side (φ grows linearly from
     * 0 until there, so the middle has a positive corridor), or, when φ has no further breakpoint,
     * the edge plus its own magnitude (1e-6 when it is 0) on the feasible side.
     */
    private static double inside(Slope edge, Slope next, int side) {
        double e = edge.toDouble();
        if (next != null && next.isFinite()) {
            return 0.5 * (e + next.toDouble());
        }
        return e + side * (e == 0 ? 1e-6 : Math.abs(e));
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
        return new PairEstimate(geometry(acc, pu, pv, qu, qv),
                "hulls cross (clocks not linear over the trace, or timestamps too coarse): "
                        + "minimax line (smallest largest violation) violates " + violations + " hull points by up to "
                        + String.format(NOTES, "%.1f", eps) + " ns; no strict bounds",
                null, new EstimateLine(c, d), null, new FallbackStatistics(violations, eps));
    }

    /**
     * Messages one way only. Under the linear model (each clock linear with a positive rate over
     * the pair's range) a → b messages only say that b's time at a's send instant is at most the
     * receive time: every feasible line lies below the points, so the tightest upper bound on b's
     * time given a's is the lower convex hull of the points inside their range (the half hull the
     * accumulator keeps), flat before it (the rate may be as small as it likes, but positive: no
     * line below the points rises above the lowest later point), and +∞ after the last vertex (the
     * rate may be as large as it likes). Vertices before the lowest one are dropped (the bound is
     * non-decreasing: {@code min over x' ≥ x}). The lower side is absent. Symmetrically for b → a
     * messages (a lower bound from the upper hull, +∞ before, flat after).
     *
     * <p>No estimate line: the messages do not estimate the offset. The note states the smallest
     * correction that removes every violation between the two alone, offset only — the a → b
     * offset {@code min(0, min v)} for a → b messages, or {@code max(0, max v)} for b → a messages
     * (v = y − x, after τ); path reduction applies that rule to the node against every node placed
     * before it ({@code PathReduction}), and the global program does not take it for an estimate.
     * O(h).
     */
    private static PairEstimate oneWay(PairAccumulator acc, long[] pu, long[] pv, long[] qu, long[] qv) {
        boolean aToB = pu.length > 0;
        long[] u = aToB ? pu : qu;
        long[] v = aToB ? pv : qv;
        int n = u.length;
        // the extreme y on the hull (y = x0 + u + v0 + v, compared as u + v: exact longs); the
        // bound is non-decreasing, so the upper bound starts at the last lowest vertex, the lower
        // bound ends at the first highest one
        int from = 0;
        int to = n - 1;
        if (aToB) {
            for (int k = 1; k < n; k++) {
                if (u[k] + v[k] <= u[from] + v[from]) {
                    from = k;
                }
            }
        } else {
            to = 0;
            for (int k = 1; k < n; k++) {
                if (u[k] + v[k] > u[to] + v[to]) {
                    to = k;
                }
            }
        }
        long extremeV = v[0];
        for (int k = 1; k < n; k++) {
            extremeV = aToB ? Math.min(extremeV, v[k]) : Math.max(extremeV, v[k]);
        }
        double c = aToB ? Math.min(0.0, (double) (acc.v0() + extremeV)) - acc.v0()
                : Math.max(0.0, (double) (acc.v0() + extremeV)) - acc.v0();
        MonotoneBound bound = aToB
                ? hullBound(MonotoneBound.Kind.UPPER, acc, u, v, new int[] {from, to}, 0.0, Double.POSITIVE_INFINITY)
                : hullBound(MonotoneBound.Kind.LOWER, acc, u, v, new int[] {from, to}, Double.POSITIVE_INFINITY, 0.0);
        double shift = c + acc.v0(); // a → b offset, ns
        String note = "messages in one direction only (" + (aToB ? "a to b" : "b to a") + "): one-sided bound ("
                + (aToB ? "b no later than" : "b no earlier than") + " the messages allow, under linear clocks), no estimate;"
                + " between the two alone: " + (shift == 0 ? "no correction (nothing is violated)"
                        : String.format(java.util.Locale.ROOT, "the smallest correction that removes every violation, "
                                + "b shifted by %+.0f ns relative to a, drift 0", -shift));
        return new PairEstimate(geometry(acc, pu, pv, qu, qv), note, null, null,
                new PairBounds(aToB ? null : bound, aToB ? bound : null, Double.NaN), null);
    }

    private static PairEstimate none(PairAccumulator acc, Quality q, String note,
                                     long[] pu, long[] pv, long[] qu, long[] qv) {
        return new PairEstimate(geometry(acc, pu, pv, qu, qv), note, null, null, null, null);
    }

    private static PairGeometry geometry(PairAccumulator acc, long[] pu, long[] pv, long[] qu, long[] qv) {
        return new PairGeometry(acc.a(), acc.b(), acc.countAToB(), acc.countBToA(), acc.x0(), acc.v0(),
                acc.minX(), acc.maxX(), pu, pv, qu, qv);
    }
}
