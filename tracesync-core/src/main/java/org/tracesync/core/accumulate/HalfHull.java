package org.tracesync.core.accumulate;

import java.util.Arrays;

/**
 * One half of a convex hull of integer points (u, v), kept incrementally: the lower half hull of
 * the points that lie above the true clock line (messages a → b), or the upper half hull of the
 * points below it (messages b → a). DESIGN §3.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Vertices are sorted by strictly increasing u. At equal u only the extreme point counts
 *       (lowest v for a lower hull, highest for an upper one).</li>
 *   <li>Consecutive vertices make strict turns: left turns for a lower hull, right turns for an
 *       upper hull. Collinear middle points are removed (they never constrain the feasible region
 *       more than the two ends do).</li>
 *   <li>The hull of the vertices equals the half hull of every point ever added
 *       ({@link #add}) or merged in ({@link #addAll}).</li>
 * </ul>
 *
 * <h2>Any arrival order, O(hull) memory</h2>
 * A point at or to the right of the last vertex is pushed with Andrew's monotone chain step
 * (amortized O(1)): the common case, since traces are read in time order. A point further left
 * is not dropped (the original implementation silently dropped such points): it waits in a
 * pending buffer; when the buffer holds max(1024, h) points, or before any read of the vertices,
 * hull and buffer are sorted, merged and re-chained in O((h + b) log(h + b)). Memory stays
 * O(h) and the cost amortizes to O(log h) per out-of-order point.
 *
 * <h2>Exactness</h2>
 * Every turn test is exact, by one of two paths chosen per hull. While every vertex since the
 * hull was last empty lies in a box of 2^31 in u and 2^31 in v around its first vertex (a time
 * bucket's points always do: a bucket spans 250 ms, latencies differ by less than a second), the
 * differences are below 2^31, so the cross products are below 2^62 and 64-bit multiplications
 * compare them exactly; the last three edges are then tested at once (a push pops 0, 1 or 2
 * vertices without a mispredicted loop exit in most cases). Once a point leaves the box, the hull
 * compares two 128-bit cross products ({@code Math.multiplyHigh} and the low words) until it is
 * emptied. Same vertices either way, the hull of a point set being unique (HalfHullTest checks
 * both paths, and hulls that cross from one to the other, against a BigInteger reference).
 * Measured (docs/PERFORMANCE.md, "The pair accumulators' cost per message"): the pushes alone
 * take 0.63–0.72× the CPU of the 128-bit loop, 16–22 ns per message on a capture set's, an LTTV
 * file's and a 24 h file's streams; the whole accumulators 0.78–0.89×.
 * Coordinates are rebased (u = x − X0, v = y − x − V0) by the caller so differences fit in a long;
 * {@link ArithmeticException} otherwise, never a wrong answer.
 *
 * <h2>Internals</h2>
 * An upper hull is kept as the lower hull of (u, −v) (negated on the way in and out), so the
 * insertion step has no branch on the side; it allocates nothing per point (arrays grow by
 * doubling).
 */
public final class HalfHull {

    /** Which half is kept. */
    public enum Side {
        /** Lower half hull: constrains lines from above (points above the line). */
        LOWER,
        /** Upper half hull: constrains lines from below (points below the line). */
        UPPER
    }

    private static final int MIN_PENDING = 1024;
    private static final int INITIAL = 4;
    /** The box's width in u (2^31) and height in w (2^31, centred on its first vertex): see {@link #narrow}. */
    private static final int BOX_BITS = 31;
    private static final long BOX_HALF_W = 1L << (BOX_BITS - 1);
    /** A first vertex starts a box only when |u| and |w| lie below this. */
    private static final long BOX_LIMIT = 1L << 62;

    private final Side side;
    /** −1 for an upper hull: the stored v are negated (every stored hull is a lower one). */
    private final long sign;
    // small at first, so that a growth happens in the first hulls of a trace, while the JIT still
    // profiles the insertion: compiled without ever seeing one, the growth was a trap that threw
    // the compiled accumulation away the first time a hull outgrew 16 vertices
    private long[] us = new long[INITIAL];
    private long[] vs = new long[INITIAL];
    private int size;
    // the box: every vertex (u, w) has 0 ≤ u − boxU < 2^31 and |w − boxW| < 2^30 when narrow,
    // so that a turn test's differences are below 2^31 and its products below 2^62: exact in 64
    // bits. It starts at the first vertex (when |u|, |w| < 2^62, so that the box test cannot
    // overflow into a false yes) and is left for good, until the hull is emptied, by a point outside it
    private long boxU;
    private long boxW;
    private boolean narrow;
    private long[] pendingU = new long[0];
    private long[] pendingV = new long[0];
    private int pending;

    public HalfHull(Side side) {
        this.side = side;
        this.sign = side == Side.LOWER ? 1 : -1;
    }

    public Side side() {
        return side;
    }

    /** Adds one point, in any order. Amortized O(1) in order, O(log h) out of order. */
    public void add(long u, long v) {
        push(u, sign == 1 ? v : Math.negateExact(v)); // one call deep: the hot path of every message
    }

    /**
     * {@link #add} for the points of a long span (a trace's whole hull built from its buckets'
     * vertices, a block of buckets): the same hull, through the path that takes points outside
     * the box, so that the per-message path's compiled code never meets them (see {@link #pushBulk}).
     */
    public void addFromSpan(long u, long v) {
        pushBulk(u, sign == 1 ? v : Math.negateExact(v));
    }

    /** Adds every point of {@code other} (same side): the hull of the union. */
    public void addAll(HalfHull other) {
        if (other.side != side) {
            throw new IllegalArgumentException("cannot merge a " + other.side + " hull into a " + side + " hull");
        }
        other.compact();
        for (int i = 0; i < other.size; i++) {
            pushBulk(other.us[i], other.vs[i]);
        }
    }

    /** Adds every point of {@code other} shifted by (du, dv): for merging hulls of another origin. */
    public void addAllShifted(HalfHull other, long du, long dv) {
        if (other.side != side) {
            throw new IllegalArgumentException("cannot merge a " + other.side + " hull into a " + side + " hull");
        }
        other.compact();
        long dw = sign == 1 ? dv : Math.negateExact(dv);
        if (size == 0 && pending == 0) {
            // into an empty hull: the shifted vertices are the hull (a turn test sees only
            // differences, which the shift keeps), copied without turn tests
            int n = other.size;
            if (us.length < n) {
                us = new long[n];
                vs = new long[n];
            }
            for (int i = 0; i < n; i++) {
                us[i] = Math.addExact(other.us[i], du);
                vs[i] = Math.addExact(other.vs[i], dw);
            }
            size = n;
            rebox();
            return;
        }
        for (int i = 0; i < other.size; i++) {
            pushBulk(Math.addExact(other.us[i], du), Math.addExact(other.vs[i], dw));
        }
    }

    /** Makes this hull a copy of {@code other} (same side): its vertices copied, no turn test. O(h). */
    public void copyOf(HalfHull other) {
        if (other.side != side) {
            throw new IllegalArgumentException("cannot copy a " + other.side + " hull into a " + side + " hull");
        }
        other.compact();
        int n = other.size;
        if (us.length < n) {
            us = new long[Math.max(n, 2 * us.length)];
            vs = new long[us.length];
        }
        System.arraycopy(other.us, 0, us, 0, n);
        System.arraycopy(other.vs, 0, vs, 0, n);
        size = n;
        pending = 0;
        rebox();
    }

    /** Sets the box for vertices written without {@link #push}: from the first, narrow when all lie in it. O(h). */
    private void rebox() {
        if (size == 0) {
            return; // the next push starts it
        }
        boxU = us[0];
        boxW = vs[0];
        boolean in = (boxU ^ (boxU >> 63)) < BOX_LIMIT & (boxW ^ (boxW >> 63)) < BOX_LIMIT;
        for (int i = 1; i < size && in; i++) {
            in = ((us[i] - boxU) | (vs[i] - boxW + BOX_HALF_W)) >>> BOX_BITS == 0;
        }
        narrow = in;
    }

    /** Forgets every point (keeps the arrays, for reuse). */
    public void clear() {
        size = 0;
        pending = 0;
    }

    /** Number of hull vertices. */
    public int size() {
        compact();
        return size;
    }

    public boolean isEmpty() {
        return size == 0 && pending == 0;
    }

    public long u(int i) {
        compact();
        return us[i];
    }

    public long v(int i) {
        compact();
        return sign * vs[i];
    }

    /** A copy of the vertices' u coordinates, increasing. */
    public long[] us() {
        compact();
        return Arrays.copyOf(us, size);
    }

    /** A copy of the vertices' v coordinates. */
    public long[] vs() {
        compact();
        long[] out = Arrays.copyOf(vs, size);
        if (sign != 1) {
            for (int i = 0; i < size; i++) {
                out[i] = -out[i];
            }
        }
        return out;
    }

    /** Appends the vertices (u, v), in order, to {@code to}: 2 longs each. O(h). */
    void appendTo(LongBlockList to) {
        compact();
        for (int i = 0; i < size; i++) {
            to.add(us[i]);
            to.add(sign * vs[i]);
        }
    }

    /** Whether every vertex's v lies within a signed 32-bit difference of {@code base}. O(h). */
    boolean vsWithin(long base) {
        compact();
        for (int i = 0; i < size; i++) {
            long d = sign * vs[i] - base;
            if ((int) d != d || ((sign * vs[i] ^ base) & (sign * vs[i] ^ d)) < 0) { // too far, or overflowed
                return false;
            }
        }
        return true;
    }

    /**
     * Appends each vertex as one long, (u − startU) in the high 32 bits and (v − base) in the low 32,
     * to {@code to}; the caller has checked that they fit ({@link #vsWithin}, u − startU below 2^32).
     */
    void appendPackedTo(LongBlockList to, long startU, long base) {
        compact();
        for (int i = 0; i < size; i++) {
            to.add((us[i] - startU) << 32 | (sign * vs[i] - base) & 0xFFFF_FFFFL);
        }
    }

    /**
     * Monotone chain step (stored coordinates: a lower hull): append (u, w) with u ≥ last u,
     * popping vertices that stop making a strict left turn; a point left of the last vertex goes
     * to the pending buffer. Inside the box (see {@link #narrow}) the turn tests are 64-bit
     * products and the last three edges are tested at once; outside it, {@link #pushWide}.
     */
    private void push(long u, long w) {
        long[] us = this.us;
        long[] vs = this.vs;
        int n = size;
        if (n > 0) {
            long lastU = us[n - 1];
            if (u <= lastU) {
                if (u < lastU) {
                    addPending(u, w); // left of the last vertex: folded in later
                    return;
                }
                if (w >= vs[n - 1]) {
                    return; // dominated by the vertex already at this abscissa (u increases strictly)
                }
                n--;
            }
        }
        if (n == 0) {
            // no vertex left: the box starts at this point (far from 0: no box, every test wide)
            boxU = u;
            boxW = w;
            narrow = (u ^ (u >> 63)) < BOX_LIMIT & (w ^ (w >> 63)) < BOX_LIMIT;
        } else if (!narrow || ((u - boxU) | (w - boxW + BOX_HALF_W)) >>> BOX_BITS != 0) {
            narrow = false;
            pushWide(u, w, n);
            return;
        }
        if (n >= 4) {
            // the sequential loop's first three tests, on the chain's last three edges (each test
            // of the loop is on two consecutive vertices of the chain before this push), computed
            // without waiting on one another: the number of pops without a branch per pop
            long u1 = us[n - 1];
            long v1 = vs[n - 1];
            long u2 = us[n - 2];
            long v2 = vs[n - 2];
            long u3 = us[n - 3];
            long v3 = vs[n - 3];
            long u4 = us[n - 4];
            long v4 = vs[n - 4];
            boolean p1 = (u1 - u2) * (w - v2) <= (v1 - v2) * (u - u2);
            boolean p2 = (u2 - u3) * (w - v3) <= (v2 - v3) * (u - u3);
            boolean p3 = (u3 - u4) * (w - v4) <= (v3 - v4) * (u - u4);
            int pops = (p1 ? 1 : 0) + (p1 & p2 ? 1 : 0) + (p1 & p2 & p3 ? 1 : 0);
            n -= pops;
            if (pops == 3) {
                n = popNarrow(us, vs, n, u, w);
            }
        } else if (n >= 2) {
            n = popNarrow(us, vs, n, u, w);
        }
        if (n == us.length) {
            this.us = us = Arrays.copyOf(us, n * 2);
            this.vs = vs = Arrays.copyOf(vs, n * 2);
        }
        us[n] = u;
        vs[n] = w;
        size = n + 1;
    }

    /**
     * {@link #push} for the bulk paths (another hull's vertices, pending points folded in): a point
     * outside the box goes to {@link #pushWide} from here, after push's first steps. The bulk paths
     * are where long spans leave the box (a long trace's whole hulls, the fit's block hulls), so
     * push's own branch to the wide step stays untaken there and C2 does not recompile push (497
     * bytes) when a long trace's whole hulls are built after its buckets' (measured: three C2
     * compilations of push on the 24 h linear file, the process 1.03–1.06× the CPU).
     */
    private void pushBulk(long u, long w) {
        int n = size;
        if (n == 0 || (narrow && ((u - boxU) | (w - boxW + BOX_HALF_W)) >>> BOX_BITS == 0)) {
            push(u, w);
            return;
        }
        long lastU = us[n - 1];
        if (u <= lastU) {
            if (u < lastU) {
                addPending(u, w); // left of the last vertex: folded in later
                return;
            }
            if (w >= vs[n - 1]) {
                return; // dominated by the vertex already at this abscissa
            }
            if (--n == 0) {
                size = 0;
                push(u, w); // the only vertex replaced: the box starts again at this point
                return;
            }
        }
        narrow = false;
        pushWide(u, w, n);
    }

    /**
     * Pops the last of the first {@code n} vertices while it does not make a strict left turn
     * toward (u, w), every point in the box: 64-bit products, exact there. Gives the vertices left.
     */
    private static int popNarrow(long[] us, long[] vs, int n, long u, long w) {
        if (n < 2) {
            return n;
        }
        // the loop's test is the turn, not the count, as in pushWide (a loop counted on n made C2
        // add a limit check that failed once on the 24 h files and threw the compiled push away)
        long lu = us[n - 1];
        long lv = vs[n - 1];
        long pu = us[n - 2];
        long pv = vs[n - 2];
        while ((lu - pu) * (w - pv) <= (lv - pv) * (u - pu)) {
            n--;
            if (n == 1) {
                break;
            }
            lu = pu;
            lv = pv;
            pu = us[n - 2];
            pv = vs[n - 2];
        }
        return n;
    }

    /**
     * The monotone chain step with exact 128-bit turn tests, for a hull with a vertex outside the
     * box (or a point that leaves it): u ≥ us[n − 1] already, n ≥ 1 vertices kept.
     */
    private void pushWide(long u, long w, int n) {
        long[] us = this.us;
        long[] vs = this.vs;
        if (n >= 2) {
            // pop the last vertex while it does not make a strict left turn; the loop's test is
            // the turn, not the count (a loop counted on n made the JIT add a limit check that
            // failed once and threw the compiled accumulation away)
            long lu = us[n - 1];
            long lv = vs[n - 1];
            long pu = us[n - 2];
            long pv = vs[n - 2];
            while (!leftTurn(Math.subtractExact(lu, pu), Math.subtractExact(lv, pv),
                    Math.subtractExact(u, pu), Math.subtractExact(w, pv))) {
                n--;
                if (n == 1) {
                    break;
                }
                lu = pu;
                lv = pv;
                pu = us[n - 2];
                pv = vs[n - 2];
            }
        }
        if (n == us.length) {
            this.us = us = Arrays.copyOf(us, n * 2);
            this.vs = vs = Arrays.copyOf(vs, n * 2);
        }
        us[n] = u;
        vs[n] = w;
        size = n + 1;
    }

    /**
     * Whether (du2, dv2) turns strictly left of (du1, dv1): du1·dv2 > dv1·du2, compared exactly as
     * 128-bit products (high words signed, low words unsigned), without branches.
     */
    static boolean leftTurn(long du1, long dv1, long du2, long dv2) {
        long hi1 = Math.multiplyHigh(du1, dv2);
        long hi2 = Math.multiplyHigh(dv1, du2);
        long lo1 = du1 * dv2;
        long lo2 = dv1 * du2;
        return hi1 > hi2 | (hi1 == hi2 & (lo1 ^ Long.MIN_VALUE) > (lo2 ^ Long.MIN_VALUE));
    }

    private void addPending(long u, long v) {
        if (pending == pendingU.length) {
            int cap = Math.max(16, pending * 2); // small at first: a time bucket's hull sees few late points
            pendingU = Arrays.copyOf(pendingU, cap);
            pendingV = Arrays.copyOf(pendingV, cap);
        }
        pendingU[pending] = u;
        pendingV[pending] = v;
        pending++;
        if (pending >= Math.max(MIN_PENDING, size)) {
            compact();
        }
    }

    /** Folds pending points into the hull: sort, merge with the vertices, re-chain. */
    private void compact() {
        if (pending == 0) {
            return;
        }
        sortByU(pendingU, pendingV, pending);
        int n1 = size;
        int n2 = pending;
        long[] oldU = us;
        long[] oldV = vs;
        long[] pu = pendingU;
        long[] pv = pendingV;
        us = new long[Math.max(16, n1 + n2)];
        vs = new long[us.length];
        size = 0;
        pending = 0;
        int i = 0;
        int j = 0;
        while (i < n1 || j < n2) {
            if (j >= n2 || (i < n1 && oldU[i] <= pu[j])) {
                pushBulk(oldU[i], oldV[i]);
                i++;
            } else {
                pushBulk(pu[j], pv[j]);
                j++;
            }
        }
        if (us.length > 4 * Math.max(16, size)) {
            us = Arrays.copyOf(us, Math.max(16, size * 2));
            vs = Arrays.copyOf(vs, us.length);
        }
        if (pendingU.length > 4 * Math.max(MIN_PENDING, size)) {
            pendingU = new long[0];
            pendingV = new long[0];
        }
    }

    /** Stable merge sort of the first n entries of (u, v) by u. */
    static void sortByU(long[] u, long[] v, int n) {
        if (n < 2) {
            return;
        }
        long[] tu = new long[n];
        long[] tv = new long[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int a = lo;
                int b = mid;
                int k = lo;
                while (a < mid && b < hi) {
                    if (u[b] < u[a]) {
                        tu[k] = u[b];
                        tv[k++] = v[b++];
                    } else {
                        tu[k] = u[a];
                        tv[k++] = v[a++];
                    }
                }
                while (a < mid) {
                    tu[k] = u[a];
                    tv[k++] = v[a++];
                }
                while (b < hi) {
                    tu[k] = u[b];
                    tv[k++] = v[b++];
                }
            }
            System.arraycopy(tu, 0, u, 0, n);
            System.arraycopy(tv, 0, v, 0, n);
        }
    }
}
