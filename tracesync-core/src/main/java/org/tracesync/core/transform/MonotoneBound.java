package org.tracesync.core.transform;

import java.util.Arrays;

/**
 * A strictly increasing piecewise-linear bound function between two clocks: through the sample
 * points (t[k], r[k]) (longs, t strictly increasing, r increasing), extended linearly with
 * {@code slopeLeft} before the first point and {@code slopeRight} after the last.
 *
 * <p><b>Unbounded and flat ends.</b> An end slope may be +∞: the bound is unbounded beyond that
 * end (a lower bound −∞ before its first point, an upper bound +∞ after its last), which is how
 * an {@code incomplete} pair's bounds say "finite only here". An end slope may be 0: the bound is
 * flat beyond that end (the inverse of an unbounded end; and, since clocks are increasing, an
 * upper bound may be replaced by {@code min over x' ≥ x}, a lower one by {@code max over x' ≤ x},
 * which flattens the ends where only a non-positive clock rate would follow the hull). So a lower
 * bound has slopeLeft in (0, ∞] and slopeRight in [0, ∞), an upper bound the mirror; composing
 * two of a kind multiplies end slopes, never 0·∞.
 *
 * <p>Lower bounds are concave and upper bounds convex (DESIGN §3: U convex, L concave, and
 * inverses and compositions of increasing concave functions stay concave). That makes the
 * representation conservative under the only rounding it does: a lower bound sampled at integer
 * times with values rounded down, and extended with its true end slopes, never rises above the
 * true bound (a chord of a concave function lies below it); symmetrically for upper bounds.
 *
 * <p>Values are returned as {@code f(t) − t} (a small double) so that no absolute epoch value
 * ever goes through a double.
 */
public final class MonotoneBound {

    /** Which side of the truth this function bounds; decides the rounding direction. */
    public enum Kind { LOWER, UPPER }

    private final Kind kind;
    private final long[] t;
    private final long[] r;
    private final double slopeLeft;
    private final double slopeRight;

    public MonotoneBound(Kind kind, long[] t, long[] r, double slopeLeft, double slopeRight) {
        if (t.length == 0 || t.length != r.length) {
            throw new IllegalArgumentException("need matching, non-empty sample arrays");
        }
        boolean lower = kind == Kind.LOWER;
        double unboundedSide = lower ? slopeLeft : slopeRight;
        double flatSide = lower ? slopeRight : slopeLeft;
        if (!(unboundedSide > 0) || !(flatSide >= 0) || Double.isInfinite(flatSide)) {
            throw new IllegalArgumentException("end slopes of a " + kind + " bound: " + slopeLeft + ", " + slopeRight
                    + " (need " + (lower ? "left in (0, inf], right in [0, inf)" : "left in [0, inf), right in (0, inf]") + ")");
        }
        for (int k = 1; k < t.length; k++) {
            if (t[k] <= t[k - 1] || r[k] < r[k - 1]) {
                throw new IllegalArgumentException("samples must increase: (" + t[k - 1] + "," + r[k - 1]
                        + ") then (" + t[k] + "," + r[k] + ")");
            }
        }
        this.kind = kind;
        this.t = t.clone();
        this.r = r.clone();
        this.slopeLeft = slopeLeft;
        this.slopeRight = slopeRight;
    }

    /**
     * A bound through sampled values {@code f(t[k]) = t[k] + delta[k]} (delta a small double),
     * rounded outward to integers (down for a lower bound, up for an upper one). Where rounding
     * would make values step backwards, a lower-bound sample is dropped (a chord of a concave
     * function lies below it) and an upper-bound sample raised, as in {@link #compose}. For
     * samples of a concave lower / convex upper bound (the global program's extremes).
     */
    public static MonotoneBound rounded(Kind kind, long[] t, double[] delta, double slopeLeft, double slopeRight) {
        long[] ts = new long[t.length];
        long[] rs = new long[t.length];
        int m = 0;
        for (int k = 0; k < t.length; k++) {
            long value = t[k] + (long) (kind == Kind.LOWER ? Math.floor(delta[k]) : Math.ceil(delta[k]));
            if (kind == Kind.LOWER) {
                while (m > 0 && rs[m - 1] > value) {
                    m--;
                }
            } else if (m > 0 && value < rs[m - 1]) {
                value = rs[m - 1];
            }
            ts[m] = t[k];
            rs[m] = value;
            m++;
        }
        return new MonotoneBound(kind, Arrays.copyOf(ts, m), Arrays.copyOf(rs, m), slopeLeft, slopeRight);
    }

    public Kind kind() {
        return kind;
    }

    public int size() {
        return t.length;
    }

    public long t(int k) {
        return t[k];
    }

    public long r(int k) {
        return r[k];
    }

    public double slopeLeft() {
        return slopeLeft;
    }

    public double slopeRight() {
        return slopeRight;
    }

    /**
     * The index of the first sample whose time is above {@code x} (the number of samples at or
     * before x): a binary search, O(log samples).
     */
    public int samplesUpTo(long x) {
        int lo = 0;
        int hi = t.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (t[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Copies samples [from, to) into {@code ts} and {@code rs} from index {@code at}: one array copy
     * each, for callers that join or cut bounds (the piecewise fit's tens of thousands of samples).
     */
    public void copySamples(int from, int to, long[] ts, long[] rs, int at) {
        System.arraycopy(t, from, ts, at, to - from);
        System.arraycopy(r, from, rs, at, to - from);
    }

    /** {@code f(x) − x} at the long time x. */
    public double deltaAt(long x) {
        return deltaAt(x, 0.0);
    }

    /**
     * {@link #deltaAt(long)} at each of {@code xs[0, n)}, which ascend: the same doubles (the same
     * segment and the same arithmetic), the segments found by one sweep instead of a binary search
     * per time. O(n + samples). For the rows of a long piecewise trace (tens of thousands, each
     * read at both bound functions).
     */
    public double[] deltasAt(long[] xs, int n) {
        double[] out = new double[n];
        int last = t.length - 1;
        // at or before the first sample, then strictly inside, then at or after the last: three
        // runs of the ascending times, each by its own loop (no branch per time on where it lies)
        int i = 0;
        for (; i < n && !((double) (xs[i] - t[0]) > 0); i++) {
            out[i] = deltaAt(xs[i], 0.0);
        }
        int k = 0;
        for (; i < n && (double) (xs[i] - t[last]) < 0; i++) {
            long x = xs[i];
            // t[0] < x < t[last]: the segment starts at the last sample at or before x, as
            // deltaAt's search finds it (samples strictly increase)
            while (t[k + 1] <= x) {
                k++;
            }
            out[i] = inSegment(k, x, 0.0);
        }
        for (; i < n; i++) {
            out[i] = deltaAt(xs[i], 0.0);
        }
        return out;
    }

    /** {@code f(x + frac) − (x + frac)} for a long x and a small fractional/double offset. */
    public double deltaAt(long x, double frac) {
        int n = t.length;
        // position relative to the first and last sample
        double fromFirst = (double) (x - t[0]) + frac;
        if (fromFirst <= 0) {
            return fromFirst == 0 ? (double) (r[0] - t[0]) : (double) (r[0] - t[0]) + fromFirst * (slopeLeft - 1.0);
        }
        double fromLast = (double) (x - t[n - 1]) + frac;
        if (fromLast >= 0) {
            return fromLast == 0 ? (double) (r[n - 1] - t[n - 1])
                    : (double) (r[n - 1] - t[n - 1]) + fromLast * (slopeRight - 1.0);
        }
        // the point is x + frac: frac may span many samples (an offset between two clocks), so
        // find the segment of the whole part, not of x
        double whole = Math.floor(frac);
        long xi = x + (long) whole;
        double rem = frac - whole; // in [0, 1)
        int k = Arrays.binarySearch(t, xi);
        if (k < 0) {
            k = -k - 2; // segment start: t[k] < xi
        }
        k = Math.max(0, Math.min(k, n - 2));
        return inSegment(k, xi, rem);
    }

    /** {@code f(xi + rem) − (xi + rem)} on the segment from sample k to sample k + 1. */
    private double inSegment(int k, long xi, double rem) {
        long dt = t[k + 1] - t[k];
        long drMinusDt = (r[k + 1] - r[k]) - dt;
        double along = (double) (xi - t[k]) + rem;
        return (double) (r[k] - t[k]) + along * ((double) drMinusDt / (double) dt);
    }

    /** The inverse function (swap the axes): exact, no rounding. The kind flips. */
    public MonotoneBound inverse() {
        // r may repeat only if a segment is flat, which a strictly increasing bound never has
        return new MonotoneBound(kind == Kind.LOWER ? Kind.UPPER : Kind.LOWER, r, t,
                1.0 / slopeLeft, 1.0 / slopeRight);
    }

    /**
     * Time x at which {@code f(x) = y}, rounded to the nearest long (for choosing sample points;
     * the value there is then computed exactly, so the rounding only moves a sample).
     */
    long preimage(long y) {
        int n = r.length;
        if (y <= r[0]) {
            return slopeLeft == 0 ? t[0] : t[0] - Math.round((double) (r[0] - y) / slopeLeft);
        }
        if (y >= r[n - 1]) {
            return slopeRight == 0 ? t[n - 1] : t[n - 1] + Math.round((double) (y - r[n - 1]) / slopeRight);
        }
        int k = Arrays.binarySearch(r, y);
        if (k >= 0) {
            return t[k];
        }
        k = -k - 2;
        double frac = (double) (y - r[k]) / (double) (r[k + 1] - r[k]);
        return t[k] + Math.round(frac * (double) (t[k + 1] - t[k]));
    }

    /**
     * {@code outer ∘ inner}: for a node C whose time maps into B by {@code inner} and B into A by
     * {@code outer}. Both must be of the same kind. Samples at inner's points and at the
     * preimages of outer's points; values rounded outward (down for a lower bound, up for an upper
     * one) so the result stays a strict bound. Where either is unbounded, so is the result (no
     * sample there; its end slope is then +∞). Returns null when the result is finite nowhere.
     * O(n + m).
     */
    public static MonotoneBound compose(MonotoneBound outer, MonotoneBound inner) {
        if (outer.kind != inner.kind) {
            throw new IllegalArgumentException("cannot compose a " + outer.kind + " with an " + inner.kind + " bound");
        }
        long[] xs = new long[inner.t.length + 2 * outer.t.length];
        int n = 0;
        for (long x : inner.t) {
            xs[n++] = x;
        }
        // beside outer's unbounded end, also one ns toward the finite side, so that rounding the
        // preimage cannot leave the finite domain's first (last) point out
        boolean unboundedEnd = inner.kind == Kind.LOWER ? Double.isInfinite(outer.slopeLeft) : Double.isInfinite(outer.slopeRight);
        int away = inner.kind == Kind.LOWER ? 1 : -1;
        for (int k = 0; k < outer.t.length; k++) {
            long x = inner.preimage(outer.t[k]);
            xs[n++] = x;
            if (unboundedEnd && k == (inner.kind == Kind.LOWER ? 0 : outer.t.length - 1)) {
                xs[n++] = x + away;
            }
        }
        Arrays.sort(xs, 0, n);
        long[] ts = new long[n];
        long[] rs = new long[n];
        int m = 0;
        for (int k = 0; k < n; k++) {
            long x = xs[k];
            if (m > 0 && ts[m - 1] == x) {
                continue;
            }
            double d1 = inner.deltaAt(x);
            if (Double.isInfinite(d1)) {
                continue; // beyond an unbounded end of inner: the composition is unbounded there too
            }
            double d2 = outer.deltaAt(x, d1);
            double total = d1 + d2;
            if (Double.isInfinite(total)) {
                continue; // beyond an unbounded end of outer
            }
            long rounded = (long) (inner.kind == Kind.LOWER ? Math.floor(total) : Math.ceil(total));
            long value = x + rounded;
            // Rounding can make neighbouring samples step backwards by a nanosecond. Dropping a
            // lower-bound sample (a chord lies below a concave function) or raising an
            // upper-bound sample both keep the function a strict bound.
            if (inner.kind == Kind.LOWER) {
                while (m > 0 && rs[m - 1] > value) {
                    m--;
                }
            } else if (m > 0 && value < rs[m - 1]) {
                value = rs[m - 1];
            }
            ts[m] = x;
            rs[m] = value;
            m++;
        }
        if (m == 0) {
            return null; // finite nowhere: no bound on this side
        }
        return new MonotoneBound(inner.kind, Arrays.copyOf(ts, m), Arrays.copyOf(rs, m),
                outer.slopeLeft * inner.slopeLeft, outer.slopeRight * inner.slopeRight);
    }

    @Override
    public String toString() {
        return kind + "Bound" + Arrays.toString(t) + "->" + Arrays.toString(r);
    }
}
