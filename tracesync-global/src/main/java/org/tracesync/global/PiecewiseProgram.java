package org.tracesync.global;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.accumulate.TimeBuckets;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/**
 * The global program of a group whose clocks are not linear over the trace (DESIGN §4, §6): a
 * group with a {@code piecewise} pair. {@link GlobalProgram} solves one line per node; here each
 * node gets a continuous piecewise-linear correction on a grid of time windows.
 *
 * <h2>Unknowns: one value per window knot (continuity by construction)</h2>
 * Node n's transform is written relative to its path-composition transform P_n (piecewise, with
 * the pairs' knots and steps):
 * <pre>
 *   ref_n(t) = t + P_n(t) + 1000·g_n(t),   g_n linear on each window [b_j, b_j+1), g_n(b_j) = G_n,j (µs)
 * </pre>
 * Windows are {@link #WINDOW_NS} long on n's own clock (doubled until at most
 * {@link #MAX_WINDOWS} cover n's data), aligned on absolute multiples of their width, so they
 * hold whole time buckets of the pairs n is the abscissa node of. The unknowns are the knot
 * values: "per-window (drift, offset) with continuity at the window edges" written so that
 * continuity holds without a constraint row (W + 1 unknowns per node instead of 2W plus W − 1
 * equalities). g_n is continuous, so the transform keeps P_n's continuity, and its steps exactly
 * where path composition put them (a step found by a pair is one node's step; the program does not
 * move it). The reference has g = 0.
 *
 * <h2>Constraints: every bucket's hull vertices, generated lazily</h2>
 * A message sent at ts on s and received at tr on r gives g_s(ts) − g_r(tr) ≤
 * [(tr − ts) + P_r(tr) − P_s(ts) − τ] / 1000: at most four non-zeros, (tr − ts) an exact long. With
 * piecewise corrections the whole pair's hull no longer suffices (a message inside it can be
 * inverted where g bends), so the rows come from each time bucket's two half hulls
 * ({@link TimeBuckets}), for every pair of the group, linear ones included. Exact where the
 * transforms are linear across a bucket; a bucket that holds a knot of the receiver's
 * transform (the windows sit on the sender's bucket grid only for pairs it is the abscissa of)
 * can leave one of its inner messages a few ns short, which is why the transforms keep
 * {@link #KNOT_MARGIN_NS} of clearance (dropped only if infeasible); the repair pass of
 * {@code sync} checks every message anyway. Messages of the buckets around a pair's clock step,
 * and within two buckets of a discontinuity of the sender's or the receiver's path transform
 * (a step or a break it inherited from a pair, jump above {@link #JUMP_NS}), are left out: a
 * slew or a step that each pair cut at its own bucket leaves messages no continuous correction
 * fits; they are left to the repair pass (counted in the node note), as for two nodes.
 *
 * <p>Those rows are many (1.75 million for 5 nodes over 8 h) and few of them bind, so the program
 * starts from the tightest rows — per pair, direction and quarter window, the one with the smallest
 * right-hand side — solves, checks every candidate row against the answer, adds the violated ones,
 * and solves again, until none is violated (a few rounds; at most {@link #MAX_ROUNDS}). The answer
 * then satisfies every candidate row: what is returned is exact, only the program is smaller.
 *
 * <h2>Objective</h2>
 * As in {@link GlobalProgram} (minimax, then weighted L1, weights 1 / mean bound width), with the
 * deviation δ(x) = ref_b(E(x)) − ref_a(x) from each pair's (piecewise) estimate E taken at every
 * knot of a's windows inside the pair's span and at its two ends.
 *
 * <h2>Bounds</h2>
 * Not computed here: the caller keeps path composition's bounds, re-centred on the new transform
 * (the same absolute intervals, widened to contain the estimate where it left them). They are
 * strict under the assumption of the pairwise fits (each clock linear within each piece); joint
 * bounds over the window program would assume each clock equal to P_n plus a correction on the
 * window grid, which no pair's data justifies.
 *
 * <p>Size: Σ(W_n + 1) unknowns (+1 minimax, + one per objective term for the L1 stage), one row
 * per active hull vertex. Building the candidate rows and checking them costs O(candidates) per
 * round (the path transforms are read with a cursor); memory 33 bytes per candidate, capped at
 * {@link #MAX_CANDIDATE_ROWS}. Measured on the 5-node 8 h mesh (docs/PERFORMANCE.md): about 3 s
 * of CPU for the whole program, half of it in GLOP. Every LP goes through a checked
 * {@link LinearProgram}. Not thread-safe; one instance per group.
 */
final class PiecewiseProgram {

    /** Width of the correction's windows (ns): 64 s, a multiple of every bucket width up to 64 s. */
    static final long WINDOW_NS = 64_000_000_000L;

    /** Windows per node at most: the width doubles beyond (24 h: 1,350 windows of 64 s). */
    static final int MAX_WINDOWS = 2_048;

    /** Clearance (ns) the transforms keep above τ where feasible: bends of g inside a bucket. */
    static final double KNOT_MARGIN_NS = 20.0;

    /** Rounds of row generation at most. */
    static final int MAX_ROUNDS = 12;

    /**
     * Candidate rows at most (33 bytes each: 264 MB). Beyond, the group keeps path composition:
     * e.g. 500 pairs over 8 h hold about 90 million bucket hull vertices.
     */
    static final int MAX_CANDIDATE_ROWS = 8_000_000;

    /** Starting rows per window, pair and direction (the tightest of each sub-window). */
    static final int START_ROWS_PER_WINDOW = 4;

    private static final double UNIT = GlobalProgram.UNIT;

    private final IntFunction<LinearProgram> solvers;
    private final int[] members;
    private final int[] local;
    private final int refLocal;
    private final ClockTransform[] path;
    private final long[] base;     // first knot, by local index
    private final long[] width;    // window width, by local index
    private final int[] windows;   // windows, by local index
    private final int[] firstCol;  // column of G_k,0; −1 for the reference
    private final int columns;

    // candidate rows: g_s(ts) − g_r(tr) ≤ rhs − τ/1000
    private int rowCount;
    private int[] rowS = new int[1024];
    private int[] rowR = new int[1024];
    private long[] rowTs = new long[1024];
    private long[] rowTr = new long[1024];
    private double[] rowRhs = new double[1024];
    private boolean[] startRow = new boolean[1024];
    private int excluded;
    private boolean tooLarge;
    private final int maxRows;
    private final long[][] jumps;   // times of P_n's discontinuities (steps, breaks), by local index

    // objective terms: δ = k + g_b(tb) − g_a(ta), weighted
    private final List<long[]> termTimes = new ArrayList<>();   // {a, ta, b, tb}
    private final List<double[]> termValues = new ArrayList<>(); // {k, weight}

    private int pairsUsed;
    private int oneWayPairs;
    private int rounds;
    private int activeRows;
    private int lps;
    private int retries;
    private boolean minimaxSkipped;
    private double[] solution;

    PiecewiseProgram(int[] members, int ref, ClockTransform[] pathByNode, List<PairEstimate> pairs, PairAccumulators acc) {
        this(members, ref, pathByNode, pairs, acc, LinearPrograms.factory(), MAX_CANDIDATE_ROWS);
    }

    /** Same, with the given solver and cap on the candidate rows. */
    PiecewiseProgram(int[] members, int ref, ClockTransform[] pathByNode, List<PairEstimate> pairs, PairAccumulators acc,
                     IntFunction<LinearProgram> solvers, int maxCandidateRows) {
        this.solvers = solvers;
        this.maxRows = maxCandidateRows;
        this.members = members.clone();
        this.local = GlobalProgram.localIndex(members, acc.nodes());
        this.refLocal = local[ref];
        int m = members.length;
        this.path = new ClockTransform[m];
        this.base = new long[m];
        this.width = new long[m];
        this.windows = new int[m];
        this.firstCol = new int[m];
        int col = 0;
        for (int k = 0; k < m; k++) {
            int n = members[k];
            path[k] = pathByNode[n];
            long first = acc.first(n);
            long last = Math.max(acc.last(n), first);
            long w = WINDOW_NS;
            while ((double) (last - first) / w + 2 > MAX_WINDOWS) {
                w *= 2;
            }
            width[k] = w;
            base[k] = Math.floorDiv(first, w) * w;
            windows[k] = (int) (Math.floorDiv(last, w) - Math.floorDiv(first, w) + 1);
            if (k == refLocal) {
                firstCol[k] = -1;
            } else {
                firstCol[k] = col;
                col += windows[k] + 1;
            }
        }
        this.columns = col;
        this.jumps = new long[m][];
        for (int k = 0; k < m; k++) {
            jumps[k] = discontinuities(path[k]);
        }
        double maxWeight = 0;
        List<double[]> rawWeights = new ArrayList<>();
        for (PairEstimate p : pairs) {
            int a = local[p.a()];
            int b = local[p.b()];
            if (a < 0 || b < 0 || p.quality() == Quality.INVALID || p.quality() == Quality.ABSENT) {
                continue;
            }
            pairsUsed++;
            if (p.quality() == Quality.ONE_WAY) {
                oneWayPairs++;
            }
            if (!tooLarge) {
                addRows(p, a, b, acc);
            }
            if (p.hasEstimate()) {
                boolean bounded = (p.quality() == Quality.ACCURATE || p.quality() == Quality.PIECEWISE)
                        && Double.isFinite(p.meanAccuracy());
                double accuracyUs = bounded ? p.meanAccuracy() / UNIT : 1e6;
                double w = 1.0 / Math.max(accuracyUs, 1e-3);
                maxWeight = Math.max(maxWeight, w);
                addTerms(p, a, b, w);
            }
        }
        for (double[] v : termValues) {
            v[1] = Math.max(v[1] / maxWeight, 1e-6);
        }
        startRow = Arrays.copyOf(startRow, rowCount);
    }

    /** A jump of a path transform larger than this (ns) at a knot is a discontinuity (a step or a break). */
    static final double JUMP_NS = 100.0;

    /** Knots of {@code t} where it jumps by more than {@link #JUMP_NS}, sorted. */
    static long[] discontinuities(ClockTransform t) {
        List<LinearSegment> segs = t.segments();
        long[] out = new long[segs.size()];
        int n = 0;
        for (int k = 1; k < segs.size(); k++) {
            long at = segs.get(k).from();
            if (Math.abs(segs.get(k).correction(at) - segs.get(k - 1).correction(at)) > JUMP_NS) {
                out[n++] = at;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** True when some time of {@code sorted} lies within {@code zone} of t. */
    private static boolean near(long[] sorted, long t, long zone) {
        int i = Arrays.binarySearch(sorted, t);
        if (i >= 0) {
            return true;
        }
        int hi = -i - 1;
        return (hi < sorted.length && sorted[hi] - t <= zone) || (hi > 0 && t - sorted[hi - 1] <= zone);
    }

    /** The candidate rows of one pair, both directions, from its time buckets' hull vertices. */
    private void addRows(PairEstimate p, int a, int b, PairAccumulators acc) {
        TimeBuckets tb = acc.pair(p.a(), p.b()).timeBuckets();
        long x0 = p.x0();
        long v0 = p.v0();
        List<long[]> skip = new ArrayList<>(); // a-time intervals around steps
        if (p.piecewise() != null) {
            long w = p.piecewise().bucketWidth();
            for (ClockStep st : p.piecewise().steps()) {
                skip.add(new long[] {Math.min(st.earliest(), st.at()) - w, Math.max(st.latest(), st.at()) + w});
            }
        }
        List<long[]> pu = new ArrayList<>();
        List<long[]> qu = new ArrayList<>();
        if (tb == null) {
            pu.add(p.pu());
            pu.add(p.pv());
            qu.add(p.qu());
            qu.add(p.qv());
        } else {
            for (TimeBuckets.Bucket bucket : tb.buckets()) {
                pu.add(bucket.pu());
                pu.add(bucket.pv());
                qu.add(bucket.qu());
                qu.add(bucket.qv());
            }
        }
        long zone = 2 * (tb == null ? TimeBuckets.INITIAL_WIDTH : tb.width());
        // a → b, in time order: sent at x on a, received at y on b
        Selection sel = new Selection();
        Cursor pa = new Cursor(path[a]);
        Cursor pb = new Cursor(path[b]);
        for (int i = 0; i < pu.size(); i += 2) {
            long[] us = pu.get(i);
            long[] vs = pu.get(i + 1);
            for (int k = 0; k < us.length; k++) {
                long x = x0 + us[k];
                long lat = v0 + vs[k];
                long y = x + lat;
                if (skipped(skip, x) || near(jumps[a], x, zone) || near(jumps[b], y, zone)) {
                    excluded++;
                    continue;
                }
                sel.offer(a, x, addRow(a, x, b, y, ((double) lat + pb.correction(y) - pa.correction(x)) / UNIT));
            }
        }
        sel.flush();
        sel = new Selection();
        pa = new Cursor(path[a]);
        pb = new Cursor(path[b]);
        for (int i = 0; i < qu.size(); i += 2) {
            long[] us = qu.get(i);
            long[] vs = qu.get(i + 1);
            for (int k = 0; k < us.length; k++) {
                long x = x0 + us[k];
                long lat = -(v0 + vs[k]); // x − y
                long y = x - lat;
                if (skipped(skip, x) || near(jumps[a], x, zone) || near(jumps[b], y, zone)) {
                    excluded++;
                    continue;
                }
                sel.offer(b, y, addRow(b, y, a, x, ((double) lat + pa.correction(x) - pb.correction(y)) / UNIT));
            }
        }
        sel.flush();
    }

    /**
     * {@link ClockTransform#correction} at nearly nondecreasing times (a pair's hull vertices in
     * bucket order): O(1) amortized instead of a binary search over the segments each time.
     */
    private static final class Cursor {
        private final ClockTransform t;
        private final List<LinearSegment> segs;
        private int i;

        Cursor(ClockTransform t) {
            this.t = t;
            this.segs = t.segments();
        }

        double correction(long x) {
            LinearSegment s = segs.get(i);
            if (s.from() != null && x < s.from()) {
                i = t.indexAt(x);
            } else {
                while (i + 1 < segs.size() && segs.get(i + 1).from() <= x) {
                    i++;
                }
            }
            return segs.get(i).correction(x);
        }
    }

    private static boolean skipped(List<long[]> skip, long x) {
        for (long[] s : skip) {
            if (x >= s[0] && x <= s[1]) {
                return true;
            }
        }
        return false;
    }

    /** Picks, per sub-window of the sender (rows arrive in time order), the row of smallest rhs. */
    private final class Selection {
        private long key = Long.MIN_VALUE;
        private int best = -1;

        void offer(int sender, long ts, int row) {
            if (row < 0) {
                best = -1;
                return;
            }
            long k = Math.floorDiv(ts - base[sender], Math.max(1, width[sender] / START_ROWS_PER_WINDOW));
            if (k != key) {
                flush();
                key = k;
            }
            if (best < 0 || rowRhs[row] < rowRhs[best]) {
                best = row;
            }
        }

        void flush() {
            if (best >= 0 && !tooLarge) {
                startRow[best] = true;
            }
            best = -1;
        }
    }

    /** Adds a candidate row and returns its index; −1 once there are too many (nothing is kept then). */
    private int addRow(int s, long ts, int r, long tr, double rhs) {
        if (tooLarge) {
            return -1;
        }
        if (rowCount == maxRows) {
            tooLarge = true;
            rowCount = 0; // nothing to solve: free what was built
            rowS = new int[1];
            rowR = new int[1];
            rowTs = new long[1];
            rowTr = new long[1];
            rowRhs = new double[1];
            startRow = new boolean[1];
            return -1;
        }
        if (rowCount == rowS.length) {
            int cap = rowCount * 2;
            rowS = Arrays.copyOf(rowS, cap);
            rowR = Arrays.copyOf(rowR, cap);
            rowTs = Arrays.copyOf(rowTs, cap);
            rowTr = Arrays.copyOf(rowTr, cap);
            rowRhs = Arrays.copyOf(rowRhs, cap);
            startRow = Arrays.copyOf(startRow, cap);
        }
        rowS[rowCount] = s;
        rowR[rowCount] = r;
        rowTs[rowCount] = ts;
        rowTr[rowCount] = tr;
        rowRhs[rowCount] = rhs;
        return rowCount++;
    }

    /** Deviation terms of one pair at a's knots inside its span and at its ends. */
    private void addTerms(PairEstimate p, int a, int b, double w) {
        ClockTransform e = p.transformAToB();
        TreeSet<Long> xs = new TreeSet<>();
        xs.add(p.minX());
        xs.add(p.maxX());
        for (int j = 0; j <= windows[a]; j++) {
            long t = base[a] + j * width[a];
            if (t > p.minX() && t < p.maxX()) {
                xs.add(t);
            }
        }
        for (long x : xs) {
            double ex = e.correction(x); // E(x) − x
            long ey = x + Math.round(ex);
            double k = (ex + path[b].correction(ey) - path[a].correction(x)) / UNIT;
            termTimes.add(new long[] {a, x, b, ey});
            termValues.add(new double[] {k, w});
        }
    }

    int candidateRows() {
        return rowCount;
    }

    /** True when the group has more bucket hull vertices than the cap ({@link #MAX_CANDIDATE_ROWS}): not solved. */
    boolean tooLarge() {
        return tooLarge;
    }

    /** Rows in the last program solved (after row generation). */
    int constraintCount() {
        return activeRows;
    }

    /** Hull vertices left out because they lie at a pair's clock step. */
    int excludedRows() {
        return excluded;
    }

    int pairsUsed() {
        return pairsUsed;
    }

    int oneWayPairs() {
        return oneWayPairs;
    }

    int rounds() {
        return rounds;
    }

    long lpCount() {
        return lps;
    }

    long solverRetries() {
        return retries;
    }

    boolean minimaxSkipped() {
        return minimaxSkipped;
    }

    /** Window width of member {@code node} (ns). */
    long windowWidth(int node) {
        return width[local[node]];
    }

    int windows(int node) {
        return windows[local[node]];
    }

    /** Columns and coefficients of g_k(t) (at most 2), into idx/val from n, times sign; returns the new n. */
    private int g(int k, long t, double sign, int[] idx, double[] val, int n) {
        if (k == refLocal) {
            return n;
        }
        long w = width[k];
        long j = Math.floorDiv(t - base[k], w);
        j = Math.max(0, Math.min(windows[k] - 1, j));
        double lambda = (double) (t - (base[k] + j * w)) / (double) w;
        int c = firstCol[k] + (int) j;
        idx[n] = c;
        val[n++] = sign * (1 - lambda);
        idx[n] = c + 1;
        val[n++] = sign * lambda;
        return n;
    }

    /** g_k(t) at solution x (µs). */
    private double gValue(double[] x, int k, long t) {
        if (k == refLocal) {
            return 0;
        }
        long w = width[k];
        long j = Math.max(0, Math.min(windows[k] - 1, Math.floorDiv(t - base[k], w)));
        double lambda = (double) (t - (base[k] + j * w)) / (double) w;
        int c = firstCol[k] + (int) j;
        return (1 - lambda) * x[c] + lambda * x[c + 1];
    }

    private void addHullRow(LinearProgram lp, int i, double marginUs) {
        int[] idx = new int[4];
        double[] val = new double[4];
        int n = g(rowS[i], rowTs[i], 1.0, idx, val, 0);
        n = g(rowR[i], rowTr[i], -1.0, idx, val, n);
        lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), rowRhs[i] - marginUs);
    }

    /** Adds sign·(g_b(tb) − g_a(ta)) of term i; returns the new length. */
    private int termLinear(int i, double sign, int[] idx, double[] val) {
        long[] tt = termTimes.get(i);
        int n = g((int) tt[2], tt[3], sign, idx, val, 0);
        return g((int) tt[0], tt[1], -sign, idx, val, n);
    }

    private LinearProgram minimaxProgram(boolean[] active, double marginUs) {
        LinearProgram lp = solvers.apply(columns + 1);
        addActive(lp, active, marginUs);
        for (int i = 0; i < termTimes.size(); i++) {
            double k = termValues.get(i)[0];
            double w = termValues.get(i)[1];
            for (double sign : new double[] {1.0, -1.0}) {
                int[] idx = new int[5];
                double[] val = new double[5];
                int n = termLinear(i, sign * w, idx, val);
                idx[n] = columns;
                val[n++] = -1.0;
                lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), -sign * w * k);
            }
        }
        lp.addRow(new int[] {columns}, new double[] {-1.0}, 0.0);
        return lp;
    }

    private LinearProgram l1Program(boolean[] active, double marginUs, double zLimit) {
        int t = termTimes.size();
        LinearProgram lp = solvers.apply(columns + t);
        addActive(lp, active, marginUs);
        for (int i = 0; i < t; i++) {
            double k = termValues.get(i)[0];
            double w = termValues.get(i)[1];
            int e = columns + i;
            for (double sign : new double[] {1.0, -1.0}) {
                int[] idx = new int[5];
                double[] val = new double[5];
                int n = termLinear(i, sign, idx, val);
                idx[n] = e;
                val[n++] = -1.0;
                lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), -sign * k);
            }
            if (Double.isFinite(zLimit)) {
                lp.addRow(new int[] {e}, new double[] {w}, zLimit);
            }
            lp.addRow(new int[] {e}, new double[] {-1.0}, 0.0);
        }
        return lp;
    }

    private void addActive(LinearProgram lp, boolean[] active, double marginUs) {
        int count = 0;
        for (int i = 0; i < rowCount; i++) {
            if (active[i]) {
                addHullRow(lp, i, marginUs);
                count++;
            }
        }
        activeRows = count;
    }

    /**
     * Solves for the corrections: with τ = max(τmin, 1 ns) + {@link #KNOT_MARGIN_NS}, then without
     * the knot margin, then τmin alone, the first feasible. Each try generates rows until the
     * answer satisfies every candidate row. Returns false when none is feasible (or row generation
     * does not settle in {@link #MAX_ROUNDS} rounds).
     */
    boolean solve(double minLatencyNs) {
        if (tooLarge) {
            return false;
        }
        double[] margins = {Math.max(minLatencyNs, 1.0) + KNOT_MARGIN_NS, Math.max(minLatencyNs, 1.0), minLatencyNs};
        for (double marginNs : margins) {
            double[] x = solveWith(marginNs / UNIT);
            if (x != null && maxViolationNs(x, minLatencyNs) <= 1.0) {
                solution = x;
                return true;
            }
        }
        return false;
    }

    private double[] solveWith(double marginUs) {
        boolean[] active = startRow.clone();
        int t = termTimes.size();
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            rounds++;
            LinearProgram.Answer first;
            try (LinearProgram lp = minimaxProgram(active, marginUs)) {
                double[] c = new double[columns + 1];
                c[columns] = -1.0;
                first = lp.maximize(c, GlobalProgram.ESTIMATE_FEASIBILITY, GlobalProgram.ESTIMATE_GAP, false);
                lps += lp.solves();
                retries += lp.retries();
            }
            double zLimit = Double.POSITIVE_INFINITY;
            if (first.optimal()) {
                double zMin = -first.value();
                zLimit = zMin + Math.max(1e-6 * zMin, 1e-6);
            } else {
                minimaxSkipped = true;
            }
            LinearProgram.Answer second;
            try (LinearProgram lp = l1Program(active, marginUs, zLimit)) {
                double[] c = new double[columns + t];
                for (int i = 0; i < t; i++) {
                    c[columns + i] = -termValues.get(i)[1];
                }
                second = lp.maximize(c, GlobalProgram.ESTIMATE_FEASIBILITY, GlobalProgram.ESTIMATE_GAP, true);
                lps += lp.solves();
                retries += lp.retries();
            }
            if (!second.optimal()) {
                return null;
            }
            double[] x = Arrays.copyOf(second.x(), columns);
            int added = 0;
            for (int i = 0; i < rowCount; i++) {
                if (!active[i]) {
                    double lhs = gValue(x, rowS[i], rowTs[i]) - gValue(x, rowR[i], rowTr[i]);
                    if (lhs > rowRhs[i] - marginUs + GlobalProgram.ESTIMATE_FEASIBILITY) {
                        active[i] = true;
                        added++;
                    }
                }
            }
            if (added == 0) {
                return x;
            }
        }
        return null;
    }

    /** Largest amount (ns) by which solution x puts a candidate row's message below τmin. */
    private double maxViolationNs(double[] x, double minLatencyNs) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < rowCount; i++) {
            double lhs = gValue(x, rowS[i], rowTs[i]) - gValue(x, rowR[i], rowTr[i]);
            worst = Math.max(worst, (lhs - (rowRhs[i] - minLatencyNs / UNIT)) * UNIT);
        }
        return worst;
    }

    /**
     * The solved transform of {@code node}: P_n + 1000·g_n, one segment per interval between P_n's
     * knots and g_n's inner window knots; continuous wherever P_n is.
     */
    ClockTransform transform(int node) {
        int k = local[node];
        if (k == refLocal) {
            return path[k];
        }
        TreeSet<Long> cuts = new TreeSet<>();
        for (LinearSegment s : path[k].segments()) {
            if (s.from() != null) {
                cuts.add(s.from());
            }
        }
        for (int j = 1; j < windows[k]; j++) {
            cuts.add(base[k] + j * width[k]);
        }
        List<LinearSegment> out = new ArrayList<>(cuts.size() + 1);
        Long from = null;
        java.util.Iterator<Long> it = cuts.iterator();
        while (true) {
            Long to = it.hasNext() ? it.next() : null;
            long probe = from != null ? from : to != null ? to - 1 : base[k];
            long origin = from != null ? from : to != null ? to : base[k];
            LinearSegment p = path[k].segmentAt(probe);
            long w = width[k];
            long j = Math.max(0, Math.min(windows[k] - 1, Math.floorDiv(probe - base[k], w)));
            int c = firstCol[k] + (int) j;
            double g0 = solution[c];
            double slope = (solution[c + 1] - g0) / (double) w; // µs per ns
            double gAt = g0 + slope * (double) (origin - (base[k] + j * w));
            LinearSegment seg = new LinearSegment(from, to, origin, p.correction(origin) + UNIT * gAt,
                    p.drift() + UNIT * slope);
            if (from != null && from.equals(p.from()) && p.eitherFrom() != null) {
                // a step of the path transform (the correction added is continuous): its
                // either-side times stay (ClockTransform#stepAround)
                seg = seg.withEitherSide(p.eitherFrom(), p.eitherTo());
            }
            out.add(seg);
            if (to == null) {
                break;
            }
            from = to;
        }
        return new ClockTransform(out);
    }
}
