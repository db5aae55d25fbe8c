package org.tracesync.global;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.MonotoneBound;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.core.transform.ClockTransform;

/**
 * The global linear program of one connected group (DESIGN §4): every non-reference node's
 * transform, constrained by every pair's hull points, as close as possible to the pairwise
 * estimates.
 *
 * <h2>Unknowns, rebased and scaled</h2>
 * Node n's transform is written relative to its path-composition transform P_n (the starting
 * point, already within microseconds of the answer):
 * <pre>
 *   ref_n(t) = t + P_n(t) + 1000·(O_n + D_n·s_n(t))      s_n(t) = (t − T_n) / H
 * </pre>
 * with T_n the middle of n's data, H the largest half-span of the group (ns), O_n in µs and D_n
 * the drift correction expressed as µs per H (1 unit = 1000/H ns/ns; for a 100 s group, 0.02 ppm).
 * The reference has O = D = 0. Every coefficient is then O(1) (|s| ≲ 1, constraint right-hand
 * sides are path-corrected latencies in µs): a general LP solver fed raw epoch nanoseconds
 * loses every digit that matters, and misreports unbounded problems as optimal.
 *
 * <h2>Constraints (exact linear, no approximation)</h2>
 * A message sent at ts on node s and received at tr on node r needs ref_s(ts) + τ ≤ ref_r(tr):
 * <pre>
 *   O_s + D_s·s_s(ts) − O_r − D_r·s_r(tr) ≤ [(tr − ts) + P_r(tr) − P_s(ts) − τ] / 1000
 * </pre>
 * Only hull vertices can be tight (a line below the lower hull's vertices is below every a → b
 * point), so one row per hull vertex, both directions, every pair whose two nodes are in the
 * group — including one-way pairs, whose points are valid constraints too. (tr − ts) is an exact
 * long; P's corrections are small doubles.
 *
 * <h2>Objective: stay closest to the pairwise estimates (minimax, then weighted L1)</h2>
 * For a pair (a, b) with estimate E (a-time → b-time), consistency means ref_b(E(x)) = ref_a(x).
 * The deviation δ(x) = ref_b(E(x)) − ref_a(x) is linear in x and <em>exactly</em> linear in the
 * unknowns (E is fixed); it is taken at the pair's first and last message (two points fix a line:
 * offset and drift deviation over the span the pair has data for), weighted by w = 1 / (pair's
 * mean bound width): a precise pair is trusted more; incomplete pairs get the smallest weight.
 * Two LPs, lexicographic: (1) minimize z = max w·|δ| (rows ±w·δ ≤ z); (2) with z ≤ z*, minimize
 * Σ w·|δ| (one auxiliary e ≥ |δ| per term). Why: weighted L1 alone is degenerate on every cycle —
 * moving two nodes together trades one pair's deviation for another's one-for-one, and the
 * solver returns any vertex (on the triangle it put the whole disagreement on one link at
 * the start of the trace and on the other at the end: a 3.3 ppm drift error). The minimax stage
 * shares a cycle's disagreement in proportion to the corridors, where the truth is when each
 * estimate is its corridor's middle; the L1 stage then settles the pairs the minimax leaves free,
 * robustly (a pair that disagrees with the rest absorbs its disagreement, rather than smearing it
 * over every node as least squares would). Both are LPs: one solver for the estimate and the
 * bounds, exact vertex answers. When ojAlgo fails on the minimax stage, the L1 stage runs alone.
 *
 * <h2>Joint bounds</h2>
 * At local time t, the range of ref_n(t) over the feasible set (τ = τmin, default 0, so that the
 * true clocks, if linear, are feasible) is [min, max] of the linear function O_n + D_n·s_n(t):
 * two LPs per instant, see {@link #bounds}.
 *
 * <p>Size: 2·(N − 1) unknowns (+1 for the minimax stage, + one per objective term, i.e. two per
 * estimated pair, for the L1 stage); one row per kept hull vertex (+2 per term for the minimax,
 * +4 per term for the L1 stage). Every LP goes through a checked {@link LinearProgram} (GLOP, or
 * ojAlgo where GLOP's native library is missing). Not thread-safe; one instance per group, closed
 * after use (it holds the bound program's native model).
 */
final class GlobalProgram {

    /** ns per µs: the unit of the offsets in the program. */
    static final double UNIT = 1000.0;
    /** Widening of every joint bound (ns): solver tolerance and double rounding of the sides. */
    static final double SAFETY_NS = 1.0;
    /**
     * The transforms' programs accept an answer within 0.5 ns of every row (rows carry a 1 ns
     * margin, so every message keeps a latency ≥ 0.5 ns) and within 1e-4 of the optimum: the
     * objective only picks an estimate, the rows are the guarantee.
     */
    static final double ESTIMATE_FEASIBILITY = 5e-4;
    static final double ESTIMATE_GAP = 1e-4;
    /** |value| beyond this (µs) is treated as unbounded: a scaled program never gets there honestly. */
    static final double UNBOUNDED_US = 1e12;

    /** One hull constraint: O_s + D_s·ss − O_r − D_r·sr ≤ rhs − τ/1000 (local indices; −1 = reference). */
    private record Row(int s, double ss, int r, double sr, double rhs) {
    }

    /** One objective term: δ = k + (O_b + D_b·sb) − (O_a + D_a·sa), weighted. */
    private record Term(int a, double sa, int b, double sb, double k, double weight) {
    }

    private final int[] members;     // node indices; members[local]
    private final int[] local;       // node index → local index, −1 if not in the group
    private final int refLocal;
    private final ClockTransform[] path; // by local index
    private final long[] origin;     // T_n, by local index
    private final double h;          // H, ns
    private final List<Row> rows = new ArrayList<>();
    private final List<Term> terms = new ArrayList<>();
    private final List<Row> allRows = new ArrayList<>(); // rows + the redundant ones, to validate a solution
    /** First index in {@link #rows} of each (pair, direction)'s kept rows, and rows.size() last. */
    private final List<Integer> rowGroups = new ArrayList<>();
    /** Per kept row, how far its message is from the pair's estimate (ns; its latency for a pair without one). */
    private final List<Double> rowSlack = new ArrayList<>();
    private final long[] first;
    private final long[] last;
    private int oneWayPairs;
    private int pairsUsed;

    private double[] offsetUs;   // solution O, by local index
    private double[] driftUnits; // solution D, by local index
    // updated by the bound workers too
    private final LongAdder solveNanos = new LongAdder();
    private final LongAdder lpCount = new LongAdder();
    private final LongAdder solverRetries = new LongAdder();
    private boolean minimaxSkipped;
    private int initialRowsPerDirection = ROW_GENERATION ? INITIAL_ROWS_PER_DIRECTION : 0;
    private double minimaxValue = Double.NaN;
    private double l1Value = Double.NaN;
    private int rowGenerationRounds;
    private final long debugStart = System.nanoTime();
    private int activeRows;
    private final IntFunction<LinearProgram> solvers;
    private volatile Columns full;
    private final List<PairEstimate> pairList;
    private List<List<int[]>> links;   // local graph of estimated pairs: {other, weight bits}, for local bounds
    private int[][] rowsBySender;      // ids of rows whose sender is each member
    private double[] distFromRef;

    /**
     * @param members the group's node indices
     * @param ref     the reference node index (a member)
     * @param path    path-composition transform of every node (by node index), the starting point
     * @param pairs   every pair estimate; pairs not inside the group, absent and invalid ones are skipped
     */
    GlobalProgram(int[] members, int ref, ClockTransform[] path, List<PairEstimate> pairs, PairAccumulators acc) {
        this(members, ref, path, pairs, acc, LinearPrograms.factory());
    }

    /** Per node of the whole set, its index among {@code members}; -1 for a node not in the group. */
    static int[] localIndex(int[] members, int nodes) {
        int[] local = new int[nodes];
        Arrays.fill(local, -1);
        for (int k = 0; k < members.length; k++) {
            local[members[k]] = k;
        }
        return local;
    }

    /** Same, with the given solver ({@link LinearPrograms#factory()} by default). */
    GlobalProgram(int[] members, int ref, ClockTransform[] path, List<PairEstimate> pairs, PairAccumulators acc,
                  IntFunction<LinearProgram> solvers) {
        this.solvers = solvers;
        this.pairList = pairs;
        this.members = members.clone();
        this.local = GlobalProgram.localIndex(members, acc.nodes());
        this.refLocal = local[ref];
        int m = members.length;
        this.path = new ClockTransform[m];
        this.origin = new long[m];
        this.first = new long[m];
        this.last = new long[m];
        long maxHalf = 1_000_000L;
        for (int k = 0; k < m; k++) {
            int n = members[k];
            this.path[k] = path[n];
            first[k] = acc.first(n);
            last[k] = acc.last(n);
            origin[k] = first[k] + (last[k] - first[k]) / 2;
            maxHalf = Math.max(maxHalf, (last[k] - first[k]) / 2);
        }
        this.h = maxHalf;
        double maxWeight = 0;
        List<double[]> rawTerms = new ArrayList<>();
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
            long x0 = p.x0();
            long v0 = p.v0();
            // A vertex outside the range where the pair's bound function follows its hull only
            // constrains lines outside the pair's feasible drift range: redundant, exactly (the
            // joint constraints say "the pair's relative line lies in its feasible region").
            // only an accurate pair's bounds follow its hull between the extreme lines' contacts
            boolean exact = p.quality() == Quality.ACCURATE;
            long[] pRange = range(exact ? p.upperAToB() : null, p.x0(), p.pu());
            long[] qRange = range(exact ? p.lowerAToB() : null, p.x0(), p.qu());
            rowGroups.add(rows.size());
            for (int i = 0; i < p.pu().length; i++) { // a → b: sent at x on a, received at y on b
                long x = x0 + p.pu()[i];
                long lat = v0 + p.pv()[i]; // y − x
                long y = x + lat;
                Row row = new Row(a, s(a, x), b, s(b, y),
                        ((double) lat + this.path[b].correction(y) - this.path[a].correction(x)) / UNIT);
                allRows.add(row);
                if (x >= pRange[0] && x <= pRange[1]) {
                    rows.add(row);
                    // room left to the pair's estimate: y − E(x) (ns)
                    rowSlack.add(p.hasEstimate() ? lat - ((double) v0 + p.c() + p.d() * (double) (x - x0)) : (double) lat);
                }
            }
            rowGroups.add(rows.size());
            for (int i = 0; i < p.qu().length; i++) { // b → a: sent at y on b, received at x on a
                long x = x0 + p.qu()[i];
                long lat = -(v0 + p.qv()[i]); // x − y
                long y = x - lat;
                Row row = new Row(b, s(b, y), a, s(a, x),
                        ((double) lat + this.path[a].correction(x) - this.path[b].correction(y)) / UNIT);
                allRows.add(row);
                if (x >= qRange[0] && x <= qRange[1]) {
                    rows.add(row);
                    // room left to the pair's estimate: E(x) − y (ns)
                    rowSlack.add(p.hasEstimate() ? ((double) v0 + p.c() + p.d() * (double) (x - x0)) + lat : (double) lat);
                }
            }
            if (p.hasEstimate()) {
                double accuracyUs = p.quality() == Quality.ACCURATE && Double.isFinite(p.meanAccuracy())
                        ? p.meanAccuracy() / UNIT : 1e6;
                double w = 1.0 / Math.max(accuracyUs, 1e-3);
                maxWeight = Math.max(maxWeight, w);
                long[] ends = p.minX() == p.maxX() ? new long[] {p.minX()} : new long[] {p.minX(), p.maxX()};
                for (long x : ends) {
                    double ex = (double) v0 + p.c() + p.d() * (double) (x - x0); // E(x) − x
                    long ey = x + Math.round(ex);
                    double frac = ex - Math.round(ex);
                    double k = (ex + this.path[b].correction(ey) - this.path[a].correction(x)) / UNIT;
                    double sb = ((double) (ey - origin[b]) + frac) / h;
                    rawTerms.add(new double[] {a, s(a, x), b, sb, k, w});
                }
            }
        }
        rowGroups.add(rows.size());
        for (double[] t : rawTerms) {
            terms.add(new Term((int) t[0], t[1], (int) t[2], t[3], t[4], Math.max(t[5] / maxWeight, 1e-6)));
        }
    }

    /** [first, last] a-time of the hull vertices a pair's bound function follows; everything without one. */
    private static long[] range(org.tracesync.core.transform.MonotoneBound bound, long x0, long[] us) {
        if (bound == null) {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        }
        return new long[] {bound.t(0), bound.t(bound.size() - 1)};
    }

    private double s(int k, long t) {
        return (double) (t - origin[k]) / h;
    }

    /** Hull constraints in the program (facet-defining vertices only). */
    int constraintCount() {
        return rows.size();
    }

    /**
     * Row generation in {@link #solve} starting from {@code initialPerDirection} rows per (pair,
     * direction) (default {@link #INITIAL_ROWS_PER_DIRECTION}); 0: every hull row handed to the
     * solver at once.
     */
    void rowGeneration(int initialPerDirection) {
        initialRowsPerDirection = initialPerDirection;
    }

    /** The optima of the transforms' two stages: the smallest largest weighted deviation, and the weighted L1 deviation. */
    double[] objectiveValues() {
        return new double[] {minimaxValue, l1Value};
    }

    /** Programs built and solved for the transforms (row generation rounds, both stages). */
    int rowGenerationRounds() {
        return rowGenerationRounds;
    }

    /** Hull rows the transforms' programs needed (the rest were slack at their optimum). */
    int activeRows() {
        return activeRows;
    }

    /** Hull vertices of the group's pairs (each checked against the solution). */
    int hullVertexCount() {
        return allRows.size();
    }

    int pairsUsed() {
        return pairsUsed;
    }

    int oneWayPairs() {
        return oneWayPairs;
    }

    long lpCount() {
        return lpCount.sum();
    }

    /** True when the minimax stage failed and the estimate is the plain weighted L1 optimum. */
    boolean minimaxSkipped() {
        return minimaxSkipped;
    }

    /** Answers that failed their check and were retried another way (see {@link LinearProgram#retries()}). */
    long solverRetries() {
        return solverRetries.sum();
    }

    long solveNanos() {
        return solveNanos.sum();
    }

    /** Column of O_k (D_k is the next one); the reference has none. */
    private int col(int k) {
        return 2 * (k < refLocal ? k : k - 1);
    }

    private int unknowns() {
        return 2 * (members.length - 1);
    }

    /** Adds the hull rows, with τ = marginNs, to {@code lp} (the whole group's columns). */
    private void addHullRows(LinearProgram lp, double marginNs) {
        int[] colOf = fullColumns().colOf();
        for (Row r : rows) {
            addHullRow(lp, r, marginNs / UNIT, colOf);
        }
    }

    /** Adds the hull rows in {@code active} (indices into {@link #rows}), with τ = marginNs. */
    private void addHullRows(LinearProgram lp, double marginNs, java.util.BitSet active) {
        int[] colOf = fullColumns().colOf();
        for (int i = active.nextSetBit(0); i >= 0; i = active.nextSetBit(i + 1)) {
            addHullRow(lp, rows.get(i), marginNs / UNIT, colOf);
        }
    }

    /**
     * Hull rows violated by more than this (µs) at a restricted program's optimum join the program
     * (see {@link #solveByRowGeneration}): far below {@link #ESTIMATE_FEASIBILITY}, so the final
     * answer satisfies every hull row as well as if all had been in the program.
     */
    static final double ROW_GENERATION_TOLERANCE = 1e-6;
    /** Default of {@link #rowGeneration(int)}: off (slower at 1,000 nodes); {@code -Dtracesync.global.rowGeneration=true} turns it on. */
    static final boolean ROW_GENERATION = Boolean.parseBoolean(System.getProperty("tracesync.global.rowGeneration", "false"));
    static final boolean DEBUG = Boolean.getBoolean("tracesync.global.debug");

    /** Rows per (pair, direction) the transforms' row generation starts with. */
    static final int INITIAL_ROWS_PER_DIRECTION = 2;

    /**
     * The starting rows of the transforms' row generation: in each (pair, direction), the
     * {@link #INITIAL_ROWS_PER_DIRECTION} messages closest to the pair's estimate (for a pair
     * without one, with the smallest latency). The program stays close to the estimates, so these
     * are the rows most likely to bind.
     */
    private java.util.BitSet initialRows() {
        java.util.BitSet active = new java.util.BitSet(rows.size());
        if (initialRowsPerDirection <= 0) {
            active.set(0, rows.size());
            return active;
        }
        for (int g = 0; g + 1 < rowGroups.size(); g++) {
            int from = rowGroups.get(g);
            int to = rowGroups.get(g + 1);
            Integer[] order = new Integer[to - from];
            for (int i = from; i < to; i++) {
                order[i - from] = i;
            }
            Arrays.sort(order, (x, y) -> Double.compare(rowSlack.get(x), rowSlack.get(y)));
            for (int i = 0; i < Math.min(initialRowsPerDirection, order.length); i++) {
                active.set(order[i]);
            }
        }
        return active;
    }

    /**
     * Adds to {@code active} every hull row violated at (off, dr) by more than
     * {@link #ROW_GENERATION_TOLERANCE} (τ = marginNs); returns how many were added.
     */
    private int addViolatedRows(java.util.BitSet active, double[] off, double[] dr, double marginNs) {
        int added = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            double v = off[r.s()] + dr[r.s()] * r.ss() - off[r.r()] - dr[r.r()] * r.sr() - (r.rhs() - marginNs / UNIT);
            if (v > ROW_GENERATION_TOLERANCE && !active.get(i)) {
                active.set(i);
                added++;
            }
        }
        return added;
    }

    /** O and D of every member (0 for the reference) from an answer of a transforms' program. */
    private double[][] unknownsOf(double[] x) {
        double[] off = new double[members.length];
        double[] dr = new double[members.length];
        for (int k = 0; k < members.length; k++) {
            if (k != refLocal) {
                off[k] = x[col(k)];
                dr[k] = x[col(k) + 1];
            }
        }
        return new double[][] {off, dr};
    }

    /**
     * max cᵀx over {@code build}'s program by row generation: the program is built with the hull
     * rows in {@code active} only, solved, and every (pair, direction) with a hull row violated at
     * the answer gets its most violated row; until none is violated. Exact: the program with fewer
     * rows is a relaxation, so its optimum, once feasible for every hull row, is an optimum of the
     * whole program (its certificate, the row duals with 0 on the rows left out, is a dual-feasible
     * point of the whole program with the same objective). An infeasible relaxation means an
     * infeasible program. Why: most hull rows are slack at the optimum, and GLOP's simplex works
     * on a basis with one entry per row (1,000-node mesh: 46,780 hull rows, of which the programs
     * end up needing about a third; docs/PERFORMANCE.md). {@code active} grows in place, so the
     * next stage starts from the rows this one needed.
     */
    private LinearProgram.Answer solveByRowGeneration(java.util.BitSet active, double marginNs,
                                                      java.util.function.Function<java.util.BitSet, LinearProgram> build,
                                                      double[] c, boolean thorough) {
        while (true) {
            LinearProgram.Answer a;
            try (LinearProgram lp = build.apply(active)) {
                String tp = System.getProperty("tracesync.glop.transformParameters");
                if (tp != null && lp instanceof GlopLinearProgram g) {
                    g.parameters(tp);
                }
                a = lp.maximize(c, ESTIMATE_FEASIBILITY, ESTIMATE_GAP, thorough);
                lpCount.add(lp.solves());
                solverRetries.add(lp.retries());
            }
            rowGenerationRounds++;
            if (DEBUG) {
                System.err.printf("round %d: %d hull rows, %.3f s since start, thread cpu %.3f s, optimal %s%n", rowGenerationRounds,
                        active.cardinality(), (System.nanoTime() - debugStart) / 1e9,
                        java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9, a.optimal());
            }
            if (!a.optimal()) {
                return a;
            }
            double[][] u = unknownsOf(a.x());
            if (addViolatedRows(active, u[0], u[1], marginNs) == 0) {
                return a;
            }
        }
    }

    /** Adds one hull row; colOf[k] is the column of O_k (D_k the next one), −1 for the reference. */
    private static void addHullRow(LinearProgram lp, Row r, double margin, int[] colOf) {
        int[] idx = new int[4];
        double[] val = new double[4];
        int n = 0;
        int cs = colOf[r.s()];
        if (cs >= 0) {
            idx[n] = cs;
            val[n++] = 1.0;
            idx[n] = cs + 1;
            val[n++] = r.ss();
        }
        int cr = colOf[r.r()];
        if (cr >= 0) {
            idx[n] = cr;
            val[n++] = -1.0;
            idx[n] = cr + 1;
            val[n++] = -r.sr();
        }
        lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), r.rhs() - margin);
    }

    /**
     * Where each member's unknowns sit in a bound program: {@code colOf[local]} is the column of
     * O (D is the next one), −1 for the reference and for members a local program leaves out.
     */
    record Columns(int[] colOf, int count) {
    }

    private Columns fullColumns() {
        Columns c = full;
        if (c == null) {
            int[] colOf = new int[members.length];
            for (int k = 0; k < members.length; k++) {
                colOf[k] = k == refLocal ? -1 : col(k);
            }
            c = new Columns(colOf, unknowns());
            full = c;
        }
        return c;
    }

    /** Adds sign·(lin(b) − lin(a)) of term i into idx/val from position n; returns the new length. */
    private int termLinear(Term term, double sign, int[] idx, double[] val, int n) {
        if (term.b() != refLocal) {
            idx[n] = col(term.b());
            val[n++] = sign;
            idx[n] = col(term.b()) + 1;
            val[n++] = sign * term.sb();
        }
        if (term.a() != refLocal) {
            idx[n] = col(term.a());
            val[n++] = -sign;
            idx[n] = col(term.a()) + 1;
            val[n++] = -sign * term.sa();
        }
        return n;
    }

    /**
     * First stage: unknowns (O, D) of every non-reference node and z; rows: the hull rows and
     * ±w_i·δ_i ≤ z. Objective: minimize z, the largest weighted deviation. No per-term variable.
     */
    private LinearProgram minimaxProgram(double marginNs, java.util.BitSet active) {
        int u = unknowns();
        LinearProgram lp = solvers.apply(u + 1);
        addHullRows(lp, marginNs, active);
        for (Term term : terms) {
            for (double sign : new double[] {1.0, -1.0}) {
                int[] idx = new int[5];
                double[] val = new double[5];
                int n = termLinear(term, sign * term.weight(), idx, val, 0);
                idx[n] = u;
                val[n++] = -1.0;
                lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), -sign * term.weight() * term.k());
            }
        }
        lp.addRow(new int[] {u}, new double[] {-1.0}, 0.0);
        return lp;
    }

    /**
     * Second stage: unknowns (O, D) and e_i ≥ |δ_i| per term; rows: the hull rows,
     * ±δ_i ≤ e_i, and w_i·e_i ≤ zLimit (the first stage's optimum, slightly relaxed).
     * Objective: minimize Σ w_i·e_i.
     */
    private LinearProgram l1Program(double marginNs, double zLimit, java.util.BitSet active) {
        int u = unknowns();
        int t = terms.size();
        LinearProgram lp = solvers.apply(u + t);
        addHullRows(lp, marginNs, active);
        for (int i = 0; i < t; i++) {
            Term term = terms.get(i);
            int e = u + i;
            for (double sign : new double[] {1.0, -1.0}) {
                int[] idx = new int[5];
                double[] val = new double[5];
                int n = termLinear(term, sign, idx, val, 0);
                idx[n] = e;
                val[n++] = -1.0;
                lp.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n), -sign * term.k());
            }
            if (Double.isFinite(zLimit)) {
                lp.addRow(new int[] {e}, new double[] {term.weight()}, zLimit);
            }
            lp.addRow(new int[] {e}, new double[] {-1.0}, 0.0);
        }
        return lp;
    }

    /**
     * Solves for the transforms: first the smallest largest weighted deviation z*, then the
     * smallest weighted L1 deviation with z ≤ z*·(1 + 1e-6). First with a 1 ns margin on every
     * message (so that rounding the corrected times to ns never turns an equality into an
     * inversion), then, if that is infeasible, with τ alone. Returns false when the program is
     * infeasible: no linear clocks satisfy every message (or the answer violates a hull vertex,
     * redundant ones included, by more than 1 ns).
     */
    boolean solve(double minLatencyNs) {
        int u = unknowns();
        int t = terms.size();
        for (double margin : new double[] {Math.max(minLatencyNs, 1.0), minLatencyNs}) {
            long t0 = System.nanoTime();
            java.util.BitSet active = initialRows();
            double[] c1 = new double[u + 1];
            c1[u] = -1.0; // maximize −z
            // The minimax stage only refines the estimate: when its answer fails the check
            // (ojAlgo's dual, on groups of 50+ nodes), go straight to the L1 stage rather than
            // to ojAlgo's slow primal.
            LinearProgram.Answer first = solveByRowGeneration(active, margin, act -> minimaxProgram(margin, act), c1, false);
            double zLimit = Double.POSITIVE_INFINITY;
            if (first.optimal()) {
                double zMin = -first.value();
                minimaxValue = zMin;
                zLimit = zMin + Math.max(1e-6 * zMin, 1e-6);
            } else {
                minimaxSkipped = true;
            }
            double limit = zLimit;
            double[] c2 = new double[u + t];
            for (int i = 0; i < t; i++) {
                c2[u + i] = -terms.get(i).weight(); // maximize −Σ w·e
            }
            LinearProgram.Answer second = solveByRowGeneration(active, margin, act -> l1Program(margin, limit, act), c2, true);
            solveNanos.add(System.nanoTime() - t0);
            activeRows = active.cardinality();
            if (!second.optimal()) {
                continue;
            }
            l1Value = -second.value();
            double[][] sol = unknownsOf(second.x());
            double[] off = sol[0];
            double[] dr = sol[1];
            if (maxViolationNs(off, dr, minLatencyNs) <= 1.0) {
                offsetUs = off;
                driftUnits = dr;
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #solve} and the joint bounds of {@code nodes} at once. The bounds' LPs depend only on
     * the feasible set (τ = minLatencyNs), not on the transforms, so they run while this thread
     * solves the transforms' two programs (which GLOP solves on one core): local bounds (over the
     * {@code localNodes} nearest members, {@link #localBounds}) when {@code localOnly}, on
     * threads − 1 workers until the transforms are solved and on {@code threads} after; else the
     * whole program's fixed lanes ({@link #allBounds}). Each node's rows are then made to contain
     * its transform. Same output as {@link #solve} followed by {@link #allLocalBounds} or
     * {@link #allBounds}. Returns null, the bound work stopped, when the program is infeasible;
     * {@code solved} runs (on this thread) when the transforms are done.
     */
    Map<Integer, NodeBounds> solveWithBounds(double minLatencyNs, int[] nodes, boolean localOnly, int localNodes,
                                             int maxInstants, int threads, Runnable nodeDone, Runnable solved) {
        AtomicBoolean cancelled = new AtomicBoolean();
        int poolSize = Math.max(1, threads);
        ExecutorService pool = Executors.newFixedThreadPool(poolSize, r -> {
            Thread t = new Thread(r, "tracesync-global-bounds");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            Map<Integer, Optional<BoundSamples>> out = new ConcurrentHashMap<>();
            Runnable localWorker = null;
            if (localOnly) {
                // each node's local program is its own: workers take the next node, and one core is
                // left to the transforms until they are solved, then every core takes nodes
                prepareLocalPrograms();
                java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
                localWorker = () -> {
                    for (int i = next.getAndIncrement(); i < nodes.length && !cancelled.get(); i = next.getAndIncrement()) {
                        out.put(nodes[i], Optional.ofNullable(localBoundSamples(nodes[i], localNodes, maxInstants, minLatencyNs)));
                        nodeDone.run();
                    }
                };
                for (int w = 0; w < Math.max(1, poolSize - 1); w++) {
                    futures.add(pool.submit(localWorker));
                }
            } else {
                // fixed lanes (the output must not depend on the number of threads)
                futures.add(pool.submit(() -> out.putAll(
                        allBoundSamples(nodes, maxInstants, minLatencyNs, threads, nodeDone, cancelled))));
            }
            boolean ok = false;
            try {
                ok = solve(minLatencyNs);
            } finally {
                if (!ok) {
                    cancelled.set(true);
                }
            }
            if (ok) {
                solved.run();
                if (localOnly && poolSize > 1) {
                    futures.add(pool.submit(localWorker));
                }
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (!ok) {
                        continue; // the program is infeasible: the bounds are not used
                    }
                    throw unwrapped(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while computing joint bounds", e);
                }
            }
            return ok ? finishAll(out) : null;
        } finally {
            pool.shutdown();
        }
    }

    /** Largest amount (ns) by which the solution puts a hull message below τ. */
    private double maxViolationNs(double[] off, double[] dr, double minLatencyNs) {
        double worst = 0;
        for (Row r : allRows) {
            double lhs = off[r.s()] + dr[r.s()] * r.ss() - off[r.r()] - dr[r.r()] * r.sr();
            worst = Math.max(worst, (lhs - (r.rhs() - minLatencyNs / UNIT)) * UNIT);
        }
        return worst;
    }

    /** The solved transform of node {@code node} (a member): P_n plus the correction found. */
    ClockTransform transform(int node) {
        int k = local[node];
        if (k == refLocal) {
            return path[k];
        }
        double corr = path[k].correction(origin[k]) + UNIT * offsetUs[k];
        double drift = path[k].linearSegment().drift() + UNIT * driftUnits[k] / h;
        return ClockTransform.linear(origin[k], corr, drift);
    }

    /**
     * The program of the joint bounds: the hull rows alone with τ = {@code minLatencyNs}, no
     * objective yet; one per worker, reused for every bound LP of its nodes (the solver restarts
     * each from the previous optimal basis). The caller closes it.
     */
    LinearProgram boundProgram(double minLatencyNs) {
        LinearProgram lp = solvers.apply(unknowns());
        addHullRows(lp, minLatencyNs);
        return lp;
    }

    /**
     * Local joint bounds of every given non-reference member, for groups too large for one bound
     * program per lane (see {@link #localBounds}). Each node has a program of its own, so the
     * output does not depend on {@code threads}. Returns rows by node index (empty when the local
     * program leaves the node unbounded).
     */
    Map<Integer, NodeBounds> allLocalBounds(int[] nodes, int localNodes, int maxInstants, double minLatencyNs,
                                            int threads, Runnable nodeDone) {
        return finishAll(allLocalBoundSamples(nodes, localNodes, maxInstants, minLatencyNs, threads, nodeDone,
                new AtomicBoolean()));
    }

    /** The LP part of {@link #allLocalBounds}; stops early (leaving nodes out) once {@code cancelled} is set. */
    private Map<Integer, Optional<BoundSamples>> allLocalBoundSamples(int[] nodes, int localNodes, int maxInstants,
                                                                      double minLatencyNs, int threads, Runnable nodeDone,
                                                                      AtomicBoolean cancelled) {
        prepareLocalPrograms();
        Map<Integer, Optional<BoundSamples>> out = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < nodes.length && !cancelled.get(); i = next.getAndIncrement()) {
                out.put(nodes[i], Optional.ofNullable(localBoundSamples(nodes[i], localNodes, maxInstants, minLatencyNs)));
                nodeDone.run();
            }
        };
        int workers = Math.max(1, Math.min(threads, nodes.length));
        if (workers == 1) {
            worker.run();
            return out;
        }
        List<Runnable> work = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            work.add(worker);
        }
        runAll(work, workers);
        return out;
    }

    /**
     * Joint bounds of {@code node} over a <em>local</em> program: the hull rows between the
     * {@code localNodes} members that lie closest to the reference–node route (smallest
     * d(ref, v) + d(v, node), d the shortest-path distance over the pairs' uncertainties, as path
     * composition uses; the node, the reference and every node of a shortest route among them).
     *
     * <h2>Why the bounds stay strict</h2>
     * Dropping rows enlarges the feasible set: every point of the whole program, restricted to the
     * local members' unknowns, satisfies the local rows (each of them is a row of the whole
     * program over those unknowns alone). So the local max of g is ≥ the whole program's max and
     * the local min ≤ its min: the local bounds contain the joint ones, which contain the truth
     * when the clocks are linear. They are looser only where a tighter chain of constraints runs
     * through members left out (on 60-node meshes, 32 local nodes: mean width within 0.5 % of the
     * joint bounds, 20 % narrower than path composition's; GlobalReductionTest). Same sandwich
     * sampling and certification as {@link #bounds}.
     *
     * <p>Cost: two Dijkstra runs' worth of work (one from the node; the reference's is shared),
     * then the LPs of {@link #bounds} on 2·(localNodes − 1) unknowns and the rows among the local
     * members, whatever the size of the group.
     */
    NodeBounds localBounds(int node, int localNodes, int maxInstants, double minLatencyNs) {
        return finishBounds(node, localBoundSamples(node, localNodes, maxInstants, minLatencyNs));
    }

    /** The LP part of {@link #localBounds}. */
    private BoundSamples localBoundSamples(int node, int localNodes, int maxInstants, double minLatencyNs) {
        prepareLocalPrograms();
        int k = local[node];
        int[] subset = nearestToRoute(k, localNodes);
        int m = members.length;
        boolean[] in = new boolean[m];
        int[] colOf = new int[m];
        Arrays.fill(colOf, -1);
        int count = 0;
        for (int v : subset) {
            in[v] = true;
            if (v != refLocal) {
                colOf[v] = count;
                count += 2;
            }
        }
        Columns cols = new Columns(colOf, count);
        double margin = minLatencyNs / UNIT;
        try (LinearProgram lp = solvers.apply(count)) {
            for (int v : subset) {
                for (int id : rowsBySender[v]) {
                    Row r = rows.get(id);
                    if (in[r.r()]) {
                        addHullRow(lp, r, margin, colOf);
                    }
                }
            }
            return sampleBounds(lp, cols, node, maxInstants);
        }
    }

    /** Builds, once, the graph of estimated pairs and the rows by sender that local programs need. */
    private synchronized void prepareLocalPrograms() {
        if (links != null) {
            return;
        }
        int m = members.length;
        List<List<int[]>> g = new ArrayList<>();
        for (int k = 0; k < m; k++) {
            g.add(new ArrayList<>());
        }
        for (PairEstimate p : pairList) {
            int a = local[p.a()];
            int b = local[p.b()];
            if (a < 0 || b < 0 || !p.hasEstimate() || p.quality() == Quality.INVALID) {
                continue;
            }
            double w = p.quality() == Quality.ACCURATE && Double.isFinite(p.meanAccuracy())
                    ? Math.max(p.meanAccuracy(), 1e-3) : 1e12;
            long bits = Double.doubleToLongBits(w);
            g.get(a).add(new int[] {b, (int) (bits >>> 32), (int) bits});
            g.get(b).add(new int[] {a, (int) (bits >>> 32), (int) bits});
        }
        int[] counts = new int[m];
        for (Row r : rows) {
            counts[r.s()]++;
        }
        int[][] bySender = new int[m][];
        for (int k = 0; k < m; k++) {
            bySender[k] = new int[counts[k]];
        }
        Arrays.fill(counts, 0);
        for (int i = 0; i < rows.size(); i++) {
            int sd = rows.get(i).s();
            bySender[sd][counts[sd]++] = i;
        }
        rowsBySender = bySender;
        links = g;
        distFromRef = dijkstra(refLocal);
    }

    /** Shortest-path distances from local node {@code from} over the estimated pairs (∞ if unreachable). */
    private double[] dijkstra(int from) {
        double[] dist = new double[members.length];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        dist[from] = 0;
        java.util.PriorityQueue<double[]> queue = new java.util.PriorityQueue<>((x, y) -> Double.compare(x[0], y[0]));
        queue.add(new double[] {0, from});
        while (!queue.isEmpty()) {
            double[] top = queue.poll();
            int v = (int) top[1];
            if (top[0] > dist[v]) {
                continue;
            }
            for (int[] e : links.get(v)) {
                double w = Double.longBitsToDouble(((long) e[1] << 32) | (e[2] & 0xffffffffL));
                double d = top[0] + w;
                if (d < dist[e[0]]) {
                    dist[e[0]] = d;
                    queue.add(new double[] {d, e[0]});
                }
            }
        }
        return dist;
    }

    /**
     * The {@code size} members with the smallest d(ref, v) + d(v, k), ties to the lower index; the
     * reference and k always among them. Sorted by local index.
     */
    private int[] nearestToRoute(int k, int size) {
        double[] fromK = dijkstra(k);
        int m = members.length;
        Integer[] order = new Integer[m];
        for (int v = 0; v < m; v++) {
            order[v] = v;
        }
        double[] score = new double[m];
        for (int v = 0; v < m; v++) {
            score[v] = v == k || v == refLocal ? Double.NEGATIVE_INFINITY : distFromRef[v] + fromK[v];
        }
        Arrays.sort(order, (x, y) -> score[x] != score[y] ? Double.compare(score[x], score[y]) : Integer.compare(x, y));
        int n = Math.min(m, Math.max(2, size));
        int[] out = new int[n];
        int c = 0;
        for (int i = 0; i < n && score[order[i]] < Double.POSITIVE_INFINITY; i++) {
            out[c++] = order[i];
        }
        out = Arrays.copyOf(out, c);
        Arrays.sort(out);
        return out;
    }

    /**
     * Lanes of the joint-bound computation: the nodes are cut into this many contiguous runs, each
     * solved in order on its own bound program. A fixed number, not the machine's core count: the
     * sample instants follow the solver's optimal vertices, which depend on the basis each LP
     * starts from, so the output must not depend on how many threads ran.
     */
    static final int BOUND_LANES = 4;

    /**
     * Joint bounds of every given non-reference member: {@link #BOUND_LANES} lanes, run by up to
     * {@code threads} threads at once. Same output whatever {@code threads} is. Returns rows by node
     * index; a lane's failure propagates.
     */
    Map<Integer, NodeBounds> allBounds(int[] nodes, int maxInstants, double minLatencyNs, int threads) {
        return allBounds(nodes, maxInstants, minLatencyNs, threads, () -> { });
    }

    /** As above, calling {@code nodeDone} (from the solving threads) after each node's bounds. */
    Map<Integer, NodeBounds> allBounds(int[] nodes, int maxInstants, double minLatencyNs, int threads,
                                       Runnable nodeDone) {
        return finishAll(allBoundSamples(nodes, maxInstants, minLatencyNs, threads, nodeDone, new AtomicBoolean()));
    }

    /** {@link #finishBounds} of every node's samples (null samples give {@link NodeBounds#NONE}). */
    private Map<Integer, NodeBounds> finishAll(Map<Integer, Optional<BoundSamples>> samples) {
        Map<Integer, NodeBounds> out = new java.util.HashMap<>();
        samples.forEach((node, s) -> out.put(node, finishBounds(node, s.orElse(null))));
        return out;
    }

    /** The LP part of {@link #allBounds}; stops early (leaving nodes out) once {@code cancelled} is set. */
    private Map<Integer, Optional<BoundSamples>> allBoundSamples(int[] nodes, int maxInstants, double minLatencyNs,
                                                                 int threads, Runnable nodeDone, AtomicBoolean cancelled) {
        Map<Integer, Optional<BoundSamples>> out = new ConcurrentHashMap<>();
        int lanes = Math.max(1, Math.min(BOUND_LANES, nodes.length));
        List<Runnable> work = new ArrayList<>();
        for (int lane = 0; lane < lanes; lane++) {
            int from = (int) ((long) nodes.length * lane / lanes);
            int to = (int) ((long) nodes.length * (lane + 1) / lanes);
            work.add(() -> {
                try (LinearProgram lp = boundProgram(minLatencyNs)) {
                    for (int i = from; i < to && !cancelled.get(); i++) {
                        out.put(nodes[i], Optional.ofNullable(sampleBounds(lp, fullColumns(), nodes[i], maxInstants)));
                        nodeDone.run();
                    }
                }
            });
        }
        int workers = Math.max(1, Math.min(threads, lanes));
        if (workers == 1) {
            work.forEach(Runnable::run);
            return out;
        }
        runAll(work, workers);
        return out;
    }

    /** Runs every task on {@code workers} daemon threads; a task's failure propagates. */
    private static void runAll(List<Runnable> work, int workers) {
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "tracesync-global-bounds");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Runnable r : work) {
                futures.add(pool.submit(r));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw unwrapped(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while computing joint bounds", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Joint bounds of node {@code node} (a non-reference member) under the feasible set of
     * {@code lp}, a {@link #boundProgram} (τ = its minLatencyNs).
     *
     * <h2>Why linear interpolation between instants is conservative</h2>
     * At local time t the reference time is t + P_n(t) + 1000·g(t), g(t) = O_n + D_n·s_n(t), linear
     * in the unknowns and in t. Its maximum over the (convex) feasible set is a maximum of linear
     * functions of t, hence convex: chords between sampled maxima lie above it, so interpolated
     * upper bounds only widen. The minimum is concave and its chords lie below it. Beyond the
     * first and last instant, rows continue with the feasible set's extreme drifts: for t past the
     * last instant t_k, max g(t) ≤ max g(t_k) + (s(t) − s(t_k))·max D, and likewise on the other
     * side and for the minimum: the bound functions' end slopes, from which {@link NodeBounds#of}
     * writes the end rows (the same rule as path composition).
     *
     * <h2>Which instants: the sandwich method, at most {@code maxInstants}</h2>
     * Each LP at an instant also yields a supporting line of the convex max (the optimal point's
     * drift is a subgradient). Starting from the node's first and last timestamps, between two
     * sampled instants the true maximum lies between the chord and the two supporting lines; where
     * the gap (at the supporting lines' intersection) exceeds ε = max(10 ns, 0.5% of the bound
     * width), the LP is solved at that intersection, largest gap first, until every gap is ≤ ε or
     * each side has used maxInstants / 2 instants. So the rows are strict bounds and, when the cap
     * is not reached, within ε of the tightest possible piecewise-linear ones.
     *
     * <p>Cost: 4 + (refinements) + 2 LPs of the program's size (at most maxInstants + 2).
     * Returns {@link NodeBounds#NONE} when the feasible set is unbounded for this node.
     */
    NodeBounds bounds(LinearProgram lp, Columns cols, int node, int maxInstants) {
        return finishBounds(node, sampleBounds(lp, cols, node, maxInstants));
    }

    /**
     * The LP part of a node's joint bounds ({@link #bounds}): the sampled extremes of g on both
     * sides and the extreme drifts. It depends on the feasible set only, not on the transforms, so
     * it can run while {@link #solve} does ({@link #solveWithBounds}).
     */
    record BoundSamples(java.util.TreeMap<Long, double[]> hi, java.util.TreeMap<Long, double[]> lo,
                        double dUp, double dDown) {
    }

    /** The LP part of {@link #bounds}; null when the feasible set is unbounded for this node (or an LP failed). */
    BoundSamples sampleBounds(LinearProgram lp, Columns cols, int node, int maxInstants) {
        int k = local[node];
        long t0 = first[k];
        long t1 = Math.max(last[k], first[k] + 1);
        java.util.TreeMap<Long, double[]> hi = new java.util.TreeMap<>(); // t → {max g, subgradient}
        java.util.TreeMap<Long, double[]> lo = new java.util.TreeMap<>(); // t → {min g, supergradient}
        for (long t : new long[] {t0, t1}) {
            double[] up = extreme(lp, cols, k, s(k, t), 1.0);
            double[] down = extreme(lp, cols, k, s(k, t), -1.0);
            if (up == null || down == null) {
                return null;
            }
            hi.put(t, up);
            lo.put(t, down);
        }
        double width = UNIT * Math.max(hi.get(t0)[0] - lo.get(t0)[0], hi.get(t1)[0] - lo.get(t1)[0]);
        double epsUs = Math.max(10.0, 0.005 * width) / UNIT;
        int perSide = Math.max(2, maxInstants / 2);
        if (!refine(lp, cols, k, hi, 1.0, epsUs, perSide) || !refine(lp, cols, k, lo, -1.0, epsUs, perSide)) {
            return null;
        }
        double[] dUp = extreme(lp, cols, k, Double.NaN, 1.0);
        double[] dDown = extreme(lp, cols, k, Double.NaN, -1.0);
        if (dUp == null || dDown == null) {
            return null; // the extreme drifts are needed for the end rows
        }
        return new BoundSamples(hi, lo, dUp[0], dDown[0]);
    }

    /**
     * A node's joint bounds from its samples, once the transforms are solved: rows at every sampled
     * instant, made to contain the estimate; {@link NodeBounds#NONE} for null samples.
     */
    NodeBounds finishBounds(int node, BoundSamples samples) {
        if (samples == null) {
            return NodeBounds.NONE;
        }
        int k = local[node];
        java.util.TreeMap<Long, double[]> hi = samples.hi();
        java.util.TreeMap<Long, double[]> lo = samples.lo();
        java.util.TreeSet<Long> ts = new java.util.TreeSet<>(hi.keySet());
        ts.addAll(lo.keySet());
        long[] at = new long[ts.size()];
        double[] lower = new double[at.length];
        double[] upper = new double[at.length];
        int i = 0;
        for (long t : ts) {
            // absolute bounds as corrections: P_n(t) + 1000·g(t), widened by the safety margin and
            // made to contain the estimate (a feasible point up to the solver's tolerance)
            double est = offsetUs[k] + driftUnits[k] * s(k, t);
            double p = path[k].correction(t);
            at[i] = t;
            lower[i] = p + UNIT * Math.min(chord(k, lo, t), est) - SAFETY_NS;
            upper[i] = p + UNIT * Math.max(chord(k, hi, t), est) + SAFETY_NS;
            i++;
        }
        double pathSlope = 1.0 + path[k].linearSegment().drift();
        double steepest = pathSlope + UNIT * samples.dUp() / h;
        double flattest = pathSlope + UNIT * samples.dDown() / h;
        if (!(flattest > 0)) {
            return NodeBounds.NONE; // the feasible set allows a non-positive clock rate: no finite end rows
        }
        return NodeBounds.of(transform(node),
                MonotoneBound.rounded(MonotoneBound.Kind.LOWER, at, lower, steepest, flattest),
                MonotoneBound.rounded(MonotoneBound.Kind.UPPER, at, upper, flattest, steepest));
    }

    /**
     * Sandwich refinement of one side ({@code sign} 1: the convex max, −1: the concave min, handled
     * as −max(−g)). Returns false if an LP failed.
     */
    private boolean refine(LinearProgram lp, Columns cols, int k,
                           java.util.TreeMap<Long, double[]> samples, double sign, double epsUs, int cap) {
        while (samples.size() < cap) {
            long bestT = Long.MIN_VALUE;
            double bestGap = epsUs;
            Long prev = null;
            for (long t : samples.keySet()) {
                if (prev != null && t - prev > 1) {
                    double sl = s(k, prev);
                    double sr = s(k, t);
                    double vl = sign * samples.get(prev)[0];
                    double gl = sign * samples.get(prev)[1];
                    double vr = sign * samples.get(t)[0];
                    double gr = sign * samples.get(t)[1];
                    if (gr > gl) {
                        double sx = ((vl - gl * sl) - (vr - gr * sr)) / (gr - gl); // supporting lines meet
                        sx = Math.max(sl, Math.min(sr, sx));
                        double chordAt = vl + (vr - vl) * (sx - sl) / (sr - sl);
                        double gap = chordAt - (vl + gl * (sx - sl));
                        if (gap > bestGap) {
                            long tx = origin[k] + Math.round(sx * h);
                            if (tx > prev && tx < t) {
                                bestGap = gap;
                                bestT = tx;
                            }
                        }
                    }
                }
                prev = t;
            }
            if (bestT == Long.MIN_VALUE) {
                return true;
            }
            double[] v = extreme(lp, cols, k, s(k, bestT), sign);
            if (v == null) {
                return false;
            }
            samples.put(bestT, v);
        }
        return true;
    }

    /** The chord (linear interpolation in t) of one side's samples at t, within their range. */
    private double chord(int k, java.util.TreeMap<Long, double[]> samples, long t) {
        double[] exact = samples.get(t);
        if (exact != null) {
            return exact[0];
        }
        Long l = samples.floorKey(t);
        Long r = samples.ceilingKey(t);
        double f = (double) (t - l) / (double) (r - l);
        return samples.get(l)[0] + f * (samples.get(r)[0] - samples.get(l)[0]);
    }

    /**
     * Extreme of g = O + D·s over the feasible set: the max for sign 1, the min for −1; with s NaN,
     * the extreme of D alone. Returns {value, D at the optimum} or null when unbounded/unsolved.
     */
    private double[] extreme(LinearProgram lp, Columns cols, int k, double s, double sign) {
        boolean driftOnly = Double.isNaN(s);
        double[] c = new double[cols.count()];
        int ck = cols.colOf()[k];
        c[ck] = driftOnly ? 0.0 : sign;
        c[ck + 1] = driftOnly ? sign : sign * s;
        long t0 = System.nanoTime();
        int before = lp.solves();
        int retriesBefore = lp.retries();
        LinearProgram.Answer a = lp.upperBound(c);
        solverRetries.add(lp.retries() - retriesBefore);
        solveNanos.add(System.nanoTime() - t0);
        lpCount.add(lp.solves() - before);
        if (!a.optimal()) {
            return null;
        }
        double v = sign * a.value();
        if (!Double.isFinite(v) || Math.abs(v) > UNBOUNDED_US) {
            return null;
        }
        double dv = a.x()[ck + 1]; // a hint: where the next sample goes
        return new double[] {v, dv};
    }

    /** A bound worker's failure, thrown as itself when unchecked. */
    private static RuntimeException unwrapped(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException re) {
            return re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(cause);
    }
}
