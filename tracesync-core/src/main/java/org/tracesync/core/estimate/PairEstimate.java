package org.tracesync.core.estimate;

import org.tracesync.core.geometry.Slope;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MonotoneBound;

/**
 * Everything estimation found for one pair a &lt; b (DESIGN §1 stage 4), in parts: the
 * {@link PairGeometry} (counts, hulls), the feasible {@link DriftRange} (null when the hulls
 * cross or a direction is missing), the {@link EstimateLine} (null when there is none), the
 * {@link PairBounds} (null when there are none), the {@link FallbackStatistics} and the
 * {@link PiecewiseFit} (null unless the pair is piecewise).
 *
 * <h2>One quality rule</h2>
 * The quality class is not stored: {@link #quality()} derives it from the parts, for every
 * estimator alike, so a class can only be written together with what justifies it —
 * <ol>
 * <li>no messages: {@code absent}; messages one way only: {@code one-way};</li>
 * <li>a {@link PiecewiseFit} present (the hulls cross, pieces fit): {@code piecewise};</li>
 * <li>hulls crossing (no drift range): {@code fallback};</li>
 * <li>only clock rates ≤ 0 fit (max drift ≤ −1): {@code invalid};</li>
 * <li>a line that inverts messages (violations &gt; 0): {@code fallback};</li>
 * <li>drift range bounded with min drift &gt; −1: {@code accurate};</li>
 * <li>otherwise {@code incomplete}.</li>
 * </ol>
 * The constructor checks the parts each class needs (accurate: a line and two-sided bounds;
 * incomplete, fallback and piecewise: a line — for piecewise the first piece's, the transform
 * and the joined bounds being the fit's; one-way: no line, one side of bounds at most; absent and
 * invalid: none) and throws
 * IllegalStateException (a bug, never a user error) otherwise.
 */
public record PairEstimate(PairGeometry geometry, String note, DriftRange drift, EstimateLine line,
                           PairBounds bounds, FallbackStatistics fallback, PiecewiseFit piecewise) {

    public PairEstimate {
        if (fallback == null) {
            fallback = FallbackStatistics.NONE;
        }
        Quality q = rule(geometry, drift, fallback, piecewise);
        boolean needsLine = q == Quality.ACCURATE || q == Quality.INCOMPLETE || q == Quality.FALLBACK
                || q == Quality.PIECEWISE;
        if (needsLine != (line != null)) {
            throw new IllegalStateException("pair " + geometry.a() + "/" + geometry.b() + " is " + q
                    + (needsLine ? " but has no line" : " but has a line"));
        }
        if (q == Quality.ONE_WAY && bounds != null && bounds.lowerAToB() != null && bounds.upperAToB() != null) {
            throw new IllegalStateException("pair " + geometry.a() + "/" + geometry.b() + " is one-way with two-sided bounds");
        }
        if (q == Quality.ACCURATE && (bounds == null || bounds.lowerAToB() == null || bounds.upperAToB() == null
                || Double.isInfinite(bounds.lowerAToB().slopeLeft()) || Double.isInfinite(bounds.upperAToB().slopeRight()))) {
            throw new IllegalStateException("pair " + geometry.a() + "/" + geometry.b() + " is accurate without two-sided bounds");
        }
    }

    /** A pair estimated by one line (or none): no piecewise part. */
    public PairEstimate(PairGeometry geometry, String note, DriftRange drift, EstimateLine line,
                        PairBounds bounds, FallbackStatistics fallback) {
        this(geometry, note, drift, line, bounds, fallback, null);
    }

    /** The quality rule (see the class comment). */
    static Quality rule(PairGeometry g, DriftRange drift, FallbackStatistics fallback) {
        return rule(g, drift, fallback, null);
    }

    /** The quality rule with the piecewise part (see the class comment). */
    static Quality rule(PairGeometry g, DriftRange drift, FallbackStatistics fallback, PiecewiseFit piecewise) {
        if (g.countAToB() == 0 && g.countBToA() == 0) {
            return Quality.ABSENT;
        }
        if (g.countAToB() == 0 || g.countBToA() == 0) {
            return Quality.ONE_WAY;
        }
        if (piecewise != null) {
            return Quality.PIECEWISE;
        }
        if (drift == null) {
            return Quality.FALLBACK;
        }
        Slope minusOne = Slope.of(-1, 1);
        if (drift.max().compareTo(minusOne) <= 0) {
            return Quality.INVALID;
        }
        if (fallback != null && fallback.violations() > 0) {
            return Quality.FALLBACK;
        }
        if (drift.bounded() && drift.min().compareTo(minusOne) > 0) {
            return Quality.ACCURATE;
        }
        return Quality.INCOMPLETE;
    }

    public Quality quality() {
        return rule(geometry, drift, fallback, piecewise);
    }

    public int a() {
        return geometry.a();
    }

    public int b() {
        return geometry.b();
    }

    public long countAToB() {
        return geometry.countAToB();
    }

    public long countBToA() {
        return geometry.countBToA();
    }

    public long x0() {
        return geometry.x0();
    }

    public long v0() {
        return geometry.v0();
    }

    public long minX() {
        return geometry.minX();
    }

    public long maxX() {
        return geometry.maxX();
    }

    public long[] pu() {
        return geometry.pu();
    }

    public long[] pv() {
        return geometry.pv();
    }

    public long[] qu() {
        return geometry.qu();
    }

    public long[] qv() {
        return geometry.qv();
    }

    /** Min feasible drift (exact; −∞ when unbounded; null when undefined). */
    public Slope dMin() {
        return drift == null ? null : drift.min();
    }

    public Slope dMax() {
        return drift == null ? null : drift.max();
    }

    /** The line's intercept (NaN without a line). */
    public double c() {
        return line == null ? Double.NaN : line.c();
    }

    /** The line's drift (NaN without a line). */
    public double d() {
        return line == null ? Double.NaN : line.d();
    }

    public MonotoneBound lowerAToB() {
        return bounds == null ? null : bounds.lowerAToB();
    }

    public MonotoneBound upperAToB() {
        return bounds == null ? null : bounds.upperAToB();
    }

    public double meanAccuracy() {
        return bounds == null ? Double.NaN : bounds.meanAccuracy();
    }

    public int violations() {
        return fallback.violations();
    }

    public double maxViolation() {
        return fallback.maxViolation();
    }

    public boolean hasEstimate() {
        return line != null;
    }

    public boolean hasBounds() {
        return bounds != null && bounds.lowerAToB() != null && bounds.upperAToB() != null;
    }

    /** True when at least one side is bounded (a one-way pair bounds one side). */
    public boolean hasAnyBound() {
        return bounds != null && (bounds.lowerAToB() != null || bounds.upperAToB() != null);
    }

    /** a-time → b-time. */
    public ClockTransform transformAToB() {
        if (piecewise != null) {
            return piecewise.transform();
        }
        return ClockTransform.linear(geometry.x0(), (double) geometry.v0() + c(), d());
    }

    /** Returns a copy with another note. */
    public PairEstimate withNote(String newNote) {
        return new PairEstimate(geometry, newNote, drift, line, bounds, fallback, piecewise);
    }

    /**
     * A one-way pair without its one-sided bound, so that path composition leaves its nodes to a
     * later pass (the spans' one-way attachment, after their offset-only refit); any other pair
     * unchanged.
     */
    public PairEstimate withoutOneWayBound() {
        return quality() == Quality.ONE_WAY && bounds != null
                ? new PairEstimate(geometry, note, drift, line, null, fallback, piecewise) : this;
    }

    /** True for a pair path composition can place a node by: a line, or a one-way pair's one-sided bound. */
    public boolean placesNodes() {
        return hasEstimate() || (quality() == Quality.ONE_WAY && hasAnyBound());
    }

    /** Number of pieces of the transform (1 unless piecewise). */
    public int pieceCount() {
        return piecewise == null ? 1 : piecewise.pieces();
    }

    /**
     * Returns a copy with another line (other estimators, same geometry and bounds) and how many
     * messages it inverts: the quality follows from the rule (fallback when it inverts any).
     */
    public PairEstimate withLine(EstimateLine newLine, FallbackStatistics inverted, String newNote) {
        return new PairEstimate(geometry, newNote, drift, newLine, bounds, inverted);
    }

    /** True for a fallback whose hulls cross (no line avoids inversions), not a line chosen outside F. */
    public boolean hullsCross() {
        return quality() == Quality.FALLBACK && drift == null;
    }

    /** Feasible drift range as doubles for output: NaN where unknown. */
    public double driftMin() {
        return drift == null ? Double.NaN : drift.min().toDouble();
    }

    public double driftMax() {
        return drift == null ? Double.NaN : drift.max().toDouble();
    }
}
