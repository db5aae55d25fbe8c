package org.tracesync.core.estimate;

import org.tracesync.core.geometry.Slope;

/**
 * The feasible region F of one node pair (DESIGN §3): every line {@code v = c + d·u} that lies on
 * or below every point of the lower hull P (messages a → b) and on or above every point of the
 * upper hull Q (messages b → a).
 *
 * <h2>How it is computed (O(p + q), exact)</h2>
 * For a slope d, the line may rise at most to {@code g(d) = min_P (v − u·d)} and must rise at
 * least to {@code h(d) = max_Q (v − u·d)}. g is concave and piecewise linear with a breakpoint at
 * each edge slope of P; h is convex with a breakpoint at each edge slope of Q. So
 * {@code φ = g − h} is concave, and the feasible slopes {@code φ(d) ≥ 0} form one interval
 * [d_min, d_max]. We walk the merged breakpoint sequence from d = −∞ to +∞ (the active P vertex
 * moves right, the active Q vertex left); on each piece φ is {@code A − B·d} with A, B exact longs
 * (differences of one P and one Q vertex), so its root A/B is an exact {@link Slope} — the slope
 * of the line through those two vertices — and every comparison is a 128-bit cross product.
 *
 * <p>d_max is a root on a piece with B &gt; 0 (the line through a P vertex right of a Q vertex),
 * d_min a root with B &lt; 0, or ±∞ when no such vertex pair bounds them.
 *
 * <p>When no piece is feasible, F is empty (the hulls cross): {@link #fallbackSlope()} is the slope
 * maximizing φ, at a breakpoint. The line at that slope, shifted to the middle of [h, g], is the
 * <em>minimax</em> line: of all lines, the one whose largest violation (a message sent after it
 * was received, by how much) is smallest, namely −φ/2. It is not Ashton's criterion (the
 * smallest sum of violations over lines through a point of each hull); it is kept because its
 * figure is a guarantee a user can act on: every message is within max_violation ns of being
 * consistent, so widening every latency by that much makes the corridor non-empty, whereas a
 * smallest-sum line can leave one message wrong by an arbitrary amount. O(p + q), exact slope.
 */
public final class FeasibleRegion {

    private final long[] pu;
    private final long[] pv;
    private final long[] qu;
    private final long[] qv;
    private final Slope[] pSlopes; // edge slopes of P, increasing
    private final Slope[] qSlopes; // edge slopes of Q, decreasing

    private boolean empty = true;
    private Slope dMin = Slope.NEGATIVE_INFINITY;
    private Slope dMax = Slope.POSITIVE_INFINITY;
    private int dMinP = -1;
    private int dMinQ = -1;
    private int dMaxP = -1;
    private int dMaxQ = -1;
    private Slope fallbackSlope;
    private double fallbackPhi = Double.NEGATIVE_INFINITY;

    /**
     * @param pu, pv vertices of the lower hull of the points above the line (u increasing)
     * @param qu, qv vertices of the upper hull of the points below the line (u increasing)
     */
    public FeasibleRegion(long[] pu, long[] pv, long[] qu, long[] qv) {
        if (pu.length == 0 || qu.length == 0) {
            throw new IllegalArgumentException("a feasible region needs points on both sides");
        }
        this.pu = pu;
        this.pv = pv;
        this.qu = qu;
        this.qv = qv;
        this.pSlopes = edgeSlopes(pu, pv);
        this.qSlopes = edgeSlopes(qu, qv);
        walk();
    }

    private static Slope[] edgeSlopes(long[] u, long[] v) {
        Slope[] s = new Slope[Math.max(0, u.length - 1)];
        for (int k = 0; k < s.length; k++) {
            s[k] = Slope.between(u[k], v[k], u[k + 1], v[k + 1]);
        }
        return s;
    }

    // The walk with each piece's feasible part written out in it (one method, not two): it stays
    // above the JIT's size for inlining a hot call (FreqInlineSize, 325 bytes of bytecode), so it
    // is compiled once, on its own, and called by every compiled caller that builds a region. As two
    // smaller methods it was inlined into each (the piecewise fit's growth step, its windows, its
    // bound pieces): 4.4 KB of inlined code and 0.2–0.6 s of C2 time for the growth step alone on
    // a wandering 24 h trace, depending on which compilation came first.
    private void walk() {
        int i = 0;
        int j = qu.length - 1;
        Slope left = Slope.NEGATIVE_INFINITY;
        while (true) {
            Slope nextP = i < pSlopes.length ? pSlopes[i] : Slope.POSITIVE_INFINITY;
            Slope nextQ = j > 0 ? qSlopes[j - 1] : Slope.POSITIVE_INFINITY;
            Slope right = nextP.compareTo(nextQ) <= 0 ? nextP : nextQ;
            // the feasible part of the piece [left, right] where P vertex i and Q vertex j are
            // active: the slopes d in it with pv[i] − qv[j] ≥ (pu[i] − qu[j])·d, i.e. a ≥ b·d
            long a = Math.subtractExact(pv[i], qv[j]);
            long b = Math.subtractExact(pu[i], qu[j]);
            Slope lo = left;
            Slope hi = right;
            boolean some = true; // the part is not empty
            if (b > 0) {
                Slope root = Slope.of(a, b);
                if (root.compareTo(right) < 0) {
                    hi = root;
                }
            } else if (b < 0) {
                Slope root = Slope.of(a, b);
                if (root.compareTo(left) > 0) {
                    lo = root;
                }
            } else {
                some = a >= 0;
            }
            if (some && lo.compareTo(hi) <= 0) {
                if (empty) {
                    empty = false;
                    dMin = lo;
                    if (lo.isFinite()) {
                        dMinP = i;
                        dMinQ = j;
                    }
                }
                dMax = hi;
                if (hi.isFinite()) {
                    dMaxP = i;
                    dMaxQ = j;
                } else {
                    dMaxP = -1;
                    dMaxQ = -1;
                }
            }
            if (!right.isFinite()) {
                break;
            }
            // φ at the breakpoint, for the fallback (max of a concave function is at a breakpoint)
            double phi = phiOnPiece(i, j, right.toDouble());
            if (phi > fallbackPhi) {
                fallbackPhi = phi;
                fallbackSlope = right;
            }
            if (nextP.compareTo(right) == 0 && i < pSlopes.length) {
                i++;
            }
            if (nextQ.compareTo(right) == 0 && j > 0) {
                j--;
            }
            left = right;
        }
        if (fallbackSlope == null) {
            // single piece without breakpoints and no feasible slope: φ is a negative constant
            fallbackSlope = Slope.of(0, 1);
            fallbackPhi = phiOnPiece(i, j, 0.0);
        }
    }

    private double phiOnPiece(int i, int j, double d) {
        return (double) (pv[i] - qv[j]) - (double) (pu[i] - qu[j]) * d;
    }

    /** True when no line separates the two hulls (they cross). */
    public boolean isEmpty() {
        return empty;
    }

    /** Smallest feasible slope (may be −∞); undefined when empty. */
    public Slope dMin() {
        return dMin;
    }

    /** Largest feasible slope (may be +∞); undefined when empty. */
    public Slope dMax() {
        return dMax;
    }

    /** True when both slope bounds are finite (F bounded). */
    public boolean isBounded() {
        return !empty && dMin.isFinite() && dMax.isFinite();
    }

    /** Intercept of the extreme line of slope d_min (it passes through a P and a Q vertex). */
    public double cAtDMin() {
        return pv[dMinP] - dMin.toDouble() * pu[dMinP];
    }

    /** Intercept of the extreme line of slope d_max. */
    public double cAtDMax() {
        return pv[dMaxP] - dMax.toDouble() * pu[dMaxP];
    }

    /** {@code g(d) = min over P of (v − u·d)}: the highest intercept allowed at slope d. O(p). */
    public double g(double d) {
        double m = Double.POSITIVE_INFINITY;
        for (int k = 0; k < pu.length; k++) {
            m = Math.min(m, pv[k] - pu[k] * d);
        }
        return m;
    }

    /** {@code h(d) = max over Q of (v − u·d)}: the lowest intercept allowed at slope d. O(q). */
    public double h(double d) {
        double m = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < qu.length; k++) {
            m = Math.max(m, qv[k] - qu[k] * d);
        }
        return m;
    }

    /** {@code φ(d) = g(d) − h(d)}: the height of the feasible intercept interval at slope d. O(p + q). */
    public double phi(double d) {
        return g(d) - h(d);
    }

    /** The smallest edge slope of P or Q strictly above s: where φ next bends; null if none. */
    Slope breakpointAbove(Slope s) {
        Slope best = null;
        for (Slope[] edges : new Slope[][] {pSlopes, qSlopes}) {
            for (Slope e : edges) {
                if (e.compareTo(s) > 0 && (best == null || e.compareTo(best) < 0)) {
                    best = e;
                }
            }
        }
        return best;
    }

    /** The largest edge slope of P or Q strictly below s; null if none. */
    Slope breakpointBelow(Slope s) {
        Slope best = null;
        for (Slope[] edges : new Slope[][] {pSlopes, qSlopes}) {
            for (Slope e : edges) {
                if (e.compareTo(s) < 0 && (best == null || e.compareTo(best) > 0)) {
                    best = e;
                }
            }
        }
        return best;
    }

    /** Slope of the minimax line (meaningful when empty): the one whose largest violation is smallest. */
    public Slope fallbackSlope() {
        return fallbackSlope;
    }

    /** d_min, or −1 when d_min is below it: slopes ≤ −1 are not clock rates (a clock increases). */
    private Slope rateFloor() {
        Slope minusOne = Slope.of(-1, 1);
        return dMin.compareTo(minusOne) < 0 ? minusOne : dMin;
    }

    /**
     * Index range [first, last] of the P vertices on which the upper envelope U follows the hull:
     * from the last P vertex on the d_min line to the first on the d_max line (to the last vertex
     * when d_max is +∞). Where d_min ≤ −1, from the first vertex whose next edge has a slope above
     * −1: left of it the increasing envelope min over x' ≥ x of U is flat.
     */
    int[] upperEnvelopeRange() {
        Slope floor = rateFloor();
        int first = pSlopes.length;
        for (int k = 0; k < pSlopes.length; k++) {
            if (pSlopes[k].compareTo(floor) > 0) {
                first = k;
                break;
            }
        }
        int last = pSlopes.length;
        for (int k = 0; k < pSlopes.length; k++) {
            if (pSlopes[k].compareTo(dMax) >= 0) {
                last = k;
                break;
            }
        }
        return new int[] {first, Math.max(first, last)};
    }

    /**
     * Index range [first, last] of the Q vertices on which the lower envelope L follows the hull:
     * from the last Q vertex on the d_max line (the first vertex when d_max is +∞) to the first on
     * the d_min line, or on an edge of slope ≤ −1 (right of it the increasing envelope is flat).
     */
    int[] lowerEnvelopeRange() {
        Slope floor = rateFloor();
        int first = qSlopes.length;
        for (int k = 0; k < qSlopes.length; k++) {
            if (qSlopes[k].compareTo(dMax) < 0) {
                first = k;
                break;
            }
        }
        int last = qSlopes.length;
        for (int k = 0; k < qSlopes.length; k++) {
            if (qSlopes[k].compareTo(floor) <= 0) {
                last = k;
                break;
            }
        }
        return new int[] {first, Math.max(first, last)};
    }

    long[] pu() {
        return pu;
    }

    long[] pv() {
        return pv;
    }

    long[] qu() {
        return qu;
    }

    long[] qv() {
        return qv;
    }
}
