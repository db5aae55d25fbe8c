package org.tracesync.core.transform;

import java.util.ArrayList;
import java.util.List;

/**
 * A node's accuracy bounds around its transform (DESIGN §7): at local time t the reference time
 * lies in {@code [ref(t) − minus(t), ref(t) + plus(t)]}. The one type every producer writes (pair
 * and path composition, the global program, re-centring) and every reader reads (result file,
 * evaluation, truth scores, summary, report). It owns the one rule for reading rows:
 *
 * <ul>
 * <li>Rows {@code [t, minus, plus]}, t strictly increasing (integer local ns).</li>
 * <li>Between two rows, minus and plus are interpolated linearly in t.</li>
 * <li>Before the first and after the last row they are extrapolated linearly from the two end
 *     rows. {@link #of} writes one <em>end row</em> on each side, one data span (at least 1 s)
 *     beyond the bound functions' last breakpoint, on the bound functions' extreme slopes (the
 *     extreme feasible drifts), so this extrapolation is the true, widening bound far outside the
 *     data, not the continuation of an inner hull edge.</li>
 * <li>A side may be absent: {@code +∞} here, {@code null} in the result file (a one-way pair
 *     bounds only one side; an incomplete one only where the feasible region is bounded). A side
 *     is unbounded between two rows when either row lacks it, and beyond an end row that lacks it.</li>
 * <li>A single row (only from hand-written files) is constant; no rows: bounds unknown.</li>
 * <li>Reserved for clock steps (the long-traces work): a discontinuity at t is a row pair
 *     {@code (t − 1, t)}; since timestamps are integers, linear interpolation between them is exact
 *     at every instant, and the format needs no new rule.</li>
 * </ul>
 *
 * <p>Cost: O(log rows) per lookup; immutable. Exactness: rows are doubles (ns, small: corrections
 * relative to the transform); t is never converted to a double except as a difference.
 */
public final class NodeBounds {

    /** No bounds (reference nodes, unsynchronized nodes, unbounded pairs on the path). */
    public static final NodeBounds NONE = new NodeBounds(new long[0], new double[0], new double[0]);

    /** Minimum distance of the end rows from the last breakpoint, ns. */
    static final long MIN_END_SPAN = 1_000_000_000L;

    private final long[] t;
    private final double[] minus;
    private final double[] plus;

    private NodeBounds(long[] t, double[] minus, double[] plus) {
        this.t = t;
        this.minus = minus;
        this.plus = plus;
    }

    /**
     * The factory: bounds of a node whose reference time lies between {@code lower(t)} and
     * {@code upper(t)} (absolute bound functions, local → reference), written around
     * {@code transform}. Rows at every breakpoint of the two functions and every knot of the
     * transform, plus one end row on each side (see the class comment). Either function may be
     * null (that side is unbounded); both null gives {@link #NONE}. O(breakpoints · log).
     */
    public static NodeBounds of(ClockTransform transform, MonotoneBound lower, MonotoneBound upper) {
        if (lower == null && upper == null) {
            return NONE;
        }
        // the rows' times: both functions' breakpoints (each ascending), the knots and the two end
        // rows, sorted and without repeats (primitive longs: a piecewise pair has tens of
        // thousands of breakpoints, which a TreeSet of boxed Longs sorted at several times the cost)
        int breakpoints = (lower == null ? 0 : lower.size()) + (upper == null ? 0 : upper.size());
        long[] ts = new long[breakpoints + 2 * transform.segments().size() + 2];
        int n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (MonotoneBound f : new MonotoneBound[] {lower, upper}) {
            if (f != null) {
                for (int k = 0; k < f.size(); k++) {
                    long x = f.t(k);
                    ts[n++] = x;
                    first = Math.min(first, x);
                    last = Math.max(last, x);
                }
            }
        }
        n = addKnots(ts, n, transform, first, last);
        long span = Math.max(last - first, MIN_END_SPAN);
        ts[n++] = saturatedAdd(first, -span);
        ts[n++] = saturatedAdd(last, span);
        n = sortedDistinct(ts, n);
        long[] rt = new long[n];
        double[] rm = new double[n];
        double[] rp = new double[n];
        int k = 0;
        // the bound functions at every row, by one sweep each (the rows ascend)
        double[] down = lower == null ? null : lower.deltasAt(ts, n);
        double[] up = upper == null ? null : upper.deltasAt(ts, n);
        // the rows ascend, so the segment of each is the previous row's or a later one: one sweep
        // over the segments (the same segment as ClockTransform.segmentAt), not a search per row
        List<LinearSegment> segments = transform.segments();
        int seg = 0;
        for (int i = 0; i < n; i++) {
            long x = ts[i];
            while (seg + 1 < segments.size() && (segments.get(seg + 1).from() == null || segments.get(seg + 1).from() <= x)) {
                seg++;
            }
            double corr = segments.get(seg).correction(x);
            rt[k] = x;
            // A piecewise estimate (a bridge between two pieces) can leave the pieces' bounds by a
            // little: widening a bound to reach the estimate keeps it a bound, and max(0, ·) of
            // values interpolated between rows is conservative (convex).
            rm[k] = lower == null ? Double.POSITIVE_INFINITY : Math.max(0.0, corr - down[i]);
            rp[k] = upper == null ? Double.POSITIVE_INFINITY : Math.max(0.0, up[i] - corr);
            k++;
        }
        return new NodeBounds(rt, rm, rp);
    }

    /**
     * Rows as read from a result file (or written by hand): sorted, strictly increasing t; NaN
     * (a null in the file) means that side is absent. No end rows are added: the file's are used.
     */
    public static NodeBounds ofRows(List<BoundRow> rows) {
        int n = rows.size();
        long[] rt = new long[n];
        double[] rm = new double[n];
        double[] rp = new double[n];
        for (int i = 0; i < n; i++) {
            BoundRow r = rows.get(i);
            if (i > 0 && r.t() <= rt[i - 1]) {
                throw new IllegalArgumentException("bound rows must have strictly increasing t: " + rt[i - 1]
                        + " then " + r.t());
            }
            rt[i] = r.t();
            rm[i] = Double.isNaN(r.minus()) ? Double.POSITIVE_INFINITY : r.minus();
            rp[i] = Double.isNaN(r.plus()) ? Double.POSITIVE_INFINITY : r.plus();
        }
        return new NodeBounds(rt, rm, rp);
    }

    /**
     * The same absolute intervals written around another transform: at every row (and every knot
     * of either transform) {@code [from(t) − minus, from(t) + plus] = [to(t) − minus', to(t) + plus']}.
     * Since both transforms are linear between their knots, interpolation between rows and
     * extrapolation beyond the end rows give the same intervals as before. O(rows).
     */
    public NodeBounds recentred(ClockTransform from, ClockTransform to) {
        if (isEmpty()) {
            return NONE;
        }
        long[] ts = java.util.Arrays.copyOf(t, t.length + 2 * (from.segments().size() + to.segments().size()));
        int n = addKnots(ts, t.length, from, t[0], t[t.length - 1]);
        n = addKnots(ts, n, to, t[0], t[t.length - 1]);
        n = sortedDistinct(ts, n);
        long[] rt = new long[n];
        double[] rm = new double[n];
        double[] rp = new double[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            long x = ts[i];
            double shift = to.correction(x) - from.correction(x);
            rt[k] = x;
            rm[k] = minus(x) + shift;
            rp[k] = plus(x) - shift;
            k++;
        }
        return new NodeBounds(rt, rm, rp);
    }

    /**
     * A row pair (k − 1, k) at every knot k of a piecewise transform strictly inside (first, last):
     * the rows are relative to the transform, which may step there; both sides are then exact.
     */
    private static int addKnots(long[] ts, int n, ClockTransform transform, long first, long last) {
        for (LinearSegment s : transform.segments()) {
            if (s.from() != null && s.from() > first && s.from() < last) {
                ts[n++] = s.from() - 1;
                ts[n++] = s.from();
            }
        }
        return n;
    }

    /** Sorts {@code ts[0, n)} ascending and drops repeats; the count left. */
    private static int sortedDistinct(long[] ts, int n) {
        java.util.Arrays.sort(ts, 0, n);
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || ts[i] != ts[m - 1]) {
                ts[m++] = ts[i];
            }
        }
        return m;
    }

    /** True when there are no rows (bounds unknown). */
    public boolean isEmpty() {
        return t.length == 0;
    }

    /** True when both sides are finite at every row. */
    public boolean twoSided() {
        for (int i = 0; i < t.length; i++) {
            if (Double.isInfinite(minus[i]) || Double.isInfinite(plus[i])) {
                return false;
            }
        }
        return t.length > 0;
    }

    /** Row i's time (rows ascend; {@link #size} rows): for writers, without a row object each. */
    public long rowT(int i) {
        return t[i];
    }

    /** Row i's minus (+∞ when that side is absent). */
    public double rowMinus(int i) {
        return minus[i];
    }

    /** Row i's plus (+∞ when that side is absent). */
    public double rowPlus(int i) {
        return plus[i];
    }

    /** The rows, for writers (an absent side is +∞). */
    public List<BoundRow> rows() {
        List<BoundRow> out = new ArrayList<>(t.length);
        for (int i = 0; i < t.length; i++) {
            out.add(new BoundRow(t[i], minus[i], plus[i]));
        }
        return out;
    }

    /**
     * Rows clipped to [from, to] (for plots and summaries of the data span): a row at from, the
     * rows strictly inside, a row at to, values by this class's rule. Empty without rows.
     */
    public List<BoundRow> rowsWithin(long from, long to) {
        List<BoundRow> out = new ArrayList<>();
        if (isEmpty()) {
            return out;
        }
        out.add(new BoundRow(from, minus(from), plus(from)));
        for (int i = 0; i < t.length; i++) {
            if (t[i] > from && t[i] < to) {
                out.add(new BoundRow(t[i], minus[i], plus[i]));
            }
        }
        if (to > from) {
            out.add(new BoundRow(to, minus(to), plus(to)));
        }
        return out;
    }

    public int size() {
        return t.length;
    }

    /** Δ− at local time x: NaN without rows, +∞ where that side is unbounded. */
    public double minus(long x) {
        return at(minus, x);
    }

    /** Δ+ at local time x: NaN without rows, +∞ where that side is unbounded. */
    public double plus(long x) {
        return at(plus, x);
    }

    /** {Δ−, Δ+} at local time x. */
    public double[] at(long x) {
        return new double[] {minus(x), plus(x)};
    }

    private double at(double[] v, long x) {
        int n = t.length;
        if (n == 0) {
            return Double.NaN;
        }
        if (n == 1) {
            return v[0];
        }
        int i = java.util.Arrays.binarySearch(t, x);
        if (i >= 0) {
            return v[i];
        }
        int hi = Math.max(1, Math.min(n - 1, -i - 1));
        int lo = hi - 1;
        if (Double.isInfinite(v[lo]) || Double.isInfinite(v[hi])) {
            return Double.POSITIVE_INFINITY;
        }
        double f = (double) (x - t[lo]) / (double) (t[hi] - t[lo]);
        return v[lo] + f * (v[hi] - v[lo]);
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeBounds b && java.util.Arrays.equals(t, b.t)
                && java.util.Arrays.equals(minus, b.minus) && java.util.Arrays.equals(plus, b.plus);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(t) * 31 + java.util.Arrays.hashCode(minus);
    }

    @Override
    public String toString() {
        return "NodeBounds" + rows();
    }
}
